;;; eddi-agent-test.el --- ERT tests for the eddi agent loop  -*- lexical-binding: t; -*-

;;; Commentary:

;; ctest runs `eddi-agent-test-batch' in batch Emacs with
;; -module-assertions (see CMakeLists.txt beside this file).
;; Every test runs the real loop: eddi-module.so over a fresh workspace of
;; real files and live buffers, curl as the HTTP client, and a scripted
;; model API server (eddi-agent-test-server.el) that speaks the Anthropic
;; or the OpenAI wire format and records every request.  The tests assert
;; the requests as sent (tool schemas, raw tool results), the files' bytes
;; and the buffers' text.  `eddi-agent-test-batch' prints
;; "ert: N passed, N failed" and exits 1 on any failure.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'subr-x)
(require 'eddi)
(require 'eddi-agent)
(require 'eddi-agent-test-server)

(declare-function eddi-module-live-allocations "eddi-module" ())
(declare-function eddi-module-tools "eddi-module" ())

(defvar eddi-agent-test-root nil "The workspace of the running test.")
(defvar eddi-agent-test-server nil "The scripted server of the running test.")

(defconst eddi-agent-test-paths
  '((anthropic . "/v1/messages") (openai . "/v1/chat/completions"))
  "The endpoint path of each backend, as the public APIs name them.")

(defmacro eddi-agent-test-with (backend files script &rest body)
  "Run BODY against a scripted BACKEND server answering SCRIPT.
The workspace holds FILES ((PATH . TEXT)...); logs go to a temporary
folder.  Afterwards the server stops, the engine is freed (no engine
memory may leak), and the workspace's buffers are killed."
  (declare (indent 3))
  `(let* ((eddi-agent-test-root (file-name-as-directory (make-temp-file "eddi-agent-ert-" t)))
          (eddi-agent-log-directory (expand-file-name ".logs/" eddi-agent-test-root))
          (eddi-agent-test-server (eddi-agent-test-server-start ,script))
          (eddi-agent-backend ,backend)
          (eddi-agent-api-url (eddi-agent-test-server-url
                               eddi-agent-test-server (alist-get ,backend eddi-agent-test-paths)))
          (eddi-agent-model "test-model")
          ;; Tests that are not about approval run every call.
          (eddi-agent-approve-function (lambda (&rest _) 'allow))
          ;; Tests that are not about the review let the agent's Save write.
          (eddi-agent-review nil)
          (auth-sources nil)
          ;; Children (curl, the shell) run without the sanitizer build's
          ;; preloaded ASan runtime, which makes curl hang.
          (process-environment (append '("ANTHROPIC_API_KEY=test-key" "OPENAI_API_KEY=test-key"
                                         "LD_PRELOAD")
                                       process-environment))
          (eddi-root eddi-agent-test-root)
          (eddi--engine nil)
          (eddi-pulse-seconds 0)
          (eddi-preview-multi-file nil)
          (make-backup-files nil)
          (create-lockfiles nil)
          (auto-save-default nil)
          (live (eddi-module-live-allocations)))
     (dolist (file ,files)
       (let ((coding-system-for-write 'no-conversion))
         (write-region (encode-coding-string (cdr file) 'utf-8) nil
                       (expand-file-name (car file) eddi-agent-test-root) nil 'silent)))
     (unwind-protect
         (progn ,@body)
       ;; A failed test must not leave its session running for the next.
       (when eddi-agent--current (eddi-agent-stop eddi-agent--current))
       (eddi-agent-test-server-stop eddi-agent-test-server)
       (eddi-reset)
       (dolist (buffer (buffer-list))
         (when (and (buffer-file-name buffer)
                    (string-prefix-p eddi-agent-test-root (buffer-file-name buffer)))
           (with-current-buffer buffer (set-buffer-modified-p nil))
           (kill-buffer buffer)))
       (when (get-buffer "*eddi-agent*") (kill-buffer "*eddi-agent*"))
       (delete-directory eddi-agent-test-root t)
       (should (= (eddi-module-live-allocations) live)))))

;;;; Helpers

(defun eddi-agent-test-requests ()
  "The JSON bodies the server received, oldest first."
  (mapcar (lambda (request) (plist-get request :json))
          (eddi-agent-test-server-received eddi-agent-test-server)))

(defun eddi-agent-test-get (value &rest path)
  "Walk VALUE along PATH: symbols index alists, integers vectors."
  (dolist (step path value)
    (setq value (if (integerp step) (aref value step) (alist-get step value)))))

(defun eddi-agent-test-tool-names (request)
  "The names of the tools offered in REQUEST (either wire format)."
  (mapcar (lambda (tool) (or (alist-get 'name tool)
                             (eddi-agent-test-get tool 'function 'name)))
          (alist-get 'tools request)))

(defun eddi-agent-test-file (rel)
  "The bytes of REL in the workspace, decoded as UTF-8."
  (with-temp-buffer
    (insert-file-contents (expand-file-name rel eddi-agent-test-root))
    (buffer-string)))

(defun eddi-agent-test-buffer-text (rel)
  "The text of the live buffer visiting REL."
  (with-current-buffer (find-buffer-visiting (expand-file-name rel eddi-agent-test-root))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun eddi-agent-test-review (session)
  "The name of SESSION's review buffer."
  (format "*eddi-review %s*" (eddi-agent-session-id session)))

(defun eddi-agent-test-anthropic-results (request)
  "The tool_result blocks of the last message of REQUEST."
  (let ((content (alist-get 'content (aref (alist-get 'messages request)
                                           (1- (length (alist-get 'messages request)))))))
    (cl-remove-if-not (lambda (block) (equal (alist-get 'type block) "tool_result"))
                      (append content nil))))

(defun eddi-agent-test-log (session)
  "SESSION's saved log, parsed."
  (should (file-exists-p (eddi-agent-session-log-file session)))
  (with-temp-buffer
    (insert-file-contents (eddi-agent-session-log-file session))
    (eddi-agent-backend-json-parse (buffer-string))))

(defun eddi-agent-test-well-formed (log)
  "Assert that every tool_use in the Anthropic LOG has its tool_result."
  (let ((uses nil) (results nil))
    (seq-doseq (message (alist-get 'messages log))
      (let ((content (alist-get 'content message)))
        (when (vectorp content)
          (seq-doseq (block content)
            (pcase (alist-get 'type block)
              ("tool_use" (push (alist-get 'id block) uses))
              ("tool_result" (push (alist-get 'tool_use_id block) results)))))))
    (should (equal (sort uses #'string<) (sort results #'string<)))))

(defconst eddi-agent-test-planning-tools
  '("read" "grep" "buffer_contents" "directory_files" "current_context" "warnings_buffer"
    "todo_add" "todo_status" "session_complete")
  "The tools offered while planning, in order.")

(defconst eddi-agent-test-all-tools
  '("eddi" "read" "grep" "edit" "apply_patch" "eval_sexp" "shell_exec" "buffer_contents"
    "directory_files" "current_context" "warnings_buffer" "todo_add" "todo_update"
    "todo_status" "session_complete")
  "Every tool, in order, for an engine with Read, Grep, Edit and Patch.")

;;;; Child Emacsen

(defun eddi-agent-test-child (form &rest environment)
  "Run FORM in a fresh batch Emacs with only elisp/ on its `load-path'.
It has ENVIRONMENT (\"VAR=VALUE\" strings) and this test's settings of
the model server, the module and the workspace; return what it printed."
  (let* ((elisp (file-name-directory (locate-library "eddi-agent.el")))
         (form `(progn
                  ;; Its own children (curl) run without the sanitizer
                  ;; runtime the child itself needs, as the macro's do.
                  (setenv "LD_PRELOAD" nil)
                  (setq load-prefer-newer t eddi-module-directory ,eddi-module-directory
                        eddi-agent-curl-program ,eddi-agent-curl-program
                        eddi-agent-backend 'anthropic eddi-agent-api-url ,eddi-agent-api-url
                        eddi-agent-model "test-model" eddi-root ,eddi-agent-test-root
                        create-lockfiles nil auto-save-default nil make-backup-files nil)
                  ,form))
         (output (generate-new-buffer " *eddi-agent-child*"))
         ;; The child loads the module: it needs the sanitizer build's
         ;; preloaded runtime that the macro takes from curl.
         (process-environment
          (append environment
                  (cl-remove-if-not (lambda (v) (string-prefix-p "LD_PRELOAD=" v))
                                    initial-environment)
                  process-environment))
         (process (make-process
                   :name "eddi-agent-child" :buffer output :connection-type 'pipe :noquery t
                   :command (list (expand-file-name invocation-name invocation-directory)
                                  "--batch" "-Q" "-L" elisp
                                  "--eval" (prin1-to-string form)))))
    (unwind-protect
        (progn
          (with-timeout (60 (error "The child Emacs did not end"))
            (while (process-live-p process) (accept-process-output process 0.05))
            ;; What it wrote just before it ended may still be in the pipe:
            ;; read it all, and wait for the sentinel's line.
            (while (accept-process-output process 0.1)))
          (with-current-buffer output (buffer-string)))
      (when (process-live-p process) (delete-process process))
      (kill-buffer output))))

(ert-deftest eddi-agent-require-alone ()
  "A fresh Emacs with only (require \='eddi-agent) runs a session.
The child loads the sources, not byte code, as from a checkout: a call
of a module function before the module is loaded must not happen."
  (eddi-agent-test-with 'anthropic '(("notes.txt" . "alpha\n"))
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "session_complete" ((message . "fine")))))))
    (let ((output (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (let ((session (eddi-agent-run "Say fine")))
                        (princ (format "status=%s message=%s tools=%d\n"
                                       (eddi-agent-session-status session)
                                       (eddi-agent-session-message session)
                                       (length (eddi-agent-session-tools session)))))))))
      (should (string-match-p (format "^status=complete message=fine tools=%d$"
                                      (length eddi-agent-test-all-tools))
                              output)))))

(ert-deftest eddi-agent-unreviewed-session-resumes-with-its-review ()
  "Emacs quits while the agent's edits wait for review; the next one
brings them back with the review, and committing it ends the session."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      ;; Edits it did not save: the journal keeps those.
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open a.txt\nReplace \"line 2\" \"LINE TWO\"\nOpen b.txt\nReplace \"beta\" \"gamma\""))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "session_complete" ((message . "ok")))))))
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t)
                      (eddi--open-journal)
                      (let ((session (eddi-agent-run "Edit two files")))
                        (princ (format "status=%s review=%s\n" (eddi-agent-session-status session)
                                       (and (get-buffer "*eddi-review agent-1*") t))))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       (eddi--open-journal)
                       (let ((review (get-buffer "*eddi-review agent-1*")))
                         (princ (format "review=%s\n" (and review t)))
                         (when review
                           (with-current-buffer review
                             (princ (buffer-string))
                             (princ (format "saved=%S\n" (eddi-agent-review-accept-all))))))
                       (princ (format "ended=%s\n" (not (eddi-module-session (eddi-engine) "agent-1")))))
                    state)))
      (should (string-match-p "^status=complete review=t$" first))
      (should (string-match-p "^review=t$" second))
      (should (string-match-p "^\\+gamma$" second))
      (should (string-match-p "^saved=(\"a.txt\" \"b.txt\")$" second))
      (should (string-match-p "^ended=t$" second))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\ngamma\n")))))

(ert-deftest eddi-agent-held-saves-survive-a-restart ()
  "Edits the agent saved while the review held them come back after a restart.
The first Emacs quits with the review waiting; the next one offers them
for review, the user types in the buffer meanwhile, and rejecting the
agent's changes puts back the file's text from before the agent and
keeps the typing; nothing is written to the file."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t)
                      (eddi--open-journal)
                      (let ((session (eddi-agent-run "Edit two files")))
                        (princ (format "status=%s review=%s\n" (eddi-agent-session-status session)
                                       (and (get-buffer "*eddi-review agent-1*") t))))
                      (princ (format "status: %s\n" (eddi-exec "Status" "agent-1")))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       (eddi--open-journal)
                       (let* ((review (get-buffer "*eddi-review agent-1*"))
                              (a (find-buffer-visiting (expand-file-name "a.txt" eddi-root)))
                              (b (find-buffer-visiting (expand-file-name "b.txt" eddi-root))))
                         (princ (format "review=%s a=%S b=%S\n" (and review t)
                                        (and a (with-current-buffer a (buffer-string)))
                                        (and b (with-current-buffer b (buffer-string)))))
                         (when review (with-current-buffer review (princ (buffer-string))))
                         ;; The user types at the end of a.txt, then reviews again.
                         (with-current-buffer a (goto-char (point-max)) (insert "mine\n"))
                         (with-current-buffer (eddi-agent-review-changes "agent-1")
                           (princ (format "again=%s\n" (buffer-name)))
                           (princ (format "saved=%S\n" (eddi-agent-review-reject-all))))
                         (princ (format "a=%S a-modified=%s b=%S b-modified=%s\n"
                                        (with-current-buffer a (buffer-string)) (buffer-modified-p a)
                                        (with-current-buffer b (buffer-string)) (buffer-modified-p b)))
                         (princ (format "ended=%s\n" (not (eddi-module-session (eddi-engine) "agent-1"))))))
                    state))
           ;; The review decided: a third Emacs has nothing of the agent's.
           (third (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t)
                      (eddi--open-journal)
                      (princ (format "third: agent-1=%s review=%s a=%s\n"
                                     (and (eddi-module-session (eddi-engine) "agent-1") t)
                                     (and (get-buffer "*eddi-review agent-1*") t)
                                     (and (find-buffer-visiting (expand-file-name "a.txt" eddi-root)) t))))
                   state)))
      (should (string-match-p "^status=complete review=t$" first))
      (should (string-match-p "^ended=t$" second))
      (should (string-match-p "^third: agent-1=nil review=nil a=nil$" third))
      ;; The engine keeps the held edits as unsaved, not as saved.
      (should (string-match-p "^status: Ok: Session agent-1, .*Modified" first))
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\nbeta\n"))
      (should (string-match-p
               (regexp-quote (format "review=t a=%S b=%S\n"
                                     (replace-regexp-in-string
                                      "line 19\n" "LINE NINETEEN\n"
                                      (replace-regexp-in-string "line 2\n" "LINE TWO\n"
                                                                eddi-agent-test-long))
                                     "alpha\ngamma\n"))
               second))
      (should (string-match-p "^\\+LINE TWO$" second))
      (should (string-match-p "^\\+gamma$" second))
      (should (string-match-p "^again=\\*eddi-review agent-1\\*$" second))
      (should (string-match-p "^saved=nil$" second))
      (should (string-match-p
               (regexp-quote (format "a=%S a-modified=t b=%S b-modified=nil\n"
                                     (concat eddi-agent-test-long "mine\n") "alpha\nbeta\n"))
               second))
      ;; The files were never written.
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\nbeta\n")))))

(ert-deftest eddi-agent-restored-session-undo-keeps-typing ()
  "A restored agent session is undone by name; what the user typed since stays."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t)
                      (eddi--open-journal)
                      (princ (format "status=%s\n" (eddi-agent-session-status (eddi-agent-run "Edit")))))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       (eddi--open-journal)
                       (let ((a (find-buffer-visiting (expand-file-name "a.txt" eddi-root)))
                             (b (find-buffer-visiting (expand-file-name "b.txt" eddi-root))))
                         (with-current-buffer a (goto-char (point-max)) (insert "mine\n"))
                         (princ (format "steps=%S\n" (eddi-undo-session "agent-1")))
                         (princ (format "a=%S b=%S\n" (with-current-buffer a (buffer-string))
                                        (with-current-buffer b (buffer-string))))))
                    state)))
      (should (string-match-p "^status=complete$" first))
      (should (string-match-p "^steps=2$" second))
      (should (string-match-p (regexp-quote (format "a=%S b=%S\n" (concat eddi-agent-test-long "mine\n")
                                                    "alpha\nbeta\n"))
                              second))
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long)))))

(ert-deftest eddi-agent-restored-typing-is-not-the-agents ()
  "Typing of the old Emacs between the agent's commands is not offered for rejection.
The journal says the restored edits of a.txt hold typing: the review
shows the file against its file on disk, marked, and rejecting leaves
the buffer as it is; b.txt, the agent's alone, is reviewed as usual."
  (eddi-agent-test-with 'anthropic `(("a.txt" . "alpha\nbeta\n") ("b.txt" . "one\ntwo\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open a.txt\nReplace \"beta\" \"BETA\""))))))
            ;; The user types at the end of a.txt while the agent works.
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "eval_sexp"
                                     ((expr . "(with-current-buffer (find-buffer-visiting (expand-file-name \"a.txt\" eddi-root)) (goto-char (point-max)) (insert \"mine\\n\"))"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_3" "eddi" ((text . "Goto StartOfFile\nReplace \"alpha\" \"ALPHA\"\nSave\nOpen b.txt\nReplace \"two\" \"TWO\"\nSave"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "ok")))))))
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t
                            eddi-agent-approve-function (lambda (&rest _) 'allow))
                      (eddi--open-journal)
                      (let ((session (eddi-agent-run "Edit")))
                        (princ (format "status=%s\n" (eddi-agent-session-status session))))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       (eddi--open-journal)
                       (with-current-buffer "*eddi-review agent-1*"
                         (princ (format "review:\n%s" (buffer-string)))
                         (princ (format "saved=%S\n" (eddi-agent-review-reject-all))))
                       (let ((a (find-buffer-visiting (expand-file-name "a.txt" eddi-root)))
                             (b (find-buffer-visiting (expand-file-name "b.txt" eddi-root))))
                         (princ (format "a=%S a-modified=%s b=%S b-modified=%s\n"
                                        (with-current-buffer a (buffer-string)) (buffer-modified-p a)
                                        (with-current-buffer b (buffer-string)) (buffer-modified-p b)))))
                    state)))
      (should (string-match-p "^status=complete$" first))
      (should (string-match-p "a.txt: its unsaved edits hold some typed outside the session" second))
      (should (string-match-p "^# a.txt: your edits overlap the agent's; this is the buffer against its file, and the review leaves it as it is, unsaved\n--- a.txt\n" second))
      (should (string-match-p "^--- b.txt\n\\+\\+\\+ b.txt\n@@ -1,2 \\+1,2 @@\n one\n-two\n\\+TWO\n" second))
      (should (string-match-p "^saved=nil$" second))
      (should (string-match-p
               (regexp-quote (format "a=%S a-modified=t b=%S b-modified=nil\n"
                                     "ALPHA\nBETA\nmine\n" "one\ntwo\n"))
               second))
      (should (equal (eddi-agent-test-file "a.txt") "alpha\nbeta\n"))
      (should (equal (eddi-agent-test-file "b.txt") "one\ntwo\n")))))

(ert-deftest eddi-agent-held-edits-over-unsaved-typing-survive-a-restart ()
  "The agent edits and saves a buffer that held the user's unsaved typing.
After a restart both come back: the journal kept the buffer's text
against the file, not the agent's edits against a text it never had,
and the review shows the file whole and leaves it as it is."
  (eddi-agent-test-with 'anthropic '(("a.txt" . "alpha\nbeta\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open a.txt\nReplace \"beta\" \"BETA\"\nSave"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "session_complete" ((message . "ok")))))))
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t)
                      (with-current-buffer (find-file-noselect (expand-file-name "a.txt" eddi-root))
                        (goto-char (point-min))
                        (insert "mine\n"))
                      (eddi--open-journal)
                      (let ((session (eddi-agent-run "Edit")))
                        (princ (format "status=%s\n" (eddi-agent-session-status session))))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       (eddi--open-journal)
                       (let ((a (find-buffer-visiting (expand-file-name "a.txt" eddi-root))))
                         (princ (format "a=%S\n" (with-current-buffer a (buffer-string))))
                         (with-current-buffer "*eddi-review agent-1*"
                           (princ (format "review:\n%s" (buffer-string)))
                           (princ (format "saved=%S\n" (eddi-agent-review-reject-all))))
                         (princ (format "after=%S modified=%s\n"
                                        (with-current-buffer a (buffer-string)) (buffer-modified-p a)))))
                    state)))
      (should (string-match-p "^status=complete$" first))
      (should (string-match-p "restored: 1 file open, 1 unsaved edit re-applied; a.txt: its unsaved edits hold some typed outside the session$"
                              second))
      (should (string-match-p (regexp-quote (format "a=%S\n" "mine\nalpha\nBETA\n")) second))
      (should (string-match-p "^# a.txt: your edits overlap the agent's" second))
      (should (string-match-p "^saved=nil$" second))
      (should (string-match-p (regexp-quote (format "after=%S modified=t\n" "mine\nalpha\nBETA\n"))
                              second))
      (should (equal (eddi-agent-test-file "a.txt") "alpha\nbeta\n")))))

(ert-deftest eddi-agent-restored-sessions-have-their-own-reviews ()
  "Two agent sessions whose reviews waited come back each with its own review.
Accepting one saves only its file; the other still waits, and rejecting
it leaves its file as it was."
  (eddi-agent-test-with 'anthropic '(("a.txt" . "alpha\nbeta\n") ("b.txt" . "one\ntwo\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open a.txt\nReplace \"beta\" \"BETA\"\nSave"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "session_complete" ((message . "a done"))))))
            (list :events (eddi-agent-test-anthropic :calls '(("toolu_3" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "eddi" ((text . "Open b.txt\nReplace \"two\" \"TWO\"\nSave"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_5" "session_complete" ((message . "b done")))))))
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi-agent)
                      (setq eddi-journal t eddi-agent-review t)
                      (eddi--open-journal)
                      (dolist (task '("Edit a" "Edit b"))
                        (let ((session (eddi-agent-run task)))
                          (princ (format "%s=%s\n" (eddi-agent-session-id session)
                                         (eddi-agent-session-status session)))))
                      (princ (format "reviews=%S\n"
                                     (sort (mapcar #'buffer-name
                                                   (cl-remove-if-not
                                                    (lambda (b) (string-prefix-p "*eddi-review" (buffer-name b)))
                                                    (buffer-list)))
                                           #'string<)))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal t)
                       ;; b.txt is open already, as on disk: the journal
                       ;; puts the agent's edits into that buffer.
                       (find-file-noselect (expand-file-name "b.txt" eddi-root))
                       (eddi--open-journal)
                       (let ((one (get-buffer "*eddi-review agent-1*"))
                             (two (get-buffer "*eddi-review agent-2*")))
                         (princ (format "shared=%s\n" (and (get-buffer "*eddi-review*") t)))
                         (princ (format "one:\n%s" (with-current-buffer one (buffer-string))))
                         (princ (format "two:\n%s" (with-current-buffer two (buffer-string))))
                         (princ (format "saved-one=%S\n"
                                        (with-current-buffer one (eddi-agent-review-accept-all))))
                         (princ (format "after-one: agent-1=%s agent-2=%s two=%s disk-b=%S\n"
                                        (and (eddi-module-session (eddi-engine) "agent-1") t)
                                        (and (eddi-module-session (eddi-engine) "agent-2") t)
                                        (buffer-live-p two)
                                        (with-temp-buffer
                                          (insert-file-contents (expand-file-name "b.txt" eddi-root))
                                          (buffer-string))))
                         (princ (format "saved-two=%S\n"
                                        (with-current-buffer two (eddi-agent-review-reject-all))))
                         (princ (format "after-two: agent-2=%s b=%S b-modified=%s\n"
                                        (and (eddi-module-session (eddi-engine) "agent-2") t)
                                        (with-current-buffer (find-buffer-visiting
                                                              (expand-file-name "b.txt" eddi-root))
                                          (buffer-string))
                                        (buffer-modified-p (find-buffer-visiting
                                                            (expand-file-name "b.txt" eddi-root)))))))
                    state)))
      (should (string-match-p "^agent-1=complete\nagent-2=complete\n" first))
      (should (string-match-p (regexp-quote "reviews=(\"*eddi-review agent-1*\" \"*eddi-review agent-2*\")")
                              first))
      (should (string-match-p "^shared=nil$" second))
      ;; Each review shows its own session's file, and only that.
      (should (string-match-p "^one:\n.*\n--- a.txt\n\\+\\+\\+ a.txt\n@@ -1,2 \\+1,2 @@\n alpha\n-beta\n\\+BETA\ntwo:\n" second))
      (should (string-match-p "^two:\n.*\n--- b.txt\n\\+\\+\\+ b.txt\n@@ -1,2 \\+1,2 @@\n one\n-two\n\\+TWO\nsaved-one=" second))
      (should (string-match-p "^saved-one=(\"a.txt\")$" second))
      (should (string-match-p (regexp-quote "\nafter-one: agent-1=nil agent-2=t two=t disk-b=\"one\ntwo\n\"\n")
                              second))
      (should (string-match-p "^saved-two=nil$" second))
      (should (string-match-p (regexp-quote "\nafter-two: agent-2=nil b=\"one\ntwo\n\" b-modified=nil\n")
                              second))
      (should (equal (eddi-agent-test-file "a.txt") "alpha\nBETA\n"))
      (should (equal (eddi-agent-test-file "b.txt") "one\ntwo\n")))))

(ert-deftest eddi-agent-resume-prompt-lists-and-chooses ()
  "The resume prompt names what the journal kept; only the chosen session
comes back, the other stays in the journal, and no new agent takes its name."
  (eddi-agent-test-with 'anthropic '(("a.txt" . "alpha\n") ("b.txt" . "beta\n"))
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "session_complete" ((message . "fine")))))))
    (let* ((state (concat "XDG_STATE_HOME=" (expand-file-name ".state" eddi-agent-test-root)))
           (first (eddi-agent-test-child
                   '(progn
                      (require 'eddi)
                      (setq eddi-journal t)
                      (eddi--open-journal)
                      (eddi-exec "Start agent-1" "agent-1")
                      (eddi-exec "Open a.txt\nReplace \"alpha\" \"ALPHA\"" "agent-1")
                      (eddi-exec "Start mine" "me")
                      (princ (eddi-exec "Open b.txt\nReplace \"beta\" \"BETA\"" "me"))
                      (kill-emacs 0))
                   state))
           (second (eddi-agent-test-child
                    '(progn
                       (require 'eddi-agent)
                       (setq eddi-journal 'ask noninteractive nil)
                       (cl-letf (((symbol-function 'read-multiple-choice)
                                  (lambda (prompt choices)
                                    (princ (format "prompt=%s\n" prompt))
                                    (assq ?c choices)))
                                 ((symbol-function 'completing-read-multiple)
                                  (lambda (&rest _) '("mine")))
                                 ((symbol-function 'display-buffer) #'ignore))
                         (eddi--open-journal))
                       (setq noninteractive t)
                       (princ (format "mine=%s agent=%s kept=%S\n"
                                      (eddi-module-session (eddi-engine) "me")
                                      (eddi-module-session (eddi-engine) "agent-1")
                                      eddi-journal-kept))
                       (princ (format "id=%s\n" (eddi-agent-session-id (eddi-agent-run "Fine")))))
                    state)))
      (should (string-match-p "Replaced 1 occurrence" first))
      (should (string-match-p "^prompt=eddi: The journal kept agent-1 (a.txt, 1 unsaved edit); mine (b.txt, 1 unsaved edit)\\. Resume$"
                              second))
      (should (string-match-p "^mine=mine agent=nil kept=(\"agent-1\")$" second))
      (should (string-match-p "^id=agent-2$" second)))))

;;;; A multi-step edit of a real file

(ert-deftest eddi-agent-edit-anthropic ()
  "A four-turn session edits a file through the eddi tool (Anthropic format)."
  (eddi-agent-test-with 'anthropic '(("notes.txt" . "alpha\nbeta\n"))
      (list (list :events (eddi-agent-test-anthropic
                           :text "Planning."
                           :calls '(("toolu_1" "todo_add" ((text . "Rename beta"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "eddi" ((text . "Open notes.txt\nReplace \"beta\" \"gamma\""))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_3" "eddi" ((text . "Save")))
                                    ("toolu_4" "todo_update" ((id . 1) (status . "done"))))))
            (list :events (eddi-agent-test-anthropic
                           :text "Done."
                           :calls '(("toolu_5" "session_complete" ((message . "Renamed beta.")))))))
    (let* ((session (eddi-agent-run "Rename beta to gamma in notes.txt"))
           (received (eddi-agent-test-server-received eddi-agent-test-server))
           (requests (eddi-agent-test-requests)))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (eddi-agent-session-message session) "Renamed beta."))
      ;; The file's bytes and the live buffer's text.
      (should (equal (eddi-agent-test-file "notes.txt") "alpha\ngamma\n"))
      (should (equal (eddi-agent-test-buffer-text "notes.txt") "alpha\ngamma\n"))
      (should (= (length requests) 4))
      ;; Headers and the request itself.
      (dolist (request received)
        (should (equal (plist-get request :method) "POST"))
        (should (equal (plist-get request :path) "/v1/messages"))
        (should (equal (cdr (assoc "x-api-key" (plist-get request :headers))) "test-key"))
        (should (equal (cdr (assoc "anthropic-version" (plist-get request :headers))) "2023-06-01"))
        (should (equal (cdr (assoc "content-type" (plist-get request :headers))) "application/json")))
      (let ((first (nth 0 requests)))
        (should (equal (alist-get 'model first) "test-model"))
        (should (eq (alist-get 'stream first) t))
        (should (equal (alist-get 'max_tokens first) eddi-agent-max-tokens))
        (should (equal (alist-get 'system first) eddi-agent-system-prompt))
        (should (equal (eddi-agent-test-tool-names first) eddi-agent-test-planning-tools))
        (should (equal (eddi-agent-test-get first 'messages 0 'role) "user"))
        (should (string-prefix-p "Rename beta to gamma in notes.txt\n\nContext:\n"
                                 (eddi-agent-test-get first 'messages 0 'content)))
        (should (string-match-p "eddi session: agent-[0-9]+ (Start agent-[0-9]+: Ok)\\'"
                                (eddi-agent-test-get first 'messages 0 'content))))
      ;; The exact schema of the eddi tool, once executing: the engine's
      ;; description and schema, the ones MCP clients get.
      (should (equal (eddi-agent-test-tool-names (nth 1 requests)) eddi-agent-test-all-tools))
      (should (equal (aref (alist-get 'tools (nth 1 requests)) 0)
                     '((name . "eddi")
                       (description . "Run EddiSpeak editor commands, one per line: Start s, Open Create a.py, Goto 3:0, Insert Block \"x\\n\", Save, Help. One reply line per command: Ok[, facts] or Fail \"why\".")
                       (input_schema (type . "object")
                                     (properties (text (type . "string")
                                                       (description . "EddiSpeak commands, one per line")))
                                     (required . ["text"])
                                     (additionalProperties . :false)))))
      ;; The model's turn goes back as it came; results are raw.
      (should (equal (eddi-agent-test-get (nth 1 requests) 'messages 1)
                     '((role . "assistant")
                       (content . [((type . "text") (text . "Planning."))
                                   ((type . "tool_use") (id . "toolu_1") (name . "todo_add")
                                    (input (text . "Rename beta")))]))))
      (should (equal (eddi-agent-test-get (nth 1 requests) 'messages 2)
                     '((role . "user")
                       (content . [((type . "tool_result") (tool_use_id . "toolu_1")
                                    (content . "Todo 1 added"))]))))
      (should (equal (eddi-agent-test-anthropic-results (nth 2 requests))
                     '(((type . "tool_result") (tool_use_id . "toolu_2")
                        (content . "Ok, At 0:0, Length 2\nOk, Replaced 1 occurrence, At 1:5")))))
      (should (equal (eddi-agent-test-anthropic-results (nth 3 requests))
                     '(((type . "tool_result") (tool_use_id . "toolu_3") (content . "Ok, Bytes 12"))
                       ((type . "tool_result") (tool_use_id . "toolu_4") (content . "Todo 1: done")))))
      ;; Tokens: 100 in and 20 out per turn.
      (should (= (eddi-agent-session-input-tokens session) 400))
      (should (= (eddi-agent-session-output-tokens session) 80))
      ;; The log: the conversation as sent, and the outcome.
      (let ((log (eddi-agent-test-log session)))
        (should (equal (alist-get 'status log) "complete"))
        (should (= (length (alist-get 'messages log)) 9))
        (should (equal (alist-get 'todos log) [((id . 1) (text . "Rename beta") (status . "done"))]))
        (eddi-agent-test-well-formed log))
      ;; The conversation buffer shows the calls and the results.
      (with-current-buffer "*eddi-agent*"
        (should (string-match-p "▸ eddi " (buffer-string)))
        (should (string-match-p "→ Ok, Bytes 12" (buffer-string))))
      ;; One command takes the whole session back.
      (eddi-agent-undo session)
      (should (equal (eddi-agent-test-buffer-text "notes.txt") "alpha\nbeta\n")))))

(ert-deftest eddi-agent-edit-openai ()
  "The same edit through the OpenAI chat completions format."
  (eddi-agent-test-with 'openai '(("notes.txt" . "alpha\nbeta\n"))
      (list (list :events (eddi-agent-test-openai
                           :calls '(("call_1" "todo_add" ((text . "Rename beta"))))))
            (list :events (eddi-agent-test-openai
                           :text "Editing."
                           :calls '(("call_2" "eddi" ((text . "Open notes.txt\nReplace \"beta\" \"gamma\"\nSave"))))))
            (list :events (eddi-agent-test-openai
                           :calls '(("call_3" "session_complete" ((message . "Renamed.")))))))
    (let* ((session (eddi-agent-run "Rename beta to gamma"))
           (received (eddi-agent-test-server-received eddi-agent-test-server))
           (requests (eddi-agent-test-requests)))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (eddi-agent-test-file "notes.txt") "alpha\ngamma\n"))
      (should (equal (eddi-agent-test-buffer-text "notes.txt") "alpha\ngamma\n"))
      (should (= (length requests) 3))
      (dolist (request received)
        (should (equal (plist-get request :path) "/v1/chat/completions"))
        (should (equal (cdr (assoc "authorization" (plist-get request :headers))) "Bearer test-key")))
      (let ((first (nth 0 requests)))
        (should (eq (alist-get 'stream first) t))
        (should (equal (alist-get 'stream_options first) '((include_usage . t))))
        (should (equal (eddi-agent-test-get first 'messages 0)
                       `((role . "system") (content . ,eddi-agent-system-prompt))))
        (should (equal (eddi-agent-test-tool-names first) eddi-agent-test-planning-tools))
        (should (equal (aref (alist-get 'tools first) 8)
                       '((type . "function")
                         (function (name . "session_complete") (description . "End the session.")
                                   (parameters (type . "object")
                                               (properties (message (type . "string")
                                                                    (description . "For the user")))
                                               (required . ["message"])))))))
      (let ((third (nth 2 requests)))
        (should (equal (eddi-agent-test-get third 'messages 4)
                       '((role . "assistant") (content . "Editing.")
                         (tool_calls . [((id . "call_2") (type . "function")
                                         (function (name . "eddi")
                                                   (arguments . "{\"text\":\"Open notes.txt\\nReplace \\\"beta\\\" \\\"gamma\\\"\\nSave\"}")))]))))
        (should (equal (eddi-agent-test-get third 'messages 5)
                       '((role . "tool") (tool_call_id . "call_2")
                         (content . "Ok, At 0:0, Length 2\nOk, Replaced 1 occurrence, At 1:5\nOk, Bytes 12")))))
      (should (= (eddi-agent-session-input-tokens session) 300)))))

;;;; The circuit breaker

(ert-deftest eddi-agent-breaker-session-limit ()
  "The 31st tool call of a session trips the breaker; nothing after it runs."
  (let ((calls (cl-loop for i from 1 to 32
                        collect (list (format "toolu_%d" i)
                                      (if (cl-oddp i) "current_context" "todo_status")
                                      nil))))
    (eddi-agent-test-with 'anthropic nil
        (list (list :events (eddi-agent-test-anthropic :calls calls)))
      (let* ((session (eddi-agent-run "Loop"))
             (log (eddi-agent-test-log session))
             (results (eddi-agent-test-anthropic-results
                       `((messages . ,(alist-get 'messages log))))))
        (should (eq (eddi-agent-session-status session) 'tripped))
        (should (equal (eddi-agent-session-message session)
                       "Circuit breaker: more than 30 tool calls in this session (eddi-agent-max-tool-calls)"))
        (should (= (length (eddi-agent-test-requests)) 1))
        (should (= (length results) 32))
        (should (equal (alist-get 'content (nth 30 results)) (eddi-agent-session-message session)))
        (should (eq (alist-get 'is_error (nth 30 results)) t))
        (should (equal (alist-get 'content (nth 31 results))
                       (concat "Not run: " (eddi-agent-session-message session))))
        (eddi-agent-test-well-formed log)))))

(ert-deftest eddi-agent-breaker-identical-calls ()
  "A fourth identical call in a row trips the breaker."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic
                           :calls (cl-loop for i from 1 to 4
                                           collect (list (format "toolu_%d" i) "todo_status" nil)))))
    (let* ((session (eddi-agent-run "Loop"))
           (log (eddi-agent-test-log session))
           (results (eddi-agent-test-anthropic-results `((messages . ,(alist-get 'messages log))))))
      (should (eq (eddi-agent-session-status session) 'tripped))
      (should (equal (eddi-agent-session-message session)
                     "Circuit breaker: more than 3 identical calls in a row (eddi-agent-max-identical-calls)"))
      (should (equal (mapcar (lambda (r) (alist-get 'content r)) results)
                     (list "No todos" "No todos" "No todos" (eddi-agent-session-message session)))))))

(ert-deftest eddi-agent-breaker-same-tool ()
  "A 16th call of one tool in a row trips the breaker, even with new arguments."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic
                           :calls (cl-loop for i from 1 to 16
                                           collect (list (format "toolu_%d" i) "todo_add"
                                                         `((text . ,(format "step %d" i))))))))
    (let ((session (eddi-agent-run "Loop")))
      (should (eq (eddi-agent-session-status session) 'tripped))
      (should (equal (eddi-agent-session-message session)
                     "Circuit breaker: more than 15 calls of todo_add in a row (eddi-agent-max-same-tool-calls)"))
      (should (= (length (eddi-agent-session-todos session)) 15)))))

(ert-deftest eddi-agent-breaker-same-error ()
  "The same error a third time sends a warning; a fifth time stops."
  (let ((bad '("buffer_contents" ((buffer . "no such buffer"))))
        (good '("todo_status" nil)))
    (eddi-agent-test-with 'anthropic nil
        (list (list :events (eddi-agent-test-anthropic
                             :calls (cl-loop for i from 1 to 5
                                             collect (cons (format "toolu_a%d" i)
                                                           (if (cl-oddp i) bad good)))))
              (list :events (eddi-agent-test-anthropic
                             :calls (cl-loop for i from 1 to 3
                                             collect (cons (format "toolu_b%d" i)
                                                           (if (cl-oddp i) bad good))))))
      (let* ((session (eddi-agent-run "Loop"))
             (second (nth 1 (eddi-agent-test-requests)))
             (last (eddi-agent-test-get second 'messages 2 'content)))
        (should (eq (eddi-agent-session-status session) 'tripped))
        (should (equal (eddi-agent-session-message session)
                       "Circuit breaker: the same error 5 times (eddi-agent-error-stop-count): No buffer named no such buffer"))
        ;; Raw results, flagged, then the warning after them.
        (should (equal (aref last 0) '((type . "tool_result") (tool_use_id . "toolu_a1")
                                       (content . "No buffer named no such buffer") (is_error . t))))
        (should (equal (aref last 5)
                       '((type . "text")
                         (text . "Warning: this error came 3 times: No buffer named no such buffer"))))
        (should (= (length (eddi-agent-test-requests)) 2))))))

(ert-deftest eddi-agent-breaker-wall-clock ()
  "The wall clock stops a session whose model does not answer in time."
  (eddi-agent-test-with 'anthropic nil
      (list (list :delay 5 :events (eddi-agent-test-anthropic :text "late")))
    (let* ((eddi-agent-max-seconds 0.5)
           (start (float-time))
           (session (eddi-agent-run "Wait")))
      (should (eq (eddi-agent-session-status session) 'timeout))
      (should (equal (eddi-agent-session-message session) "Wall clock limit of 0.5 s"))
      (should (< (- (float-time) start) 3)))))

(ert-deftest eddi-agent-workflow-states-off ()
  "Without workflow states every tool is offered from the start."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic :text "Nothing to do." :stop "end_turn")))
    (let* ((eddi-agent-workflow-states nil)
           (session (eddi-agent-run "Nothing")))
      (should (eq (eddi-agent-session-status session) 'ended))
      (should (equal (eddi-agent-session-message session) "Nothing to do."))
      (should (equal (eddi-agent-test-tool-names (car (eddi-agent-test-requests)))
                     eddi-agent-test-all-tools)))))

;;;; Broken replies

(ert-deftest eddi-agent-interrupted-stream ()
  "A stream cut in the middle of a tool call stops the session; nothing runs."
  (eddi-agent-test-with 'anthropic nil
      (list (list :cut t :events (eddi-agent-test-anthropic
                                  :calls '(("toolu_1" "todo_add" ((text . "never"))))
                                  :cut-after 4)))
    (let ((session (eddi-agent-run "Cut")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (string-prefix-p "Stream interrupted before its end (curl exit 18"
                               (eddi-agent-session-message session)))
      (should (null (eddi-agent-session-todos session))))))

(ert-deftest eddi-agent-interrupted-stream-openai ()
  "An OpenAI stream that ends before finish_reason and [DONE] is an error."
  (eddi-agent-test-with 'openai nil
      (list (list :events (eddi-agent-test-openai
                           :calls '(("call_1" "todo_add" ((text . "never"))))
                           :cut-after 3)))
    (let ((session (eddi-agent-run "Cut")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (string-prefix-p "Stream interrupted before its end (curl exit 0"
                               (eddi-agent-session-message session))))))

(ert-deftest eddi-agent-malformed-calls ()
  "Unparsable arguments and unknown tools get error results; the loop goes on."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "todo_add" "{\"text\": \"x\"")
                                    ("toolu_2" "frobnicate" ((a . 1)))
                                    ("toolu_3" "todo_add" ((txt . "typo"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "ok")))))))
    (let* ((session (eddi-agent-run "Bad"))
           (second (nth 1 (eddi-agent-test-requests)))
           (results (eddi-agent-test-anthropic-results second)))
      (should (eq (eddi-agent-session-status session) 'complete))
      ;; The malformed call goes back with empty input; its result says why.
      (should (equal (eddi-agent-test-get second 'messages 1 'content 0 'input) nil))
      (should (string-prefix-p
               "Malformed call of todo_add: arguments are not valid JSON (json-end-of-file): {\"text\": \"x\""
               (alist-get 'content (nth 0 results))))
      (should (equal (nth 1 results) '((type . "tool_result") (tool_use_id . "toolu_2")
                                       (content . "Unknown tool: frobnicate") (is_error . t))))
      (should (equal (alist-get 'content (nth 2 results)) "Missing argument: text")))))

(ert-deftest eddi-agent-malformed-event ()
  "An event that is not JSON stops the session with the raw data."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (list "event: message_start\ndata: {\"type\": \"message_start\", oops\n\n")))
    (let ((session (eddi-agent-run "Garbage")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (string-match-p "\\`Malformed stream event (json-parse-error): {\"type\""
                              (eddi-agent-session-message session))))))

(ert-deftest eddi-agent-http-error ()
  "An HTTP error stops the session with the status and the server's body."
  (let ((body "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}"))
    (eddi-agent-test-with 'anthropic nil (list (list :status 401 :body body))
      (let ((session (eddi-agent-run "Denied")))
        (should (eq (eddi-agent-session-status session) 'error))
        (should (equal (eddi-agent-session-message session) (concat "HTTP 401: " body)))))))

(ert-deftest eddi-agent-stream-error-event ()
  "An error event in the stream (overloaded) stops the session."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (list "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n")))
    (let ((session (eddi-agent-run "Busy")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (equal (eddi-agent-session-message session)
                     "Model API error: overloaded_error: Overloaded")))))

;;;; Tools

(ert-deftest eddi-agent-tool-errors ()
  "A Lisp error is a flagged result; an eddi Fail goes back raw and unflagged."
  (eddi-agent-test-with 'openai nil
      (list (list :events (eddi-agent-test-openai :calls '(("call_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-openai
                           :calls '(("call_1" "eval_sexp" ((expr . "(car 1)")))
                                    ("call_2" "eddi" ((text . "Frob")))
                                    ("call_3" "eval_sexp" ((expr . "(read-string \"Name: \")")))
                                    ("call_4" "eval_sexp" ((expr . "(setq x 1) (+ x 41)"))))))
            (list :events (eddi-agent-test-openai
                           :calls '(("call_5" "session_complete" ((message . "ok")))))))
    (let* ((session (eddi-agent-run "Errors"))
           (third (nth 2 (eddi-agent-test-requests)))
           (messages (alist-get 'messages third)))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (cl-subseq messages 5 9)
                     [((role . "tool") (tool_call_id . "call_1")
                       (content . "Wrong type argument: listp, 1"))
                      ((role . "tool") (tool_call_id . "call_2")
                       (content . "Fail \"Unknown command 'Frob'\", Help lists the commands"))
                      ((role . "tool") (tool_call_id . "call_3")
                       (content . "User interaction while inhibited"))
                      ((role . "tool") (tool_call_id . "call_4") (content . "42"))])))))

;;;; The engine's tools

(ert-deftest eddi-agent-engine-tools ()
  "The engine's tools are offered as its table says, and run their commands."
  (eddi-agent-test-with 'anthropic '(("g.txt" . "Alpha\nbeta\n"))
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "grep" ((pattern . "alpha") (ignore_case . t)))
                                    ("toolu_2" "grep" ((pattern . "alpha") (ignore_case . :false)))
                                    ("toolu_3" "read" ((offset . 1))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "ok")))))))
    (let* ((session (eddi-agent-run "Look"))
           (requests (eddi-agent-test-requests))
           (results (eddi-agent-test-anthropic-results (nth 1 requests))))
      (should (eq (eddi-agent-session-status session) 'complete))
      ;; read and grep, offered while planning, are the engine's entries.
      (dolist (name '("read" "grep"))
        (let ((offered (cl-find name (alist-get 'tools (car requests))
                                :key (lambda (tool) (alist-get 'name tool)) :test #'equal))
              (engine (cl-find name (eddi-module-tools)
                               :key (lambda (tool) (plist-get tool :name)) :test #'equal)))
          (should (equal (alist-get 'description offered) (plist-get engine :description)))
          (should (equal (alist-get 'input_schema offered)
                         (eddi-agent-backend-json-parse (plist-get engine :schema))))))
      ;; Replies are escaped: the row follows a backslash and an n.
      (should (string-match-p "\\`Ok: \\[g\\.txt#[0-9A-F]+\\]\\\\n1:Alpha\\'"
                              (alist-get 'content (nth 0 results))))
      (should (equal (alist-get 'content (nth 1 results)) "Ok: No matches"))
      ;; A required argument is the one the engine's schema requires.
      (should (equal (nth 2 results) '((type . "tool_result") (tool_use_id . "toolu_3")
                                       (content . "Missing argument: path") (is_error . t)))))))

;;;; Approval

(ert-deftest eddi-agent-approve-denies-in-batch ()
  "In batch Emacs `ask' denies: writing shell and Lisp calls leave no trace on disk."
  (eddi-agent-test-with 'anthropic '(("notes.txt" . "one\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "shell_exec" ((command . "sh -c 'echo pwned > f'")))
                                    ("toolu_2" "shell_exec" ((command . "mv notes.txt x")))
                                    ("toolu_3" "eval_sexp" ((expr . "(with-temp-file \"g\" (insert \"x\"))"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "ok")))))))
    (let* ((eddi-agent-approve-function nil)
           (session (eddi-agent-run "Write"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (nth 0 results)
                     '((type . "tool_result") (tool_use_id . "toolu_1")
                       (content . "Denied: the user did not approve this shell_exec call (eddi-agent-approve is ask); nothing ran")
                       (is_error . t))))
      (should (equal (alist-get 'content (nth 2 results))
                     "Denied: the user did not approve this eval_sexp call (eddi-agent-approve is ask); nothing ran"))
      (dolist (name '("f" "x" "g"))
        (should-not (file-exists-p (expand-file-name name eddi-agent-test-root))))
      (should (equal (eddi-agent-test-file "notes.txt") "one\n"))
      (eddi-agent-test-well-formed (eddi-agent-test-log session)))))

(ert-deftest eddi-agent-approve-prompt ()
  "Interactively `ask' prompts with the exact command; `a' allows the kind for the session."
  (let* ((session (eddi-agent-session--create :id "agent-x"))
         (eddi-agent-approve-function nil)
         (eddi-agent-approve '((shell_exec . ask)))
         (noninteractive nil)
         (prompts nil)
         (answers (list '(?n "no") '(?a "always"))))
    (cl-letf (((symbol-function 'read-multiple-choice)
               (lambda (prompt _choices) (push prompt prompts) (pop answers))))
      (should (string-prefix-p "Denied: "
                               (eddi-agent-approve-check session "shell_exec" '((command . "rm -rf src")))))
      (should-not (eddi-agent-approve-check session "shell_exec" '((command . "git checkout -- ."))))
      (should-not (eddi-agent-approve-check session "shell_exec" '((command . "curl -o f x"))))
      (should-not (eddi-agent-approve-check session "todo_status" nil)))
    (should (equal (reverse prompts)
                   '("eddi-agent agent-x wants to run (shell_exec):\nrm -rf src\nRun it? "
                     "eddi-agent agent-x wants to run (shell_exec):\ngit checkout -- .\nRun it? ")))))

(ert-deftest eddi-agent-approve-function-and-policy ()
  "The approve function sees the exact command; `always' covers the session; `deny' wins."
  (eddi-agent-test-with 'anthropic '(("a.txt" . "one\ntwo\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "shell_exec" ((command . "grep -c o a.txt")))
                                    ("toolu_2" "shell_exec" ((command . "exit 3")))
                                    ("toolu_3" "eval_sexp" ((expr . "(+ 1 2)"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "ok")))))))
    (let* ((asked nil)
           (eddi-agent-approve '((shell_exec . ask) (eval_sexp . deny) (edits . allow)))
           (eddi-agent-approve-function (lambda (kind text _session)
                                          (push (cons kind text) asked)
                                          'always))
           (session (eddi-agent-run "Shell"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      ;; Asked once, with the exact command; `always' allowed the second call.
      (should (equal asked '((shell_exec . "grep -c o a.txt"))))
      (should (equal (alist-get 'content (nth 0 results)) "2\n"))
      (should (equal (nth 1 results) '((type . "tool_result") (tool_use_id . "toolu_2")
                                       (content . "[exit 3]") (is_error . t))))
      (should (equal (alist-get 'content (nth 2 results))
                     "Denied: the user did not approve this eval_sexp call (eddi-agent-approve is deny); nothing ran")))))

;;;; Emacs goes on while tools run

(ert-deftest eddi-agent-shell-runs-asynchronously ()
  "A timer fires while shell_exec runs sleep 2; the output streams into *eddi-agent*."
  (eddi-agent-test-with 'openai nil
      (list (list :events (eddi-agent-test-openai :calls '(("call_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-openai
                           :calls '(("call_1" "shell_exec" ((command . "echo started; sleep 2; echo done")))
                                    ("call_2" "todo_status" nil))))
            (list :events (eddi-agent-test-openai
                           :calls '(("call_3" "session_complete" ((message . "ok")))))))
    (let* ((noninteractive nil)
           (session (eddi-agent-run "Sleep"))
           (fired nil))
      (with-timeout (5 (error "The shell command did not start"))
        (while (not (process-live-p (eddi-agent-session-process session)))
          (accept-process-output nil 0.05)))
      ;; The tool returned to the command loop: timers run, the process too.
      (run-at-time 0.2 nil (lambda () (setq fired (and (process-live-p (eddi-agent-session-process session)) t))))
      (with-timeout (1.5 (error "The timer did not fire"))
        (while (not fired) (accept-process-output nil 0.05)))
      (should (eq fired t))
      (with-timeout (1.5 (error "No output streamed"))
        (while (not (string-match-p "started" (with-current-buffer "*eddi-agent*" (buffer-string))))
          (accept-process-output nil 0.05)))
      (should (eq (eddi-agent-session-status session) 'running))
      ;; A stop button sits under the call while it runs, one on the task line.
      (should (= (eddi-agent-test-count-stop-buttons) 2))
      (with-timeout (10 (error "The shell did not end"))
        (while (eddi-agent-session-process session) (accept-process-output nil 0.05)))
      ;; The shell ended: its button went with it.
      (should (<= (eddi-agent-test-count-stop-buttons) 1))
      (with-timeout (10 (error "The session did not end"))
        (while (eq (eddi-agent-session-status session) 'running)
          (accept-process-output nil 0.05)))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (= (eddi-agent-test-count-stop-buttons) 0))
      (should (string-match-p "^Task (agent-[0-9]+): Sleep\nModel: "
                              (with-current-buffer "*eddi-agent*" (buffer-string))))
      (let ((messages (alist-get 'messages (nth 2 (eddi-agent-test-requests)))))
        (should (equal (aref messages 5) '((role . "tool") (tool_call_id . "call_1")
                                           (content . "started\ndone\n"))))
        (should (equal (aref messages 6) '((role . "tool") (tool_call_id . "call_2")
                                           (content . "1 [pending] t"))))))))

(defun eddi-agent-test-count-stop-buttons ()
  "How many [stop] buttons the *eddi-agent* buffer shows."
  (with-current-buffer "*eddi-agent*"
    (save-excursion
      (goto-char (point-min))
      (cl-loop while (search-forward "[stop]" nil t) count t))))

;;;; What the shell sees

(defconst eddi-agent-test-node-files
  '(("math.js" . "exports.add = (a, b) => a - b;\n")
    ("math.test.js" . "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./math.js');\ntest('add', () => assert.strictEqual(add(2, 3), 5));\n"))
  "A module with a bug and its test, for node --test.")

(ert-deftest eddi-agent-shell-sees-pending-edits ()
  "The agent fixes a bug, held for review; node --test in its shell sees the
fix and passes, while the file on disk keeps the bug, the command's own
writes go with its view, and it has no network."
  (skip-unless (executable-find "node"))
  (skip-unless (eddi-agent--overlay-available))
  (eddi-agent-test-with 'anthropic eddi-agent-test-node-files
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open math.js\nReplace \"a - b\" \"a + b\"\nSave")))
                                    ("toolu_2" "shell_exec" ((command . "node --test 2>&1 | grep -E '^# (pass|fail)'; echo scratch > made.txt; cat made.txt")))
                                    ("toolu_3" "shell_exec" ((command . "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_4" "session_complete" ((message . "fixed")))))))
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Fix add"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (alist-get 'content (nth 1 results)) "# pass 1\n# fail 0\nscratch\n"))
      ;; Only the loopback device: no network.
      (should (equal (alist-get 'content (nth 2 results)) "lo\n"))
      (should (equal (eddi-agent-test-file "math.js") "exports.add = (a, b) => a - b;\n"))
      (should-not (file-exists-p (expand-file-name "made.txt" eddi-agent-test-root)))
      (with-current-buffer "*eddi-agent*"
        (should (string-match-p (format "^Review: 1 changed file waits in \\*eddi-review %s\\*" (eddi-agent-session-id session)) (buffer-string))))
      ;; Accepted, the fix reaches the disk.
      (with-current-buffer (eddi-agent-test-review session) (eddi-agent-review-accept-all))
      (should (equal (eddi-agent-test-file "math.js") "exports.add = (a, b) => a + b;\n")))))

(ert-deftest eddi-agent-shell-view-falls-back-to-a-copy ()
  "Without namespaces the view is a copy of the workspace with the pending
edits, and the result says so."
  (skip-unless (executable-find "node"))
  (eddi-agent-test-with 'anthropic eddi-agent-test-node-files
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open math.js\nReplace \"a - b\" \"a + b\"\nSave")))
                                    ("toolu_2" "shell_exec" ((command . "node --test 2>&1 | grep -E '^# (pass|fail)'; touch made.txt"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_3" "session_complete" ((message . "fixed")))))))
    (let* ((eddi-agent-review t)
           (eddi-agent--overlay-works nil)
           (session (eddi-agent-run "Fix add"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (string-match-p "\\`# pass 1\n# fail 0\n\\[ran in a copy of the workspace at .*: no private namespace here\\]\n\\'"
                              (alist-get 'content (nth 1 results))))
      (should-not (file-exists-p (expand-file-name "made.txt" eddi-agent-test-root)))
      (should (equal (eddi-agent-test-file "math.js") "exports.add = (a, b) => a - b;\n")))))

(ert-deftest eddi-agent-shell-on-disk-when-asked ()
  "With `eddi-agent-shell-view' nil the shell sees the disk, as before."
  (skip-unless (executable-find "node"))
  (eddi-agent-test-with 'anthropic eddi-agent-test-node-files
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eddi" ((text . "Open math.js\nReplace \"a - b\" \"a + b\"\nSave")))
                                    ("toolu_2" "shell_exec" ((command . "node --test 2>&1 | grep -E '^# (pass|fail)'"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_3" "session_complete" ((message . "fixed")))))))
    (let* ((eddi-agent-review t)
           (eddi-agent-shell-view nil)
           (session (eddi-agent-run "Fix add"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (equal (alist-get 'content (nth 1 results)) "# pass 0\n# fail 1\n")))))

;;;; Settings

(ert-deftest eddi-agent-api-key-sources ()
  "`eddi-agent-api-key' is a string or a function; else auth-source, then the environment."
  (let ((auth-sources nil)
        (process-environment (cons "ANTHROPIC_API_KEY=from-env" process-environment))
        (url "https://api.anthropic.com/v1/messages"))
    (let ((eddi-agent-api-key nil))
      (should (equal (eddi-agent-backend-api-key 'anthropic url) "from-env")))
    (let ((eddi-agent-api-key "from-string"))
      (should (equal (eddi-agent-backend-api-key 'anthropic url) "from-string")))
    (let ((eddi-agent-api-key (lambda () "from-function")))
      (should (equal (eddi-agent-backend-api-key 'anthropic url) "from-function")))))

(ert-deftest eddi-agent-no-log-unless-asked ()
  "Without `eddi-agent-log-directory' no log file is written; the mode line shows the run."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_1" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic :text "Nothing to do." :stop "end_turn")))
    (let* ((eddi-agent-log-directory nil)
           (noninteractive nil)
           (session (eddi-agent-run "Nothing")))
      (should (member eddi-agent--mode-line global-mode-string))
      (should (string-match-p "\\` eddi-agent\\[planning 0 calls" (eddi-agent--mode-line)))
      (with-timeout (5 (error "The session did not end"))
        (while (eq (eddi-agent-session-status session) 'running)
          (accept-process-output nil 0.05)))
      (should-not (member eddi-agent--mode-line global-mode-string))
      (should (eq (eddi-agent-session-status session) 'ended))
      (should-not (eddi-agent-session-log-file session))
      (should-not (file-exists-p (expand-file-name ".logs" eddi-agent-test-root))))))

;;;; The session and its buffer

(ert-deftest eddi-agent-eval-stops-on-input ()
  "eval_sexp runs inside `while-no-input': pending input stops it, the loop goes on."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "eval_sexp" ((expr . "(setq eddi-agent-test-ran t)"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "session_complete" ((message . "ok")))))))
    (defvar eddi-agent-test-ran)
    (let* ((eddi-agent-test-ran nil)
           ;; The user presses a key just as the call starts.
           (eddi-agent-approve-function (lambda (&rest _) (push ?x unread-command-events) 'allow))
           (session (unwind-protect (eddi-agent-run "Eval")
                      (setq unread-command-events nil)))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should-not eddi-agent-test-ran)
      (should (equal (car results)
                     '((type . "tool_result") (tool_use_id . "toolu_1")
                       (content . "Interrupted: the user typed while it ran; nothing after that point ran")
                       (is_error . t)))))))

(ert-deftest eddi-agent-kill-buffer-ends-the-session ()
  "Killing *eddi-agent* ends curl and the session; a new session can start."
  (eddi-agent-test-with 'anthropic nil
      (list (list :delay 5 :events (eddi-agent-test-anthropic :text "late"))
            (list :events (eddi-agent-test-anthropic :text "Nothing to do." :stop "end_turn")))
    (let* ((noninteractive nil)
           (session (eddi-agent-run "Slow")))
      (with-timeout (3 (error "The request was not sent"))
        (while (null (eddi-agent-test-server-received eddi-agent-test-server))
          (accept-process-output nil 0.05)))
      (let ((curl (eddi-agent-request-process (eddi-agent-session-request session))))
        (should (process-live-p curl))
        (kill-buffer "*eddi-agent*")
        (should (eq (eddi-agent-session-status session) 'quit))
        (should (equal (eddi-agent-session-message session) "The *eddi-agent* buffer was killed"))
        (should-not (process-live-p curl))
        (should-not eddi-agent--current))
      ;; The clock stopped with the session.
      (let ((elapsed (eddi-agent--elapsed session)))
        (sleep-for 0.1)
        (should (= (eddi-agent--elapsed session) elapsed)))
      (let ((next (eddi-agent-run "Next" t)))
        (should (eq (eddi-agent-session-status next) 'ended))))))

(ert-deftest eddi-agent-output-lands-at-the-end ()
  "With point elsewhere in *eddi-agent*, new output is appended at the end; point stays."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic :text "Nothing to do." :stop "end_turn")))
    (let ((session (eddi-agent-run "Nothing")))
      (with-current-buffer "*eddi-agent*"
        (goto-char (point-min))
        (eddi-agent--ui-insert session "appended")
        (should (= (point) (point-min)))
        (should (string-suffix-p "appended" (buffer-string)))
        (goto-char (point-max))
        (eddi-agent--ui-insert session " and followed")
        (should (= (point) (point-max)))))))

(ert-deftest eddi-agent-idle-timeout ()
  "A stream that stalls fails after the idle timeout, not the wall clock."
  (eddi-agent-test-with 'anthropic nil
      (list (list :stall t :events (eddi-agent-test-anthropic :text "stuck" :cut-after 3)))
    (let* ((eddi-agent-idle-timeout 0.5)
           (start (float-time))
           (session (eddi-agent-run "Stall")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (string-prefix-p "No data from the model API for 0.5 s (eddi-agent-idle-timeout)"
                               (eddi-agent-session-message session)))
      (should (< (- (float-time) start) 3)))))

(ert-deftest eddi-agent-retries-429-and-503 ()
  "HTTP 429 and 503 are retried, honouring retry-after; the header line shows it."
  (eddi-agent-test-with 'openai nil
      (list (list :status 429 :headers '(("Retry-After" . "1")) :body "{\"error\":\"slow down\"}")
            (list :status 503 :headers '(("retry-after" . "0")) :body "{\"error\":\"busy\"}")
            (list :events (eddi-agent-test-openai :text "Nothing to do." :stop "end_turn")))
    (let* ((eddi-agent-retry-base-delay 0.1)
           (header nil)
           (session (progn
                      (run-at-time 0.5 nil (lambda ()
                                             (setq header (with-current-buffer "*eddi-agent*"
                                                            (eddi-agent--header-line)))))
                      (eddi-agent-run "Busy")))
           (received (eddi-agent-test-server-received eddi-agent-test-server)))
      (should (eq (eddi-agent-session-status session) 'ended))
      (should (= (length received) 3))
      ;; retry-after: 1 was honoured.
      (should (>= (- (plist-get (nth 1 received) :time) (plist-get (nth 0 received) :time)) 0.9))
      (should (string-match-p "running (HTTP 429: retry 1/4 in 1 s)" header))
      (should (string-match-p "HTTP 503: retry 2/4 in 0 s"
                              (with-current-buffer "*eddi-agent*" (buffer-string))))
      (should-not (eddi-agent-session-retry session)))))

(ert-deftest eddi-agent-retries-give-up ()
  "After the last retry the error stops the session."
  (eddi-agent-test-with 'anthropic nil
      (list (list :status 500 :body "a") (list :status 500 :body "b") (list :status 500 :body "c"))
    (let* ((eddi-agent-max-retries 2)
           (eddi-agent-retry-base-delay 0.05)
           (session (eddi-agent-run "Broken")))
      (should (eq (eddi-agent-session-status session) 'error))
      (should (equal (eddi-agent-session-message session) "HTTP 500: c")))))

;;;; Review before write

(defconst eddi-agent-test-long
  (mapconcat (lambda (i) (format "line %d\n" i)) (number-sequence 1 20) "")
  "Twenty lines: edits at both ends make two hunks.")

(defun eddi-agent-test-review-script ()
  "A session that edits two files, saves them, closes one and completes."
  (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
        (list :events (eddi-agent-test-anthropic
                       :calls '(("toolu_1" "eddi" ((text . "Open a.txt\nReplace \"line 2\" \"LINE TWO\"\nReplace \"line 19\" \"LINE NINETEEN\"\nSave\nOpen b.txt\nReplace \"beta\" \"gamma\"\nSave\nClose"))))))
        (list :events (eddi-agent-test-anthropic
                       :calls '(("toolu_2" "session_complete" ((message . "ok"))))))))

(ert-deftest eddi-agent-review-gates-the-write ()
  "A multi-file edit is not on disk before acceptance, and is after."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (string-suffix-p "\n[Saves are held for the user's review: files reach the disk when the user accepts them]"
                               (alist-get 'content (nth 0 results))))
      ;; Nothing on disk yet; the buffers hold the edits, modified.
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\nbeta\n"))
      (should (equal (eddi-agent-test-buffer-text "b.txt") "alpha\ngamma\n"))
      (should (buffer-modified-p (find-buffer-visiting (expand-file-name "b.txt" eddi-agent-test-root))))
      (with-current-buffer (eddi-agent-test-review session)
        (should (derived-mode-p 'diff-mode))
        ;; The review's keys win over diff-mode's read-only ones.
        (should (eq (key-binding "r") 'eddi-agent-review-reject-hunk))
        (should (eq (key-binding "n") 'diff-hunk-next))
        (should (string-prefix-p "eddi-agent review: a accept a hunk, r reject it" (buffer-string)))
        ;; The headers name the real files, relative to the workspace.
        (should (string-match-p "^--- a.txt\n\\+\\+\\+ a.txt\n" (buffer-string)))
        (should (string-match-p "^--- b.txt\n\\+\\+\\+ b.txt\n" (buffer-string)))
        (should (equal (expand-file-name default-directory) eddi-agent-test-root))
        (should (equal (eddi-agent-review-accept-all) '("a.txt" "b.txt"))))
      (should-not (get-buffer (eddi-agent-test-review session)))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\ngamma\n"))
      (should (equal (eddi-agent-test-file "a.txt")
                     (replace-regexp-in-string
                      "line 19\n" "LINE NINETEEN\n"
                      (replace-regexp-in-string "line 2\n" "LINE TWO\n" eddi-agent-test-long))))
      (should-not (buffer-modified-p (find-buffer-visiting (expand-file-name "b.txt" eddi-agent-test-root)))))))

(ert-deftest eddi-agent-review-holds-files-no-buffer-visits ()
  "A patch of files no buffer visits, and of a new file, waits for review too.
Before, the change wrote them to the disk behind the review."
  (eddi-agent-test-with 'anthropic '(("c.txt" . "old c\n") ("d.txt" . "old d\n"))
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "apply_patch"
                                     ((patch . "*** Begin Patch\n*** Update File: c.txt\n-old c\n+new c\n*** Update File: d.txt\n-old d\n+new d\n*** Add File: sub/e.txt\n+new e\n*** End Patch\n"))))))
            (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_2" "session_complete" ((message . "ok")))))))
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Patch"))
           (results (eddi-agent-test-anthropic-results (nth 2 (eddi-agent-test-requests)))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should (string-suffix-p "\n[Saves are held for the user's review: files reach the disk when the user accepts them]"
                               (alist-get 'content (nth 0 results))))
      ;; Nothing on disk yet: the buffers hold the change.
      (should (equal (eddi-agent-test-file "c.txt") "old c\n"))
      (should (equal (eddi-agent-test-file "d.txt") "old d\n"))
      (should-not (file-exists-p (expand-file-name "sub/e.txt" eddi-agent-test-root)))
      (should (equal (eddi-agent-test-buffer-text "c.txt") "new c\n"))
      (should (equal (eddi-agent-test-buffer-text "sub/e.txt") "new e\n"))
      (with-current-buffer (eddi-agent-test-review session)
        (should (string-match-p "^--- sub/e.txt\n\\+\\+\\+ sub/e.txt\n@@ -0,0 \\+1 @@\n\\+new e\n" (buffer-string)))
        (should (equal (eddi-agent-review-accept-all) '("c.txt" "d.txt" "sub/e.txt"))))
      (should (equal (eddi-agent-test-file "c.txt") "new c\n"))
      (should (equal (eddi-agent-test-file "d.txt") "new d\n"))
      (should (equal (eddi-agent-test-file "sub/e.txt") "new e\n")))))

(ert-deftest eddi-agent-review-per-hunk-reject ()
  "Rejecting a hunk leaves exactly the accepted bytes; a rejected file stays unmodified."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files")))
      (should (eq (eddi-agent-session-status session) 'complete))
      (with-current-buffer (eddi-agent-test-review session)
        (goto-char (point-min))
        (re-search-forward "^@@ ")
        (eddi-agent-review-reject-hunk) ; a.txt's first hunk (line 2)
        (should (looking-at "@@ -16"))  ; point moved to the next hunk
        (re-search-forward "^--- b.txt")
        (eddi-agent-review-reject-file)
        (should (equal (eddi-agent-review-commit) '("a.txt"))))
      (should (equal (eddi-agent-test-file "a.txt")
                     (replace-regexp-in-string "line 19\n" "LINE NINETEEN\n" eddi-agent-test-long)))
      (should (equal (eddi-agent-test-buffer-text "a.txt") (eddi-agent-test-file "a.txt")))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\nbeta\n"))
      (should (equal (eddi-agent-test-buffer-text "b.txt") "alpha\nbeta\n"))
      (should-not (buffer-modified-p (find-buffer-visiting (expand-file-name "b.txt" eddi-agent-test-root))))
      (should-not (buffer-modified-p (find-buffer-visiting (expand-file-name "a.txt" eddi-agent-test-root)))))))

(ert-deftest eddi-agent-undo-after-a-partial-review ()
  "After a review that rejected a hunk, undoing the agent takes back the rest.
The hunk the review put back is the agent's change, not the user's, so
no overlap is reported."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files")))
      (with-current-buffer (eddi-agent-test-review session)
        (goto-char (point-min))
        (re-search-forward "^@@ ")
        (eddi-agent-review-reject-hunk) ; a.txt's line 2
        (should (equal (eddi-agent-review-commit) '("a.txt" "b.txt"))))
      (should (equal (eddi-agent-test-buffer-text "a.txt")
                     (replace-regexp-in-string "line 19\n" "LINE NINETEEN\n" eddi-agent-test-long)))
      (should (> (eddi-agent-undo session) 0))
      (should (equal (eddi-agent-test-buffer-text "a.txt") eddi-agent-test-long))
      (should (equal (eddi-agent-test-buffer-text "b.txt") "alpha\nbeta\n")))))

(defun eddi-agent-test-type (rel text)
  "Type TEXT at the end of REL's buffer, as the user would."
  (with-current-buffer (find-buffer-visiting (expand-file-name rel eddi-agent-test-root))
    (goto-char (point-max))
    (insert text)))

(ert-deftest eddi-agent-review-shows-only-the-agent ()
  "The user's typing is neither the agent's hunk nor lost by a reject, nor saved."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files")))
      (kill-buffer (eddi-agent-test-review session))
      (eddi-agent-test-type "a.txt" "mine\n")
      (with-current-buffer (eddi-agent-review-changes session)
        (should-not (string-match-p "^[-+]mine" (buffer-string))) ; at most context
        (should (= (length (eddi-agent-review-file-hunks (car eddi-agent-review--files))) 2))
        (eddi-agent-review-reject-all))
      ;; The agent's edits went, the typing stayed, nothing was written.
      (should (equal (eddi-agent-test-buffer-text "a.txt") (concat eddi-agent-test-long "mine\n")))
      (should (equal (eddi-agent-test-buffer-text "b.txt") "alpha\nbeta\n"))
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long)))))

(ert-deftest eddi-agent-review-after-undo-is-empty ()
  "After undoing the agent, the review has nothing left, and the typing stays."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files")))
      (kill-buffer (eddi-agent-test-review session))
      (eddi-agent-test-type "a.txt" "mine\n")
      (should (> (eddi-agent-undo session) 0))
      (should (equal (eddi-agent-test-buffer-text "a.txt") (concat eddi-agent-test-long "mine\n")))
      (should-error (eddi-agent-review-changes session) :type 'user-error)
      (should (equal (eddi-agent-test-buffer-text "a.txt") (concat eddi-agent-test-long "mine\n"))))))

(ert-deftest eddi-agent-review-keeps-unsaved-typing-unsaved ()
  "Accepting the agent's edits in a buffer holding the user's typing saves nothing of it."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files")))
      (kill-buffer (eddi-agent-test-review session))
      (eddi-agent-test-type "a.txt" "mine\n")
      (with-current-buffer (eddi-agent-review-changes session)
        (should (equal (eddi-agent-review-accept-all) '("b.txt"))))
      ;; The buffer kept unsaved is the user's now: the session ended.
      (should-not (eddi-agent-test-has-session (eddi-agent-session-id session)))
      (should (equal (eddi-agent-test-file "a.txt") eddi-agent-test-long))
      (should (string-suffix-p "LINE NINETEEN\nline 20\nmine\n" (eddi-agent-test-buffer-text "a.txt")))
      (should (buffer-modified-p (find-buffer-visiting (expand-file-name "a.txt" eddi-agent-test-root))))
      (should (equal (eddi-agent-test-file "b.txt") "alpha\ngamma\n")))))

(defun eddi-agent-test-has-session (id)
  "Non-nil when the engine still has the eddi session ID."
  (and eddi--engine (eddi-module-session eddi--engine id) t))

(ert-deftest eddi-agent-session-ends-with-the-agent ()
  "The agent's eddi session ends with it, or when its review is committed."
  (eddi-agent-test-with 'anthropic '(("notes.txt" . "alpha\n"))
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "session_complete" ((message . "fine")))))))
    (let ((session (eddi-agent-run "Nothing")))
      (should (eq (eddi-agent-session-status session) 'complete))
      (should-not (eddi-agent-test-has-session (eddi-agent-session-id session)))))
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (session (eddi-agent-run "Edit two files"))
           (id (eddi-agent-session-id session)))
      (should (eddi-agent-test-has-session id))
      (with-current-buffer "*eddi-agent*"
        (should (string-match-p (format "^Review: 2 changed files wait in \\*eddi-review %s\\*" (eddi-agent-session-id session)) (buffer-string))))
      (with-current-buffer (eddi-agent-test-review session) (eddi-agent-review-accept-all))
      (should-not (eddi-agent-test-has-session id))
      ;; Its buffers stay, and undo still takes the session back.
      (should (> (eddi-agent-undo session) 0))
      (should (equal (eddi-agent-test-buffer-text "b.txt") "alpha\nbeta\n")))))

(ert-deftest eddi-agent-ids-are-not-reused ()
  "A new agent does not take over a session of that name (one a restart
brought back), and a start that failed uses up no id."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic
                           :calls '(("toolu_1" "session_complete" ((message . "fine")))))))
    (let* ((before eddi-agent--counter)
           (next (format "agent-%d" (1+ eddi-agent--counter)))
           (after (format "agent-%d" (+ 2 eddi-agent--counter))))
      ;; No key: the start fails before it takes an id.
      (let ((eddi-agent-api-key nil) (process-environment (cons "ANTHROPIC_API_KEY" process-environment)))
        (should-error (eddi-agent-run "No key") :type 'user-error))
      (should (= eddi-agent--counter before))
      (should (equal (eddi-exec (concat "Start " next) next) "Ok"))
      (let ((session (eddi-agent-run "Fine")))
        (should (equal (eddi-agent-session-id session) after))
        (should (eq (eddi-agent-session-status session) 'complete))
        ;; The other session is untouched.
        (should (eddi-agent-test-has-session next))))))

(ert-deftest eddi-agent-held-buffers-say-so-and-leave-no-files ()
  "While a review waits, held buffers show it and make no lock or auto-save file."
  (eddi-agent-test-with 'anthropic `(("a.txt" . ,eddi-agent-test-long) ("b.txt" . "alpha\nbeta\n"))
      (eddi-agent-test-review-script)
    (let* ((eddi-agent-review t)
           (create-lockfiles t)
           (auto-save-default t)
           (session (eddi-agent-run "Edit two files"))
           (buffer (find-buffer-visiting (expand-file-name "a.txt" eddi-agent-test-root))))
      (should (eq (eddi-agent-session-status session) 'complete))
      (with-current-buffer buffer
        (should eddi-agent-held-mode)
        (should (equal (cadr (assq (quote eddi-agent-held-mode) minor-mode-alist)) " eddi-held"))
        (do-auto-save t))
      (should (equal (sort (directory-files eddi-agent-test-root nil "^[^.]") #'string<)
                     '("a.txt" "b.txt")))
      (should-not (directory-files eddi-agent-test-root nil "^\\.#"))
      (with-current-buffer (eddi-agent-test-review session) (eddi-agent-review-accept-all))
      (with-current-buffer buffer (should-not eddi-agent-held-mode)))))

;;;; C-g

(ert-deftest eddi-agent-quit-while-waiting ()
  "A quit while the model thinks stops the session at once."
  (eddi-agent-test-with 'anthropic nil
      (list (list :delay 5 :events (eddi-agent-test-anthropic :text "late")))
    (let* ((start (float-time))
           (timer (run-at-time 0.3 nil (lambda () (setq quit-flag t))))
           (session (unwind-protect (eddi-agent-run "Slow") (cancel-timer timer))))
      (should (eq (eddi-agent-session-status session) 'quit))
      (should (equal (eddi-agent-session-message session) "Interrupted by the user (C-g)"))
      (should (< (- (float-time) start) 3))
      (should-not eddi-agent--current)
      (should-not (memq #'eddi-agent--pre-command pre-command-hook)))))

(ert-deftest eddi-agent-quit-in-tool ()
  "A quit during a tool gives it a well-formed result and stops the loop.
The Lisp tool loops forever and the shell command sleeps 30 s: only the
quit can end them; the shell process is killed."
  (pcase-dolist (`(,tool ,arguments ,interrupted)
                 '(("eval_sexp" ((expr . "(while t (accept-process-output nil 0.05))"))
                    "Interrupted by the user (C-g)")
                   ("shell_exec" ((command . "sleep 30")) "[Interrupted by the user (C-g)]")))
    (eddi-agent-test-with 'anthropic nil
        (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_0" "todo_add" ((text . "t"))))))
              (list :events (eddi-agent-test-anthropic
                             :calls `(("toolu_1" ,tool ,arguments)
                                      ("toolu_2" "todo_status" nil)))))
      (let* ((start (float-time))
             (timer (run-at-time 0.5 nil (lambda () (setq quit-flag t))))
             (session (unwind-protect (eddi-agent-run "Slow tool") (cancel-timer timer)))
             (log (eddi-agent-test-log session))
             (results (eddi-agent-test-anthropic-results `((messages . ,(alist-get 'messages log))))))
        (should (eq (eddi-agent-session-status session) 'quit))
        (should (< (- (float-time) start) 3))
        (should (equal results
                       `(((type . "tool_result") (tool_use_id . "toolu_1")
                          (content . ,interrupted) (is_error . t))
                         ((type . "tool_result") (tool_use_id . "toolu_2")
                          (content . "Not run: Interrupted by the user (C-g)") (is_error . t)))))
        (eddi-agent-test-well-formed log)
        (should (= (length (eddi-agent-test-requests)) 2))
        (should-not (cl-some (lambda (p) (string-prefix-p "eddi-agent-shell" (process-name p)))
                             (process-list)))))))
;;;; Interactive use

(ert-deftest eddi-agent-background ()
  "Outside batch the loop runs in the background.
\[keyboard-quit] stops it in *eddi-agent* only, not in another buffer."
  (eddi-agent-test-with 'anthropic nil
      (list (list :events (eddi-agent-test-anthropic :calls '(("toolu_1" "todo_add" ((text . "t"))))))
            (list :delay 5 :events (eddi-agent-test-anthropic :text "late")))
    (let* ((noninteractive nil)
           (session (eddi-agent-run "Background")))
      ;; The call returned at once; the first turn arrives while Emacs waits.
      (should (eq (eddi-agent-session-status session) 'running))
      (should (memq #'eddi-agent--pre-command pre-command-hook))
      (with-timeout (3 (error "The first turn did not arrive"))
        (while (null (eddi-agent-session-todos session))
          (accept-process-output nil 0.05)))
      ;; A quit in another buffer is the user's: the agent goes on.
      (with-temp-buffer
        (let ((this-command 'keyboard-quit))
          (run-hooks 'pre-command-hook)))
      (should (eq (eddi-agent-session-status session) 'running))
      ;; In the agent's own buffer it stops the session.
      (with-current-buffer "*eddi-agent*"
        (let ((this-command 'keyboard-quit))
          (run-hooks 'pre-command-hook)))
      (should (eq (eddi-agent-session-status session) 'quit))
      (should-not (memq #'eddi-agent--pre-command pre-command-hook))
      (should (string-match-p "calls 1/30  todos 0/1"
                              (with-current-buffer "*eddi-agent*" (eddi-agent--header-line))))
      (eddi-agent-test-well-formed (eddi-agent-test-log session)))))

;;;; The event-stream parser

(ert-deftest eddi-agent-sse-any-split ()
  "Events come out the same wherever the bytes are cut."
  (let* ((stream (concat ": keep-alive\n\nevent: a\ndata: {\"x\": 1}\n\n"
                         "data: line one\r\ndata: line two\r\n\r\n"
                         "event: b\ndata:no space\n\ndata: [DONE]\n\n"))
         (expected '(("a" "{\"x\": 1}") (nil "line one\nline two") ("b" "no space") (nil "[DONE]"))))
    (dotimes (cut (1+ (length stream)))
      (let ((sse (eddi-agent-sse-create)) (events nil))
        (dolist (chunk (list (substring stream 0 cut) (substring stream cut)))
          (eddi-agent-sse-feed sse chunk (lambda (type data) (push (list type data) events))))
        (should (equal (nreverse events) expected))))))

;;;; Running the suite

(defun eddi-agent-test-batch ()
  "Run every agent test, print \"ert: N passed, N failed\"; exit 1 on failure."
  (eddi-load-module)
  (let* ((stats (ert-run-tests-batch "^eddi-agent-"))
         (failed (ert-stats-completed-unexpected stats))
         (passed (ert-stats-completed-expected stats)))
    (princ (format "ert: %d passed, %d failed\n" passed failed))
    (kill-emacs (if (> failed 0) 1 0))))

(provide 'eddi-agent-test)

;;; eddi-agent-test.el ends here
