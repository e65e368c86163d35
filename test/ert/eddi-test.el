;;; eddi-test.el --- ERT tests for eddi-module.so and eddi.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by ctest:
;;   emacs --batch -Q -module-assertions -L elisp -L test/ert -l eddi-test.el
;;         -f eddi-test-batch FIXTURES TRANSCRIPTS
;; Every test works in a fresh workspace folder with its own engine, on real
;; files and live buffers.  `eddi-test-batch' prints "ert: N passed, N failed"
;; and exits 1 on any failure.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'eddi)
(require 'eddi-transcript)

(defvar eddi-test-fixtures nil "The fixtures folder (test/fixtures).")
(defvar eddi-test-transcripts nil "The transcripts folder (test/transcripts).")

(defvar eddi-test-root nil "The workspace of the running test.")

(defmacro eddi-test-with-workspace (files &rest body)
  "Run BODY with a fresh workspace holding FILES ((PATH . BYTES)...).
`eddi--engine' is an engine over it; it is freed afterwards, the
buffers of the workspace are killed and no engine memory may leak."
  (declare (indent 1))
  `(let* ((eddi-test-root (file-name-as-directory (make-temp-file "eddi-ert-" t)))
          (make-backup-files nil)
          (create-lockfiles nil)
          (auto-save-default nil)
          (eddi-pulse-seconds 0)
          (eddi-preview-multi-file nil)
          (eddi-sender "tester")
          (live (eddi-module-live-allocations))
          (eddi--engine nil))
     (dolist (file ,files) (eddi-transcript--write (expand-file-name (car file) eddi-test-root)
                                                   (cdr file)))
     (setq eddi--engine (eddi-module-new eddi-test-root))
     (unwind-protect
         (progn (should (equal (eddi-exec "Start s") "Ok")) ,@body)
       (eddi-module-free eddi--engine)
       (setq eddi--engine nil)
       (dolist (buffer (buffer-list))
         (when (and (buffer-file-name buffer)
                    (string-prefix-p eddi-test-root (buffer-file-name buffer)))
           (with-current-buffer buffer (set-buffer-modified-p nil))
           (kill-buffer buffer)))
       (delete-directory eddi-test-root t)
       (should (= (eddi-module-live-allocations) live)))))

(defun eddi-test-path (rel)
  "REL in the test workspace."
  (expand-file-name rel eddi-test-root))

(defun eddi-test-buffer (rel)
  "The buffer visiting REL."
  (find-buffer-visiting (eddi-test-path rel)))

(defun eddi-test-text (rel)
  "The text of the buffer visiting REL."
  (with-current-buffer (eddi-test-buffer rel)
    (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max)))))

(defun eddi-test-undo-one (rel)
  "Undo one step in the buffer visiting REL, as C-/ would."
  (with-current-buffer (eddi-test-buffer rel)
    (let ((list buffer-undo-list))
      (while (null (car list)) (setq list (cdr list)))
      (setq buffer-undo-list (primitive-undo 1 list)))))

;;;; The module

(ert-deftest eddi-module-loads ()
  (eddi-load-module)
  (should (featurep 'eddi-module))
  (should (equal (eddi-module-version) eddi-version))
  (dolist (fn '(eddi-module-new eddi-module-exec eddi-module-free eddi-module-cursor))
    (should (fboundp fn))))

(ert-deftest eddi-module-missing-is-one-clear-error ()
  (let ((eddi-module-directory "/nonexistent/eddi")
        (eddi--directory "/nonexistent/elisp/"))
    (let ((err (should-error (eddi--find-module) :type 'user-error)))
      (should (string-match-p "eddi-module.so not found in /nonexistent/eddi"
                              (cadr err))))))

(ert-deftest eddi-module-found-on-load-path ()
  "With no `eddi-module-directory', the module is found on `load-path', as vterm's is."
  (let* ((built (eddi--find-module))
         (folder (make-temp-file "eddi-load-path-" t))
         (file (expand-file-name "eddi-module.so" folder))
         (eddi-module-directory nil)
         (eddi--directory "/nonexistent/elisp/")
         (load-path (cons folder load-path)))
    (unwind-protect
        (progn
          (copy-file built file)
          (should (equal (eddi--find-module) file))
          ;; `require' takes the same file: the feature is the module's.
          (should (equal (locate-library "eddi-module") file)))
      (delete-directory folder t))))

(ert-deftest eddi-module-refuses-bad-arguments ()
  (should-error (eddi-module-exec 'not-an-engine "s" "Help"))
  (should-error (eddi-module-new "/nonexistent/folder/for/eddi"))
  (let ((engine (eddi-module-new temporary-file-directory)))
    (eddi-module-free engine)
    (should-error (eddi-module-exec engine "s" "Help"))))

(ert-deftest eddi-exec-returns-the-reply-text ()
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\n"))
    (should (equal (eddi-exec "Open a.txt\nGoto 1:0\nStatus")
                   "Ok, At 0:0, Length 2\nOk, At 1:0\nOk: Session s, File a.txt, At 1:0, Length 2"))
    (should (equal (eddi-exec "Status" "other") (concat "Fail \"No session exists and this is "
                                                        "not a session command\", Start one "
                                                        "with \"Start <name>\"")))))

(ert-deftest eddi-module-exec-routes-by-session ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    ;; A request naming its session runs as its own sender, who must hold it;
    ;; naming the session alone is not enough.
    (should (equal (eddi-module-exec eddi--engine "tester" "Open a.txt" t "s")
                   "Ok, At 0:0, Length 1"))
    (should (equal (eddi-module-exec eddi--engine nil "Status" t "s")
                   "Fail \"Session s belongs to another sender\""))
    (let ((cursor (eddi-module-cursor eddi--engine "tester")))
      (should (integerp (car cursor)))
      (should (equal (cdr cursor) 0)))
    (should (equal (eddi-module-exec eddi--engine "bob" "Status" t "s")
                   "Fail \"Session s belongs to another sender\""))
    (should (equal (eddi-module-exec eddi--engine nil "Status" t "nope")
                   "Fail \"Session nope not found\""))
    ;; Outside NATS a sender is needed.
    (should-error (eddi-module-exec eddi--engine nil "Status"))))

;;;; Live buffers

(ert-deftest eddi-edits-go-through-the-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\n"))
    (should (equal (eddi-exec "Open a.txt") "Ok, At 0:0, Length 2"))
    (should (eddi-test-buffer "a.txt"))
    (should (equal (eddi-exec "Insert Line \"zero\"") "Ok, Inserted 1 line at 0, At 1:0"))
    (should (equal (eddi-test-text "a.txt") "zero\none\ntwo\n"))
    (should (buffer-modified-p (eddi-test-buffer "a.txt")))
    ;; Not on disk until Save, which is save-buffer.
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "one\ntwo\n"))
    (should (equal (eddi-exec "Save") "Ok, Bytes 13"))
    (should-not (buffer-modified-p (eddi-test-buffer "a.txt")))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "zero\none\ntwo\n"))))

(ert-deftest eddi-each-command-is-one-undo-step ()
  (eddi-test-with-workspace '(("a.txt" . "a b a b a\n"))
    (eddi-exec "Open a.txt")
    (should (equal (eddi-exec "Replace \"a\" \"x\" All") "Ok, Replaced 3 occurrences"))
    (should (equal (eddi-exec "Insert Line \"top\"\nInsert Line \"more\"")
                   "Ok, Inserted 1 line at 0, At 1:0\nOk, Inserted 1 line at 1, At 2:0"))
    (should (equal (eddi-test-text "a.txt") "top\nmore\nx b x b x\n"))
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "top\nx b x b x\n"))
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "x b x b x\n"))
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "a b a b a\n"))
    ;; The mirror followed the user's undo.
    (should (equal (eddi-exec "Show Line 0 0") "Ok: At 0:0, Lines 0:0, Txt a b a b a"))))

(ert-deftest eddi-undo-through-eddi ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt\nInsert Line \"zero\"")
    (should (equal (eddi-exec "Undo") "Ok, Undid 1 step, At 0:0"))
    (should (equal (eddi-test-text "a.txt") "one\n"))
    (should (equal (eddi-exec "Redo") "Ok, Redid 1 step, At 1:0"))
    (should (equal (eddi-test-text "a.txt") "zero\none\n"))))

(ert-deftest eddi-customize-groups ()
  "customize-group eddi shows a few settings and subgroups, not one flat list."
  (require 'eddi-agent)
  (let ((members (lambda (group) (mapcar #'car (get group 'custom-group)))))
    (dolist (sub '(eddi-module eddi-buffers eddi-nats eddi-faces eddi-agent eddi-lsp))
      (should (memq sub (funcall members 'eddi))))
    (should (memq 'eddi-nats-url (funcall members 'eddi-nats)))
    (should (memq 'eddi-lsp-servers (funcall members 'eddi-lsp)))
    (should (memq 'eddi-changed-face (funcall members 'eddi-faces)))
    (should (memq 'eddi-agent-max-tool-calls (funcall members 'eddi-agent-limits)))
    (should (memq 'eddi-agent-tool-face (funcall members 'eddi-agent-faces)))
    (should (< (length (funcall members 'eddi)) 12))))

(ert-deftest eddi-module-compile-runs-asynchronously ()
  "The build runs in a compilation-mode buffer while Emacs goes on, from the
sources named; it copies the module beside eddi.el."
  (let* ((root (make-temp-file "eddi-compile-async-" t))
         (source (expand-file-name "src" root))
         (elisp (file-name-as-directory (expand-file-name "elisp" root)))
         (cmake (expand-file-name "fake-cmake" root))
         (noninteractive nil)
         (eddi--directory elisp)
         (eddi-module-source-directory nil)
         (eddi-cmake-program cmake))
    (unwind-protect
        (progn
          (make-directory source t)
          (make-directory elisp t)
          (write-region "" nil (expand-file-name "CMakeLists.txt" source))
          ;; A cmake that takes a while and makes the module file.
          (write-region (concat "#!/bin/sh\nsleep 0.5\necho \"cmake $*\"\n"
                                "if [ \"$1\" = --build ]; then mkdir -p \"$2/module/emacs\";"
                                " echo so > \"$2/module/emacs/eddi-module.so\"; fi\n")
                        nil cmake)
          (set-file-modes cmake #o755)
          ;; No sources above elisp/: the error says how to name them.
          (should (string-match-p "C-u M-x eddi-module-compile"
                                  (cadr (should-error (eddi-module-compile) :type 'user-error))))
          (let* ((start (float-time))
                 (buffer (eddi-module-compile source)))
            (should (< (- (float-time) start) 0.4))
            (with-current-buffer buffer
              (should (derived-mode-p 'compilation-mode))
              (should (process-live-p (get-buffer-process buffer))))
            (with-timeout (10 (error "The build did not end"))
              (while (process-live-p (get-buffer-process buffer))
                (accept-process-output nil 0.05)))
            (should (file-exists-p (expand-file-name "eddi-module.so" elisp)))
            (kill-buffer buffer)))
      (delete-directory root t))))

(ert-deftest eddi-undo-then-edit-are-two-undo-steps ()
  "One C-/ after eddi's Undo and another command takes back that command only."
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt")
    (eddi-exec "Insert Line \"DDD\"")
    (eddi-exec "Undo")
    (eddi-exec "Insert Line \"EEE\"")
    (should (equal (eddi-test-text "a.txt") "EEE\none\n"))
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "one\n"))
    ;; The next C-/ takes back the Undo: DDD comes back.
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "DDD\none\n"))))

(ert-deftest eddi-markers-and-point-move-as-if-typed ()
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\nthree\n"))
    (eddi-exec "Open a.txt")
    (with-current-buffer (eddi-test-buffer "a.txt")
      (goto-char 9)                     ; "three"
      (let ((marker (copy-marker 5)))   ; "two"
        (eddi-exec "Insert Line \"zero\"")
        (should (equal (buffer-substring marker (+ marker 3)) "two"))
        (should (equal (buffer-substring (point) (+ (point) 5)) "three"))))))

(ert-deftest eddi-non-ascii-positions ()
  (eddi-test-with-workspace '(("u.txt" . "\346\227\245\346\234\254 caf\303\251\nemoji \360\237\216\211 x\n"))
    (eddi-exec "Open u.txt")
    (should (equal (eddi-exec "Find \"café\"") "Ok, At 0:3"))
    (should (equal (eddi-exec "Goto 1:7\nInsert Block \"✓\"")
                   "Ok, At 1:7\nOk, Inserted 1 line at 1, At 1:8"))
    (should (equal (eddi-test-text "u.txt") "日本 café\nemoji 🎉✓ x\n"))
    (with-current-buffer (eddi-test-buffer "u.txt")
      (goto-char (point-min))
      (insert "ü"))                     ; the user types a multi-byte character
    (should (equal (eddi-exec "Show Line 0 0") "Ok: At 0:0, Lines 0:0, Txt ü日本 café"))
    (should (equal (eddi-exec "Save") "Ok, Bytes 31"))
    (should (equal (decode-coding-string (eddi-transcript--read (eddi-test-path "u.txt")) 'utf-8)
                   "ü日本 café\nemoji 🎉✓ x\n"))))

(ert-deftest eddi-crlf-buffers ()
  (eddi-test-with-workspace '(("c.txt" . "one\r\ntwo\r\n"))
    (eddi-exec "Open c.txt")
    (with-current-buffer (eddi-test-buffer "c.txt")
      (should (eq (coding-system-eol-type buffer-file-coding-system) 1)))
    (should (equal (eddi-test-text "c.txt") "one\ntwo\n"))
    (should (equal (eddi-exec "Goto 1:3\nInsert Block \"!\"") "Ok, At 1:3\nOk, Inserted 1 line at 1, At 1:4"))
    (should (equal (eddi-exec "Save") "Ok, Bytes 11"))
    (should (equal (eddi-transcript--read (eddi-test-path "c.txt")) "one\r\ntwo!\r\n"))))

(ert-deftest eddi-buffer-with-unsaved-user-edits ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (with-current-buffer (find-file-noselect (eddi-test-path "a.txt"))
      (goto-char (point-max))
      (insert "typed by the user\n"))
    (should (equal (eddi-exec "Open a.txt") "Ok, At 0:0, Length 2"))
    (should (equal (eddi-exec "Show Line 1 0") "Ok: At 1:0, Lines 1:1, Txt typed by the user"))
    (should (equal (eddi-exec "Diff") "Ok: +1 -0 lines"))
    ;; The typing is the user's: eddi's Save does not write it.
    (should (equal (eddi-exec "Save")
                   "Fail \"No changes of this session to save\", The unsaved edits in a.txt were made in the editor: save them there"))
    (should (equal (with-temp-buffer (insert-file-contents (eddi-test-path "a.txt")) (buffer-string))
                   "one\n"))
    ;; A buffer eddi did not visit is not killed by Close.
    (should (equal (eddi-exec "Close") "Ok"))
    (should (eddi-test-buffer "a.txt"))))

(ert-deftest eddi-user-typing-between-commands ()
  (eddi-test-with-workspace '(("a.txt" . "alpha\nbeta\ngamma\n"))
    (eddi-exec "Open a.txt\nGoto 1:2\nBookmark b 2:0")
    (with-current-buffer (eddi-test-buffer "a.txt")
      (goto-char (point-min))
      (insert "new first line\n")       ; before the cursor: it moves down
      (goto-char (point-max))
      (insert "last\n"))                ; after it: no effect
    (should (equal (eddi-exec "Status") "Ok: Session s, File a.txt, At 2:2, Length 5, Modified"))
    (should (equal (eddi-exec "Goto Bookmark b") "Ok, At 3:0"))
    (should (equal (eddi-exec "Insert Block \"[\"") "Ok, Inserted 1 line at 3, At 3:1"))
    (should (equal (eddi-test-text "a.txt") "new first line\nalpha\nbeta\n[gamma\nlast\n"))
    ;; Typing inside the buffer while other trackers exist, then a delete.
    (with-current-buffer (eddi-test-buffer "a.txt")
      (goto-char (point-min))
      (delete-char 4))
    (should (equal (eddi-exec "Show Line 0 0") "Ok: At 0:0, Lines 0:0, Txt first line"))))

(ert-deftest eddi-two-senders-share-a-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (should (equal (eddi-exec "Start other" "bob") "Ok"))
    (eddi-exec "Open a.txt")
    (eddi-exec "Open a.txt" "bob")
    (eddi-exec "Insert Line \"from tester\"")
    (should (equal (eddi-exec "Show Line 0 0" "bob") "Ok: At 0:0, Lines 0:0, Txt from tester"))
    (should (equal (eddi-exec "Goto EndOfFile\nInsert Line \"from bob\"" "bob")
                   "Ok, At 2:0\nOk, Inserted 1 line at 2, At 3:0"))
    (should (equal (eddi-test-text "a.txt") "from tester\none\nfrom bob\n"))
    (should (equal (eddi-exec "Show Line 2 0") "Ok: At 2:0, Lines 2:2, Txt from bob"))))

(ert-deftest eddi-killed-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt")
    (kill-buffer (eddi-test-buffer "a.txt"))
    (should (equal (eddi-exec "Insert Line \"x\"")
                   "Fail \"Buffer was killed\", Close it, then Open it again"))
    (should (equal (eddi-exec "Close") "Ok"))
    (should (equal (eddi-exec "Open a.txt\nShow Line 0 0")
                   "Ok, At 0:0, Length 1\nOk: At 0:0, Lines 0:0, Txt one"))))

(ert-deftest eddi-read-only-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt")
    (with-current-buffer (eddi-test-buffer "a.txt") (setq buffer-read-only t))
    (should (equal (eddi-exec "Insert Line \"x\"")
                   "Fail \"Buffer is read-only\", Make it writable (C-x C-q) first"))
    (should (equal (eddi-test-text "a.txt") "one\n"))
    (should (equal (eddi-exec "Status") "Ok: Session s, File a.txt, At 0:0, Length 1"))))

(ert-deftest eddi-file-changed-on-disk-behind-a-modified-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt\nInsert Line \"x\"")
    (eddi-transcript--write (eddi-test-path "a.txt") "changed elsewhere\n")
    (should (equal (eddi-exec "Save")
                   (concat "Fail \"File changed on disk since Open\", Open Reload reads it "
                           "again (unsaved edits are discarded)")))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "changed elsewhere\n"))
    (should (buffer-modified-p (eddi-test-buffer "a.txt")))
    ;; Open Reload puts the file's text into the live buffer.
    (should (equal (eddi-exec "Open Reload a.txt")
                   "Ok, Reloaded, Discarded 1 unsaved edit, At 0:0, Length 1"))
    (should (equal (eddi-test-text "a.txt") "changed elsewhere\n"))))

(ert-deftest eddi-user-save-is-not-a-change-on-disk ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt\nInsert Line \"x\"")
    (with-current-buffer (eddi-test-buffer "a.txt")
      (insert "y")
      (save-buffer))
    ;; The user typed "y" at their point, the start of the buffer.
    (should (equal (eddi-exec "Insert Line \"z\"\nSave") "Ok, Inserted 1 line at 1, At 2:0\nOk, Bytes 9"))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "yx\nz\none\n"))))

(ert-deftest eddi-quit-midway-leaves-no-half-edit ()
  (eddi-test-with-workspace '(("a.txt" . "a a a a\n"))
    (eddi-exec "Open a.txt")
    (let* ((calls 0)
           (eddi-after-edit-functions
            (list (lambda (&rest _) (when (= (cl-incf calls) 3) (signal 'quit nil))))))
      (should (condition-case nil
                  (progn (eddi-exec "Replace \"a\" \"bb\" All") nil)
                (quit t))))
    (should (equal (eddi-test-text "a.txt") "a a a a\n"))
    (should (equal (eddi-exec "Replace \"a\" \"c\" All") "Ok, Replaced 4 occurrences"))
    (should (equal (eddi-test-text "a.txt") "c c c c\n"))))

(ert-deftest eddi-narrowed-buffer-is-edited-whole ()
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\nthree\n"))
    (eddi-exec "Open a.txt")
    (with-current-buffer (eddi-test-buffer "a.txt") (narrow-to-region 5 8))
    (should (equal (eddi-exec "Goto EndOfFile\nInsert Line \"four\"")
                   "Ok, At 3:0\nOk, Inserted 1 line at 3, At 4:0"))
    (should (equal (eddi-test-text "a.txt") "one\ntwo\nthree\nfour\n"))))

(ert-deftest eddi-close-kills-the-buffer-eddi-visited ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt\nInsert Line \"x\"")
    (should (equal (eddi-exec "Close") "Ok, Unsaved changes discarded"))
    (should-not (eddi-test-buffer "a.txt"))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "one\n"))))

;;;; The UI

(ert-deftest eddi-transcript-buffer-sends-on-ret ()
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (let ((eddi-session-name nil)
          (eddi-history nil))
      (when (get-buffer "*eddi*") (kill-buffer "*eddi*"))
      (eddi)
      (with-current-buffer "*eddi*"
        (should (derived-mode-p 'eddi-mode))
        (goto-char (point-max))
        (insert "Open a.txt")
        (eddi-send-input)
        (goto-char (point-max))
        (insert "Find \"nope\"")
        (eddi-send-input)
        (should (string-match-p "^To Eddi: Open a.txt\nEddi : Ok, At 0:0, Length 1\n"
                                (buffer-string)))
        (should (string-match-p "^Eddi : Fail \"Not found: nope\"" (buffer-string)))
        (should (string-suffix-p "To Eddi: " (buffer-string)))
        (should (equal eddi-history '("Find \"nope\"" "Open a.txt")))
        (eddi-previous-input)
        (should (string-suffix-p "To Eddi: Find \"nope\"" (buffer-string)))
        ;; The conversation above the prompt cannot be edited.
        (goto-char 3)
        (should-error (insert "x") :type 'text-read-only))
      (kill-buffer "*eddi*"))))

(ert-deftest eddi-send-records-and-shows-the-cursor ()
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\n"))
    (should (equal (eddi-send "Open a.txt\nGoto 1:1") "Ok, At 0:0, Length 2\nOk, At 1:1"))
    (with-current-buffer (eddi-test-buffer "a.txt")
      (should (overlayp eddi--cursor-overlay))
      (should (eq (overlay-buffer eddi--cursor-overlay) (current-buffer)))
      (should (= (overlay-start eddi--cursor-overlay) 6)))
    (with-current-buffer "*eddi*"
      (should (string-match-p "Eddi : Ok, At 1:1" (buffer-string))))
    (kill-buffer "*eddi*")))

(ert-deftest eddi-send-starts-its-session-and-shows-the-file ()
  "`eddi-send' before \\[eddi] starts the session; an Open shows its buffer."
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (let ((eddi-sender "fresh")
          (eddi-session-name "emacs"))
      (when (get-buffer "*eddi*") (kill-buffer "*eddi*"))
      (save-window-excursion
        (should (equal (eddi-send "Open a.txt") "Ok, At 0:0, Length 1"))
        (should (get-buffer-window (eddi-test-buffer "a.txt"))))
      (should (string-prefix-p "Ok: Session emacs" (eddi-exec "Status" "fresh")))
      (with-current-buffer "*eddi*"
        (should (string-match-p "^To Eddi: Start emacs\nEddi : Ok\n" (buffer-string))))
      (kill-buffer "*eddi*"))))

(ert-deftest eddi-command-map-and-menu ()
  "The prefix map holds the commands; it is bound to no key by default."
  (should (keymapp eddi-command-map))
  (should (eq (lookup-key eddi-command-map "u") 'eddi-undo-session))
  (should (eq (lookup-key eddi-command-map "a") 'eddi-agent))
  (should (commandp 'eddi-agent))
  (should-not (where-is-internal eddi-command-map global-map))
  (should (commandp 'eddi-menu))
  ;; Emacs 28 and later carry transient: the menu is one.
  (when (require 'transient nil t)
    (eddi--define-transient)
    (should (commandp 'eddi-transient-menu))))

(ert-deftest eddi-undo-session-in-every-buffer ()
  (eddi-test-with-workspace '(("a.txt" . "one\n") ("b.txt" . "two\n"))
    (eddi-exec "Open a.txt\nInsert Line \"x\"\nInsert Line \"y\"\nOpen b.txt\nInsert Line \"z\"")
    (should (= (eddi-undo-session) 3))
    (should (equal (eddi-test-text "a.txt") "one\n"))
    (should (equal (eddi-test-text "b.txt") "two\n"))
    (should (equal (eddi-exec "Status") "Ok: Session s, File b.txt, At 0:0, Length 1, Open 2"))))

(defun eddi-test-type (rel line column keys)
  "Type KEYS in the buffer visiting REL at LINE (1-based) and COLUMN, as the user would."
  (save-window-excursion
    (switch-to-buffer (eddi-test-buffer rel))
    (goto-char (point-min))
    (forward-line (1- line))
    (move-to-column column)
    (execute-kbd-macro (kbd keys))))

(ert-deftest eddi-undo-session-keeps-user-typing ()
  "Typing between eddi's commands: session undo takes back eddi's changes only."
  (eddi-test-with-workspace '(("a.txt" . "one\ntwo\nthree\n") ("b.txt" . "bee\n"))
    (eddi-exec "Open a.txt\nInsert Line \"zero\"")
    (eddi-test-type "a.txt" 5 0 "t y p e d RET")
    (eddi-exec "Goto 3:0\nInsert Line \"2.5\"")
    (eddi-test-type "a.txt" 2 0 "# SPC")
    (eddi-exec "Replace \"three\" \"THREE\"")
    (eddi-exec "Open b.txt\nReplace \"bee\" \"bea\"")
    (should (equal (eddi-test-text "a.txt") "zero\n# one\ntwo\n2.5\nTHREE\ntyped\n"))
    (should (= (eddi-undo-session) 4))
    (should (equal (eddi-test-text "a.txt") "# one\ntwo\nthree\ntyped\n"))
    (should (equal (eddi-test-text "b.txt") "bee\n"))
    ;; eddi follows the undone text.
    (eddi-exec "Open a.txt")
    (should (equal (eddi-exec "Show Line 2 0") "Ok: At 2:0, Lines 2:2, Txt three"))))

(ert-deftest eddi-undo-session-refuses-overlapping-typing ()
  "Where the user typed inside eddi's change, nothing is undone and the line is named."
  (eddi-test-with-workspace '(("a.txt" . "one\n"))
    (eddi-exec "Open a.txt\nInsert Line \"zero\"")
    (eddi-test-type "a.txt" 1 2 "X")
    (let ((err (should-error (eddi-undo-session) :type 'user-error)))
      (should (equal (cadr err) "eddi: Not undoing tester: your edits overlap its changes at a.txt:1: zeXro")))
    (should (equal (eddi-test-text "a.txt") "zeXro\none\n"))
    ;; Deleting eddi's line is an overlap too.
    (eddi-exec "Goto EndOfFile\nInsert Line \"two\"")
    (eddi-test-type "a.txt" 3 0 "C-k C-k")
    (should (string-match-p "a.txt:3: \\'" (cadr (should-error (eddi-undo-session) :type 'user-error))))
    (should (equal (eddi-test-text "a.txt") "zeXro\none\n"))))

(ert-deftest eddi-multi-file-preview-reject ()
  (eddi-test-with-workspace '(("a.txt" . "one\n") ("b.txt" . "two\n"))
    (let ((eddi-preview-multi-file t))
      (eddi-run "Open a.txt\nInsert Line \"x\"\nOpen b.txt\nInsert Line \"y\"")
      (with-current-buffer "*eddi-preview*"
        (should (derived-mode-p 'diff-mode))
        (should (string-match-p "^\\+x$" (buffer-string)))
        (should (string-match-p "^\\+y$" (buffer-string)))
        (eddi-preview-reject))
      (should-not (get-buffer "*eddi-preview*"))
      (should (equal (eddi-test-text "a.txt") "one\n"))
      (should (equal (eddi-test-text "b.txt") "two\n"))
      (eddi-run "Open a.txt\nInsert Line \"x\"\nOpen b.txt\nInsert Line \"y\"")
      (with-current-buffer "*eddi-preview*" (eddi-preview-accept))
      (should (equal (eddi-test-text "a.txt") "x\none\n")))))

;;;; A change of several files: live buffers in its batch

(defconst eddi-test-patch-ab
  (concat "Patch\n*** Begin Patch\n*** Update File: a.txt\n-old a\n+new a\n"
          "*** Update File: b.txt\n-old b\n+new b\n*** End Patch")
  "A Patch of a.txt and b.txt: \"old\" becomes \"new\" in each.")

(defvar-local eddi-test-saves nil
  "The save hooks that ran in this buffer, newest first.")

(defun eddi-test-watch-saves (rel)
  "Note in `eddi-test-saves' each save hook that runs in REL's buffer."
  (with-current-buffer (eddi-test-buffer rel)
    (add-hook 'before-save-hook (lambda () (push 'before eddi-test-saves)) nil t)
    (add-hook 'after-save-hook (lambda () (push 'after eddi-test-saves)) nil t)))

(ert-deftest eddi-intent-buffer-written-with-the-others ()
  "The buffer's file is written by the batch: exact bytes, saved, undoable."
  (eddi-test-with-workspace '(("a.txt" . "old a\r\nsecond\r\n") ("b.txt" . "old b\n"))
    (eddi-exec "Open a.txt")
    (eddi-test-watch-saves "a.txt")
    (should (string-prefix-p "Ok" (eddi-exec eddi-test-patch-ab)))
    ;; Exactly what save-buffer would write (CRLF kept by the coding system).
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "new a\r\nsecond\r\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "new b\n"))
    (with-current-buffer (eddi-test-buffer "a.txt")
      (should (equal (eddi-test-text "a.txt") "new a\nsecond\n"))
      (should-not (buffer-modified-p))
      (should (verify-visited-file-modtime))
      ;; Not saved by save-buffer: before-save-hook did not run, after-save-hook did.
      (should (equal eddi-test-saves '(after))))
    ;; eddi's Undo takes the change back from both files, the buffer's too.
    (should (equal (eddi-exec "Undo") "Ok, Undid 1 step, 2 files: a.txt, b.txt, At 0:0"))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "old a\r\nsecond\r\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "old b\n"))
    (should (equal (eddi-test-text "a.txt") "old a\nsecond\n"))
    (should-not (buffer-modified-p (eddi-test-buffer "a.txt")))))

(ert-deftest eddi-intent-refactor-writes-the-buffer ()
  "A rename across files writes the open buffer's file with the others."
  (eddi-test-with-workspace '(("p.h" . "int total(int a);\n")
                              ("p.c" . "#include \"p.h\"\nint total(int a) { return a; }\n"))
    (eddi-exec "Open p.c")
    (eddi-test-watch-saves "p.c")
    (should (string-prefix-p "Ok, Renamed in 2 files"
                             (eddi-exec "Refactor RenameSymbol total sum")))
    (should (equal (eddi-transcript--read (eddi-test-path "p.c"))
                   "#include \"p.h\"\nint sum(int a) { return a; }\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "p.h")) "int sum(int a);\n"))
    (should (equal (eddi-test-text "p.c") "#include \"p.h\"\nint sum(int a) { return a; }\n"))
    (with-current-buffer (eddi-test-buffer "p.c")
      (should-not (buffer-modified-p))
      (should (equal eddi-test-saves '(after))))))

(ert-deftest eddi-intent-buffer-unsaved-edits-stay-unsaved ()
  "A buffer with unsaved edits takes its part of the change and stays modified."
  (eddi-test-with-workspace '(("a.txt" . "old a\n") ("b.txt" . "old b\n"))
    (eddi-exec "Open a.txt")
    (eddi-test-type "a.txt" 2 0 "t y p e d RET")
    (should (string-prefix-p "Ok" (eddi-exec eddi-test-patch-ab)))
    ;; The user's edit is not written, and neither is eddi's part of a.txt.
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "old a\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "new b\n"))
    (should (equal (eddi-test-text "a.txt") "new a\ntyped\n"))
    (should (buffer-modified-p (eddi-test-buffer "a.txt")))
    ;; Emacs's own undo takes back eddi's change as one step; eddi's next
    ;; Save writes what the user chose to keep.
    (eddi-test-undo-one "a.txt")
    (should (equal (eddi-test-text "a.txt") "old a\ntyped\n"))
    (should (equal (eddi-exec "Save") "Ok, Bytes 12"))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "old a\ntyped\n"))))

(ert-deftest eddi-intent-bom-kept ()
  (eddi-test-with-workspace '(("a.txt" . "\357\273\277old a\n") ("b.txt" . "old b\n"))
    (eddi-exec "Open a.txt")
    (should (string-prefix-p "Ok" (eddi-exec eddi-test-patch-ab)))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "\357\273\277new a\n"))
    (should-not (buffer-modified-p (eddi-test-buffer "a.txt")))))

(ert-deftest eddi-intent-latin-1-buffer-exact ()
  "A buffer visiting its file as Latin-1 is written as Emacs would write it."
  (eddi-test-with-workspace '(("a.txt" . "old a\n") ("b.txt" . "old b\n"))
    (let ((coding-system-for-read 'latin-1-unix))
      (find-file-noselect (eddi-test-path "a.txt")))
    (eddi-exec "Open a.txt")
    (should (string-prefix-p
             "Ok" (eddi-exec (replace-regexp-in-string "\\+new a" "+café a" eddi-test-patch-ab))))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "caf\351 a\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "new b\n"))
    (should-not (buffer-modified-p (eddi-test-buffer "a.txt")))))

(ert-deftest eddi-intent-uncertain-buffer-saves-itself ()
  "A buffer whose save runs write hooks keeps saving itself, after the batch."
  (eddi-test-with-workspace '(("a.txt" . "old a\n") ("b.txt" . "old b\n"))
    (eddi-exec "Open a.txt")
    (eddi-test-watch-saves "a.txt")
    (with-current-buffer (eddi-test-buffer "a.txt")
      (add-hook 'write-file-functions (lambda () (push 'write eddi-test-saves) nil) nil t))
    (should (string-prefix-p "Ok" (eddi-exec eddi-test-patch-ab)))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "new a\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "new b\n"))
    (with-current-buffer (eddi-test-buffer "a.txt")
      (should-not (buffer-modified-p))
      (should (equal eddi-test-saves '(after write before))))))

(ert-deftest eddi-intent-read-only-file-refuses-the-change ()
  (eddi-test-with-workspace '(("a.txt" . "old a\n") ("b.txt" . "old b\n"))
    (eddi-exec "Open a.txt")
    (set-file-modes (eddi-test-path "a.txt") #o444)
    (should (equal (eddi-exec eddi-test-patch-ab)
                   (concat "Fail \"a.txt is read-only; nothing written\", "
                           "Make a.txt writable, then run the change again")))
    (should (equal (eddi-transcript--read (eddi-test-path "a.txt")) "old a\n"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "old b\n"))
    (should (equal (eddi-test-text "a.txt") "old a\n"))
    (should-not (buffer-modified-p (eddi-test-buffer "a.txt")))
    (set-file-modes (eddi-test-path "a.txt") #o644)
    ;; A read-only buffer refuses its part before any file is written.
    (with-current-buffer (eddi-test-buffer "a.txt") (setq buffer-read-only t))
    (should (equal (eddi-exec eddi-test-patch-ab)
                   "Fail \"Buffer is read-only\", Make it writable (C-x C-q) first"))
    (should (equal (eddi-transcript--read (eddi-test-path "b.txt")) "old b\n"))
    (should (equal (eddi-test-text "a.txt") "old a\n"))))

(ert-deftest eddi-journal-wal-stays-small ()
  "The journal's write-ahead log is checkpointed and cut back while Emacs
runs: after 600 commands it is far below SQLite's default 4 MB."
  (let* ((root (file-name-as-directory (make-temp-file "eddi-ert-" t)))
         (state (make-temp-file "eddi-ert-state-" t))
         (child
          `(progn
             (setq eddi-module-directory ,eddi-module-directory create-lockfiles nil)
             (require 'eddi)
             (eddi-load-module)
             (setq eddi--engine (eddi-module-new ,root))
             (eddi-module-open-journal eddi--engine)
             (eddi-exec "Start s\nOpen a.txt" "tester")
             (dotimes (i 600)
               (eddi-exec (format "Insert Line \"line %d of text that grows the journal\"" i) "tester"))
             (let ((dir (eddi-module-state-dir eddi--engine)))
               (dolist (file '("journal.sqlite" "journal.sqlite-wal"))
                 (princ (format "%s %d\n" file (file-attribute-size
                                                 (file-attributes (expand-file-name file dir)))))))
             (kill-emacs 0)))
         (process-environment (cons (concat "XDG_STATE_HOME=" state) process-environment))
         (emacs (expand-file-name invocation-name invocation-directory))
         (elisp (file-name-directory (locate-library "eddi"))))
    (unwind-protect
        (progn
          (eddi-transcript--write (expand-file-name "a.txt" root) "a\n")
          (with-temp-buffer
            (should (equal (call-process emacs nil t nil "--batch" "-Q" "-L" elisp
                                         "--eval" (prin1-to-string child))
                           0))
            (goto-char (point-min))
            (should (re-search-forward "^journal.sqlite \\([0-9]+\\)$" nil t))
            ;; Checkpointed: the records reached the journal itself.
            (should (> (string-to-number (match-string 1)) 4096))
            (should (re-search-forward "^journal.sqlite-wal \\([0-9]+\\)$" nil t))
            (should (<= (string-to-number (match-string 1)) (* 2 131072)))))
      (delete-directory root t)
      (delete-directory state t))))

(ert-deftest eddi-intent-kill-9-after-the-renames-rolls-back-the-buffer-too ()
  "A batch Emacs killed with SIGKILL once every file is renamed in, before
the intent is forgotten: the intent names the buffer's file, so a rollback
of the group takes it back with the others."
  (let* ((root (file-name-as-directory (make-temp-file "eddi-ert-" t)))
         (state (make-temp-file "eddi-ert-state-" t))
         (patch (concat "Patch\n*** Begin Patch\n*** Update File: a.txt\n-old a\n+new a\n"
                        "*** Update File: b.txt\n-old b\n+new b\n"
                        "*** Update File: c.txt\n-old c\n+new c\n*** End Patch"))
         (child
          `(progn
             (setq eddi-module-directory ,eddi-module-directory)
             (require 'eddi)
             (eddi-load-module)
             (setq eddi--engine (eddi-module-new ,root))
             (eddi-module-open-journal eddi--engine)
             (let ((eddi-sender "tester") (make-backup-files nil) (create-lockfiles nil))
               (eddi-exec "Start s\nOpen a.txt")
               ;; The buffer learns it is saved after the last rename.
               (advice-add 'eddi--backend-saved :before
                           (lambda (&rest _) (signal-process (emacs-pid) 'SIGKILL)))
               (eddi-exec ,patch))
             (kill-emacs 3)))
         ;; The next Emacs on the workspace: what its journal recovered.
         (restart
          `(progn
             (setq eddi-module-directory ,eddi-module-directory)
             (require 'eddi)
             (eddi-load-module)
             (princ (eddi-module-open-journal (eddi-module-new ,root)))))
         ;; Both Emacs keep their journal in the test's own state folder.
         (process-environment (cons (concat "XDG_STATE_HOME=" state) process-environment))
         (emacs (expand-file-name invocation-name invocation-directory))
         (elisp (file-name-directory (locate-library "eddi"))))
    (unwind-protect
        (progn
          (dolist (name '("a" "b" "c"))
            (eddi-transcript--write (expand-file-name (concat name ".txt") root)
                                    (format "old %s\n" name)))
          ;; Killed by a signal: call-process names it (in the locale's words).
          (should (stringp (call-process emacs nil nil nil "--batch" "-Q" "-L" elisp
                                         "--eval" (prin1-to-string child))))
          (should (equal (eddi-transcript--read (expand-file-name "a.txt" root)) "new a\n"))
          (should (equal (eddi-transcript--read (expand-file-name "c.txt" root)) "new c\n"))
          ;; c.txt is put back by hand: only the intent can tell that a.txt
          ;; and b.txt belong with it.
          (eddi-transcript--write (expand-file-name "c.txt" root) "old c\n")
          (with-temp-buffer
            (should (equal (call-process emacs nil t nil "--batch" "-Q" "-L" elisp
                                         "--eval" (prin1-to-string restart))
                           0))
            (should (string-match-p
                     "Recovered an interrupted change of 3 files: rolled back (2 moved)"
                     (buffer-string))))
          (dolist (name '("a" "b" "c"))
            (should (equal (eddi-transcript--read (expand-file-name (concat name ".txt") root))
                           (format "old %s\n" name)))))
      (delete-directory root t)
      (delete-directory state t))))

;;;; A user's unsaved edits are theirs (issue 24)

(defconst eddi-test-cart
  '(("cart.py" . "class Cart:\n    def total(self):\n        return 0\n")
    ("shop.py" . "from cart import Cart\n\n\ndef checkout(cart):\n    a = Cart().total()\n    return cart.total()\n"))
  "Two Python files: Cart.total, called surely once and unsurely once (shop.py:5).")

(defconst eddi-test-cart-renamed "class Cart:\n    def grand_total(self):\n        return 0\n"
  "cart.py after the rename of Cart.total.")

(defconst eddi-test-shop-renamed
  "from cart import Cart\n\n\ndef checkout(cart):\n    a = Cart().grand_total()\n    return cart.total()\n"
  "shop.py after the rename of Cart.total (the unsure call left as it was).")

(defconst eddi-test-rename-total "Refactor RenameSymbol Cart.total grand_total Leave"
  "The rename of the tests of issue 24, writing without its unsure call.")

(defun eddi-test-visit-and-type (rel line keys)
  "Visit REL in a buffer of the user's own and type KEYS at the start of LINE."
  (find-file-noselect (eddi-test-path rel))
  (eddi-test-type rel line 0 keys))

(defun eddi-test-cart-kept-unsaved ()
  "After the rename, cart.py's buffer holds it and the user's line, unsaved."
  (should (equal (eddi-transcript--read (eddi-test-path "cart.py")) (cdar eddi-test-cart)))
  (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) eddi-test-shop-renamed))
  (should (equal (eddi-test-text "cart.py") (concat eddi-test-cart-renamed "# mine\n")))
  (with-current-buffer (eddi-test-buffer "cart.py")
    (should (buffer-modified-p))
    ;; Its file was not rewritten behind it: Emacs would not ask.
    (should (verify-visited-file-modtime))))

(ert-deftest eddi-buffers-open-document-keeps-unsaved-edits ()
  "A buffer with unsaved edits, Opened in the session: renamed, still unsaved."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "cart.py" 4 "# SPC m i n e RET")
    (eddi-exec "Open cart.py")
    (should (string-prefix-p "Ok, Renamed in 2 files" (eddi-exec eddi-test-rename-total)))
    (eddi-test-cart-kept-unsaved)
    ;; The rename is one undo step of the buffer.
    (eddi-test-undo-one "cart.py")
    (should (equal (eddi-test-text "cart.py") (concat (cdar eddi-test-cart) "# mine\n")))
    (should (buffer-modified-p (eddi-test-buffer "cart.py")))))

(ert-deftest eddi-buffers-open-document-undo-takes-the-change-back ()
  "eddi's Undo takes the rename back in the disk file and the modified buffer."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "cart.py" 4 "# SPC m i n e RET")
    (eddi-exec "Open cart.py")
    (should (string-prefix-p "Ok, Renamed in 2 files" (eddi-exec eddi-test-rename-total)))
    (should (string-prefix-p "Ok, Undid 1 step, 2 files: cart.py, shop.py" (eddi-exec "Undo")))
    (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) (cdadr eddi-test-cart)))
    (should (equal (eddi-transcript--read (eddi-test-path "cart.py")) (cdar eddi-test-cart)))
    (should (equal (eddi-test-text "cart.py") (concat (cdar eddi-test-cart) "# mine\n")))
    (should (buffer-modified-p (eddi-test-buffer "cart.py")))))

(ert-deftest eddi-buffers-unopened-buffer-keeps-unsaved-edits ()
  "A buffer with unsaved edits the session never Opened: changed through it."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "cart.py" 4 "# SPC m i n e RET")
    (should (string-prefix-p "Ok, Renamed in 2 files" (eddi-exec eddi-test-rename-total)))
    (eddi-test-cart-kept-unsaved)
    (eddi-test-undo-one "cart.py")
    (should (equal (eddi-test-text "cart.py") (concat (cdar eddi-test-cart) "# mine\n")))))

(ert-deftest eddi-buffers-unopened-buffer-undo-takes-the-change-back ()
  "eddi's Undo takes the rename back through the buffer it went through."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "cart.py" 4 "# SPC m i n e RET")
    (should (string-prefix-p "Ok, Renamed in 2 files" (eddi-exec eddi-test-rename-total)))
    (eddi-test-cart-kept-unsaved)
    (should (string-prefix-p "Ok, Undid 1 step, 2 files: cart.py, shop.py" (eddi-exec "Undo")))
    (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) (cdadr eddi-test-cart)))
    (should (equal (eddi-transcript--read (eddi-test-path "cart.py")) (cdar eddi-test-cart)))
    (should (equal (eddi-test-text "cart.py") (concat (cdar eddi-test-cart) "# mine\n")))
    (should (buffer-modified-p (eddi-test-buffer "cart.py")))))

(ert-deftest eddi-buffers-unmodified-buffer-saved-in-the-change ()
  "An unmodified buffer the session never Opened takes the change, saved with it."
  (eddi-test-with-workspace eddi-test-cart
    ;; Visited as UTF-8 (an ASCII file's coding system would otherwise be
    ;; decided on save, and the buffer would save itself after the others).
    (let ((coding-system-for-read 'utf-8-unix))
      (find-file-noselect (eddi-test-path "cart.py")))
    (eddi-test-watch-saves "cart.py")
    (should (string-prefix-p "Ok, Renamed in 2 files" (eddi-exec eddi-test-rename-total)))
    (should (equal (eddi-transcript--read (eddi-test-path "cart.py")) eddi-test-cart-renamed))
    (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) eddi-test-shop-renamed))
    (should (equal (eddi-test-text "cart.py") eddi-test-cart-renamed))
    (with-current-buffer (eddi-test-buffer "cart.py")
      (should-not (buffer-modified-p))
      (should (verify-visited-file-modtime))
      ;; Written inside the change's transaction, as an open document's is.
      (should (equal eddi-test-saves '(after))))))

(ert-deftest eddi-buffers-preview-lines-from-the-buffer ()
  "Preview's unsure lines are the buffer's, two lines typed above them."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "shop.py" 1 "# SPC a RET # SPC b RET")
    (should (equal (eddi-exec (concat "Preview " eddi-test-rename-total))
                   (concat "Ok, Preview: Would modify 2 files: cart.py, shop.py, "
                           "1 unsure left unchanged: shop.py:7")))
    (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) (cdadr eddi-test-cart)))
    (should (equal (eddi-test-text "shop.py") (concat "# a\n# b\n" (cdadr eddi-test-cart))))
    (should (buffer-modified-p (eddi-test-buffer "shop.py")))))

(ert-deftest eddi-buffers-module-move-keeps-unsaved-edits ()
  "A module rename would delete a file whose buffer has unsaved edits: refused."
  (eddi-test-with-workspace eddi-test-cart
    (eddi-test-visit-and-type "cart.py" 4 "# SPC m i n e RET")
    (should (equal (eddi-exec "Refactor RenameSymbol cart basket")
                   (concat "Fail \"cart.py has unsaved edits in a buffer, which the change "
                           "would delete; nothing written\", Save or revert that buffer, then "
                           "run it again")))
    (should (file-exists-p (eddi-test-path "cart.py")))
    (should-not (file-exists-p (eddi-test-path "basket.py")))
    (should (equal (eddi-transcript--read (eddi-test-path "shop.py")) (cdadr eddi-test-cart)))
    (should (equal (eddi-test-text "cart.py") (concat (cdar eddi-test-cart) "# mine\n")))
    (should (buffer-modified-p (eddi-test-buffer "cart.py")))))

;;;; Language servers from customize

(defun eddi-test--validate-with (files &rest settings)
  "Validate a.c in a workspace of FILES, the engine made by `eddi-engine'.
SETTINGS are (VARIABLE . VALUE) pairs bound meanwhile."
  (let* ((root (file-name-as-directory (make-temp-file "eddi-ert-" t)))
         (eddi-root root)
         (eddi--engine nil)
         (eddi-sender "tester")
         (create-lockfiles nil)
         (reply nil))
    (dolist (file files)
      (eddi-transcript--write (expand-file-name (car file) root) (cdr file)))
    (cl-progv (mapcar #'car settings) (mapcar #'cdr settings)
      (unwind-protect
          (setq reply (list (eddi-exec "Start s") (eddi-exec "Open a.c") (eddi-exec "Validate")))
        (when eddi--engine (eddi-module-free eddi--engine))
        (dolist (buffer (buffer-list))
          (when (and (buffer-file-name buffer) (string-prefix-p root (buffer-file-name buffer)))
            (kill-buffer buffer)))
        (delete-directory root t)))
    reply))

(ert-deftest eddi-lsp-servers-from-customize ()
  "`eddi-lsp-servers' names a language's server; the workspace's
.eddi/lsp.conf names one only with `eddi-lsp-trust-workspace'."
  (let* ((stub (expand-file-name "../lsp/lsp-stub.py" eddi-test-fixtures))
         (source (cons "a.c" (encode-coding-string
                              "int main(void) {\n  /* \U0001F600\u4e2d */ return x;\n}\n" 'utf-8)))
         (diagnosed "Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18")
         (conf (cons ".eddi/lsp.conf" (format "c=%s well\n" stub))))
    (should (equal (eddi-test--validate-with (list source)
                                             (cons 'eddi-lsp-servers `(("c" . ,(concat stub " well")))))
                   (list "Ok" "Ok, At 0:0, Length 3" diagnosed)))
    (should (equal (nth 2 (eddi-test--validate-with (list source conf)
                                                    (cons 'eddi-lsp-trust-workspace t)))
                   diagnosed))
    (should (string-prefix-p "Fail \".eddi/lsp.conf names "
                             (nth 2 (eddi-test--validate-with (list source conf)
                                                              (cons 'eddi-lsp-trust-workspace nil)))))))

;;;; eglot's servers

(defun eddi-test--eglot ()
  "Whether eglot loads: Debian's elpa-eglot, activated as a package from
Debian's package folder (which emacs -Q does not look in)."
  (or (require 'eglot nil t)
      (let ((package-directory-list (list "/usr/share/emacs/site-lisp/elpa")))
        (package-initialize)
        (require 'eglot nil t))))

(ert-deftest eddi-lsp-servers-from-eglot-configuration ()
  "A language `eddi-lsp-servers' leaves out takes the program and
arguments `eglot-server-programs' names for its major mode, the
program found on `exec-path'; contacts that are no program are left
out, and `eddi-lsp-servers' comes first."
  (skip-unless (eddi-test--eglot))
  (let* ((stub (expand-file-name "../lsp/lsp-stub.py" eddi-test-fixtures))
         (python (executable-find "python3"))
         (eddi-lsp-from-eglot t)
         (eddi-lsp-servers nil)
         (eglot-server-programs
          `(((c-mode c-ts-mode) . ("python3" ,stub "well" :initializationOptions (:a 1)))
            ((python-mode :language-id "python") . ("no-such-server-program" "--stdio"))
            (js-mode . ("localhost" 6008))
            (typescript-mode . ,(lambda (&rest _) '("python3" "x"))))))
    (should (equal (eddi--lsp-servers default-directory) (format "c=%s %s well" python stub)))
    (let ((eddi-lsp-servers '(("c" . "clangd"))))
      (should (equal (eddi--lsp-servers default-directory) "c=clangd")))
    (let ((eddi-lsp-from-eglot nil))
      (should (equal (eddi--lsp-servers default-directory) nil)))))

(ert-deftest eddi-lsp-servers-from-eglot-running ()
  "With a real eglot running the stand-in server for a C buffer of the
workspace, the engine eddi makes runs the same command for C (though
`eglot-server-programs' no longer names it), as its own process:
Validate answers with the stand-in server's diagnostics."
  (skip-unless (eddi-test--eglot))
  (let* ((stub (expand-file-name "../lsp/lsp-stub.py" eddi-test-fixtures))
         (root (file-name-as-directory (make-temp-file "eddi-ert-eglot-" t)))
         (file (expand-file-name "a.c" root))
         (eddi-root root)
         (eddi--engine nil)
         (eddi-sender "tester")
         (eddi-lsp-servers nil)
         (eddi-lsp-from-eglot t)
         (create-lockfiles nil)
         (eglot-sync-connect t)
         (eglot-autoreconnect nil)
         (eglot-server-programs `((c-mode . ("python3" ,stub "well"))))
         (buffer nil))
    (unwind-protect
        (progn
          (eddi-transcript--write file (encode-coding-string "int main(void) { return x; }\n" 'utf-8))
          (setq buffer (find-file-noselect file))
          (with-current-buffer buffer
            (c-mode)
            (eglot '(c-mode) (cons 'transient root) 'eglot-lsp-server
                   (list "python3" stub "well") "c")
            (should (eglot-current-server)))
          (setq eglot-server-programs nil)
          (should (equal (eddi--lsp-servers root)
                         (format "c=%s %s well" (executable-find "python3") stub)))
          (should (equal (list (eddi-exec "Start s") (eddi-exec "Open a.c") (eddi-exec "Validate"))
                         ;; Named by its program, python3 (doc/lsp.org).
                         (list "Ok" "Ok, At 0:0, Length 1"
                               "Ok: No syntax errors; python3: 1 error, x is not allowed in version 1 at 0:24"))))
      (when (and buffer (buffer-live-p buffer))
        (with-current-buffer buffer
          (when (eglot-current-server) (eglot-shutdown (eglot-current-server))))
        (kill-buffer buffer))
      (when eddi--engine (eddi-module-free eddi--engine))
      (delete-directory root t))))

;;;; The transcript suite

(ert-deftest eddi-transcripts-through-the-module ()
  (let ((failures nil))
    (dolist (file (directory-files eddi-test-transcripts t "\\.eddi\\'"))
      (setq failures (append failures (eddi-transcript-run file eddi-test-fixtures))))
    (should (equal failures nil))))

;;;; Batch entry

(defun eddi-test-batch ()
  "Run every eddi test; print \"ert: N passed, N failed\"; exit 1 on failure.
Arguments after -f eddi-test-batch: FIXTURES TRANSCRIPTS."
  (setq eddi-test-fixtures (pop command-line-args-left)
        eddi-test-transcripts (pop command-line-args-left))
  (eddi-load-module)
  (let* ((stats (ert-run-tests-batch "^eddi-"))
         (failed (+ (ert-stats-completed-unexpected stats)))
         (passed (ert-stats-completed-expected stats)))
    (princ (format "ert: %d passed, %d failed\n" passed failed))
    (kill-emacs (if (> failed 0) 1 0))))

(provide 'eddi-test)

;;; eddi-test.el ends here
