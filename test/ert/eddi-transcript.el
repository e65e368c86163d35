;;; eddi-transcript.el --- run eddi transcripts through the Emacs module  -*- lexical-binding: t; -*-

;;; Commentary:

;; The transcripts of test/transcripts/ run here exactly as the C runner
;; (test/transcript_runner.c) runs them, with the same format:
;;
;;   # comment
;;   @fixture NAME            copy test/fixtures/NAME/ into the workspace
;;   @file PATH               create PATH from the "| " lines that follow
;;   @file PATH "escaped"     create PATH with exactly these bytes
;;   @expect-file PATH        PATH must hold the "| " lines that follow
;;   @expect-file PATH "esc"  PATH must hold exactly these bytes
;;   @expect-missing PATH     PATH must not exist
;;   @expect-mode PATH MODE   PATH has these permission bits (octal)
;;   @chmod MODE PATH  @rm PATH  @mkdir PATH  @symlink TARGET PATH
;;   @sender NAME             who sends the following messages
;;   To Eddi: COMMANDS        a message ("| " lines continue it)
;;   Eddi : REPLY             the replies, one line per command ("| " lines
;;                            continue a raw payload)
;;
;; "| " lines are joined with "\n" and each gets a final "\n" in @file and
;; @expect-file blocks.  Escapes in quoted bytes: \n \r \t \\ \" \xHH.
;;
;; The difference is the backend: every file the transcript opens becomes a
;; live buffer, edits go through the buffer and Save is `save-buffer'.  The
;; files on disk are compared byte for byte, as in the C runner.

;;; Code:

(require 'cl-lib)
(require 'eddi)

(defun eddi-transcript--unquote (arg)
  "The bytes of the quoted ARG (a unibyte string), or nil when malformed."
  (when (string-match "\\`\"\\(\\(?:[^\"\\\\]\\|\\\\.\\)*\\)\"\\'" arg)
    (let ((body (encode-coding-string (match-string 1 arg) 'utf-8))
          (out nil) (i 0))
      (while (< i (length body))
        (let ((c (aref body i)))
          (if (/= c ?\\)
              (progn (push c out) (cl-incf i))
            (let ((e (aref body (1+ i))))
              (pcase e
                (?n (push ?\n out)) (?r (push ?\r out)) (?t (push ?\t out))
                (?\\ (push ?\\ out)) (?\" (push ?\" out))
                (?x (push (string-to-number (substring body (+ i 2) (+ i 4)) 16) out)
                    (cl-incf i 2)))
              (cl-incf i 2)))))
      (apply #'unibyte-string (nreverse out)))))

(defun eddi-transcript--write (path bytes)
  "Write unibyte BYTES to PATH, making its folders."
  (make-directory (file-name-directory path) t)
  (let ((coding-system-for-write 'no-conversion)
        (write-region-inhibit-fsync t))
    (with-temp-buffer
      (set-buffer-multibyte nil)
      (insert bytes)
      (write-region nil nil path nil 'silent))))

(defun eddi-transcript--read (path)
  "The bytes of PATH as a unibyte string, or nil when it does not exist."
  (when (file-exists-p path)
    (with-temp-buffer
      (set-buffer-multibyte nil)
      (let ((coding-system-for-read 'no-conversion))
        (insert-file-contents-literally path))
      (buffer-string))))

(defun eddi-transcript--escape (bytes)
  "BYTES shown on one line."
  (replace-regexp-in-string "\n" "\\\\n" (replace-regexp-in-string "\r" "\\\\r" bytes)))

(defun eddi-transcript-run (transcript fixtures)
  "Run the file TRANSCRIPT over a copy of FIXTURES; return a list of failures.
Each failure is a string \"FILE:LINE: what\"."
  (let* ((lines (with-temp-buffer
                  (let ((coding-system-for-read 'utf-8))
                    (insert-file-contents transcript))
                  ;; As strtok in the C runner: empty lines are skipped.
                  (split-string (buffer-string) "\n" t)))
         (lines (vconcat lines))
         (at 0)
         (workspace (file-name-as-directory (make-temp-file "eddi-transcript-" t)))
         ;; Language servers only where the transcript asks for them (@lsp).
         (engine (eddi-module-new workspace (not (member "@lsp" (append lines nil)))))
         (sender "tester")
         (failures nil)
         (exchanges 0)
         (make-backup-files nil)
         (create-lockfiles nil)
         (auto-save-default nil)
         (enable-local-variables nil)
         (line-no 0))
    (cl-labels
        ((fail (fmt &rest args)
               (push (format "%s:%d: %s" transcript (1+ line-no) (apply #'format fmt args))
                     failures))
         (path (rel) (expand-file-name rel workspace))
         (block (final-newline)
                (let ((parts nil))
                  (while (and (< at (length lines)) (string-prefix-p "|" (aref lines at)))
                    (let ((text (substring (aref lines at) 1)))
                      (when (string-prefix-p " " text) (setq text (substring text 1)))
                      (push text parts))
                    (cl-incf at))
                  (setq parts (nreverse parts))
                  (if final-newline
                      (mapconcat (lambda (p) (concat p "\n")) parts "")
                    (string-join parts "\n"))))
         (directive (line)
                    (let* ((words (split-string line " "))
                           (name (nth 0 words))
                           (arg1 (nth 1 words))
                           (rest (and (nthcdr 2 words) (string-join (nthcdr 2 words) " "))))
                      (pcase name
                        ("@fixture"
                         (copy-directory (expand-file-name arg1 fixtures) workspace nil t t))
                        ((or "@file" "@expect-file")
                         (let ((bytes (if rest (eddi-transcript--unquote rest)
                                        (encode-coding-string (block t) 'utf-8))))
                           (if (not bytes) (fail "bad quoted bytes")
                             (if (equal name "@file")
                                 (eddi-transcript--write (path arg1) bytes)
                               (let ((actual (eddi-transcript--read (path arg1))))
                                 (cond ((not actual) (fail "%s: missing" arg1))
                                       ((not (equal actual bytes))
                                        (fail "%s differs\n  expected \"%s\"\n  actual   \"%s\""
                                              arg1 (eddi-transcript--escape bytes)
                                              (eddi-transcript--escape actual)))))))))
                        ("@expect-missing"
                         (when (file-exists-p (path arg1)) (fail "%s exists" arg1)))
                        ("@expect-mode"
                         (let ((mode (file-modes (path arg1))))
                           (unless (eql mode (string-to-number rest 8))
                             (fail "%s: mode is %o, expected %s" arg1 (or mode 0) rest))))
                        ("@chmod" (set-file-modes (path rest) (string-to-number arg1 8)))
                        ("@rm" (if (file-directory-p (path arg1))
                                   (delete-directory (path arg1) t)
                                 (delete-file (path arg1))))
                        ("@mkdir" (make-directory (path arg1)))
                        ("@symlink" (make-symbolic-link arg1 (path rest)))
                        ("@sender" (setq sender arg1))
                        ("@lsp") ; read when the engine was made
                        (_ (fail "unknown directive %s" name)))))
         (exchange (first)
                   (let ((message first) (expected nil))
                     (when (and (< at (length lines)) (string-prefix-p "|" (aref lines at)))
                       (setq message (concat message "\n" (block nil))))
                     (while (and (< at (length lines)) (string-prefix-p "Eddi : " (aref lines at)))
                       (let ((reply (substring (aref lines at) 7)))
                         (cl-incf at)
                         (when (and (< at (length lines)) (string-prefix-p "|" (aref lines at)))
                           (setq reply (concat reply "\n" (block nil))))
                         (push reply expected)))
                     (if (not expected) (fail "message without an \"Eddi : \" reply")
                       (let ((want (string-join (nreverse expected) "\n"))
                             (actual (eddi-module-exec engine sender message)))
                         (unless (equal actual want)
                           (fail "To Eddi: %s\n  expected: %s\n  actual:   %s"
                                 message want actual)))))))
      (unwind-protect
          (while (< at (length lines))
            (setq line-no at)
            (let ((line (aref lines at)))
              (cl-incf at)
              (cond ((or (string-prefix-p "#" line) (string-empty-p line)))
                    ((string-prefix-p "@" line)
                     (condition-case err (directive line)
                       (error (fail "%s: %s" line (error-message-string err)))))
                    ((string-prefix-p "To Eddi: " line)
                     (cl-incf exchanges)
                     (exchange (substring line 9)))
                    (t (fail "cannot read this line: %s" line)))))
        (eddi-module-free engine)
        (dolist (buffer (buffer-list))
          (when (and (buffer-file-name buffer)
                     (string-prefix-p workspace (buffer-file-name buffer)))
            (with-current-buffer buffer (set-buffer-modified-p nil))
            (kill-buffer buffer)))
        ;; Writable first (a test may leave a read-only folder); never a
        ;; symlink's target (the open transcript links to /etc).
        (dolist (file (directory-files-recursively workspace "" t))
          (unless (file-symlink-p file)
            (ignore-errors (set-file-modes file #o700))))
        (delete-directory workspace t)))
    (message "%s: %d exchanges, %d failures" transcript exchanges (length failures))
    (nreverse failures)))

(defun eddi-transcript-batch ()
  "Run the transcripts named on the command line; exit 1 on any failure.
Usage: emacs --batch -Q -L elisp -l eddi-transcript.el
         -f eddi-transcript-batch FIXTURES TRANSCRIPT..."
  (eddi-load-module)
  (let* ((fixtures (pop command-line-args-left))
         (failed 0))
    (while command-line-args-left
      (let ((failures (eddi-transcript-run (pop command-line-args-left) fixtures)))
        (dolist (f failures) (message "%s" f))
        (cl-incf failed (length failures))))
    (kill-emacs (if (> failed 0) 1 0))))

(provide 'eddi-transcript)

;;; eddi-transcript.el ends here
