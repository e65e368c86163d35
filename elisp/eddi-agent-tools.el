;;; eddi-agent-tools.el --- an eddi agent's session and the tools it offers its model  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; The agent session record, and the tool table of `eddi-agent': the
;; engine's own tools (their descriptions and schemas come from the module's
;; table), the shell and Lisp tools, the context providers and the todo list.
;; eddi-agent.el loads this file; it keeps the options, the loop, the log and
;; the UI.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(declare-function eddi-exec "eddi" (commands &optional sender))
(declare-function eddi-module-tools "ext:eddi-module")
(declare-function eddi-agent-backend-json-parse "eddi-agent-backend" (text))
(declare-function eddi-agent--ui-todos "eddi-agent" (session))

(defvar eddi-agent-shell-timeout)
(defvar eddi-agent-workflow-states)

;;;; Sessions

(cl-defstruct (eddi-agent-session (:constructor eddi-agent-session--create) (:copier nil))
  "One agent session: a task, its conversation, its guards' counters."
  (id nil :documentation "A name, also the eddi sender and session name.")
  (task nil :documentation "What the user asked for.")
  (backend nil :documentation "The wire format, `anthropic' or `openai'.")
  (url nil :documentation "The model API endpoint.")
  (model nil :documentation "The model name.")
  (key nil :documentation "The API key, or nil.")
  (system nil :documentation "The system prompt.")
  (tools nil :documentation "The tools this engine supports (see `eddi-agent--supported-tools').")
  (directory nil :documentation "The workspace root.")
  (origin nil :documentation "The buffer that was current when the session started.")
  (state 'planning :documentation "The workflow state, `planning' or `executing'.")
  (status 'running :documentation "`running', or how it ended (see `eddi-agent-run').")
  (message nil :documentation "The model's final message, or why the session stopped.")
  (history nil :documentation "The neutral conversation, newest first.")
  (todos nil :documentation "Todos (ID TEXT STATUS), newest first.")
  (calls 0 :documentation "Tool calls so far.")
  (last-key nil :documentation "The last call's tool and arguments.")
  (identical 0 :documentation "Identical calls in a row.")
  (same-tool 0 :documentation "Calls of the last tool in a row.")
  (errors nil :documentation "A table: error text to count.")
  (input-tokens 0 :documentation "Tokens of all requests.")
  (output-tokens 0 :documentation "Tokens the model wrote.")
  (start nil :documentation "When the session started.")
  (expired nil :documentation "Non-nil once the wall clock ran out.")
  (busy nil :documentation "The tool calls running (an `eddi-agent--batch'), or nil.")
  (approved nil :documentation "Kinds of calls allowed for the rest of the session.")
  (changed nil :documentation "Buffers the session's edits changed, for the review.")
  (end nil :documentation "When the session ended, or nil while it runs.")
  (retry nil :documentation "What the request in flight waits for (a retry), or nil.")
  (process nil :documentation "The shell process of the running call, or nil.")
  (request nil :documentation "The model request in flight.")
  (timers nil :documentation "The session's timers.")
  (buffer nil :documentation "The *eddi-agent* buffer.")
  (log-file nil :documentation "Where the log was saved."))

(defvar eddi-agent--current nil
  "The running session, or nil.")

(defvar eddi-agent-last-session nil
  "The most recent session, running or ended.")

(defvar eddi-agent--counter 0
  "Sessions started in this Emacs, to name them.")

(defun eddi-agent--elapsed (session)
  "Seconds SESSION ran: until now, or until it ended."
  (float-time (time-subtract (eddi-agent-session-end session) (eddi-agent-session-start session))))

;;;; Tools

(defconst eddi-agent--tools
  '(("eddi" :run eddi-agent--tool-eddi :states (executing) :engine t)
    ("read" :run eddi-agent--tool-read :states (planning executing) :engine t)
    ("grep" :run eddi-agent--tool-grep :states (planning executing) :engine t)
    ("edit" :run eddi-agent--tool-edit :states (executing) :engine t)
    ("apply_patch" :run eddi-agent--tool-apply-patch :states (executing) :engine t)
    ("eval_sexp" :run eddi-agent--tool-eval-sexp :states (executing)
     :description "Evaluate Emacs Lisp; returns the printed value. Prompts are refused; the user may be asked to approve it."
     :params (("expr" "string" "Lisp forms")))
    ("shell_exec" :run eddi-agent--tool-shell-exec :states (executing) :async t
     :description "Run a shell command in the workspace; returns its output. The user may be asked to approve it. It runs in a private view of the workspace that already holds your edits waiting for the user's review (tests see them), while the files on disk stay as they are until the user accepts; what the command writes there is discarded when it ends, and it has no network."
     :params (("command" "string" "Shell command")))
    ("buffer_contents" :run eddi-agent--tool-buffer-contents :states (planning executing)
     :description "Text of a buffer."
     :params (("buffer" "string" "Buffer name")))
    ("directory_files" :run eddi-agent--tool-directory-files :states (planning executing)
     :description "Files in a directory (directories end in /)."
     :params (("path" "string" "Directory, relative to the workspace")))
    ("current_context" :run eddi-agent--tool-current-context :states (planning executing)
     :description "Point, mark, mode, file and visible buffers."
     :params ())
    ("warnings_buffer" :run eddi-agent--tool-warnings-buffer :states (planning executing)
     :description "Text of *Warnings*."
     :params ())
    ("todo_add" :run eddi-agent--tool-todo-add :states (planning executing)
     :description "Add a todo; returns its id."
     :params (("text" "string" "The todo")))
    ("todo_update" :run eddi-agent--tool-todo-update :states (executing)
     :description "Set a todo's status."
     :params (("id" "integer" "Todo id")
              ("status" "string" "New status" :enum ["pending" "in_progress" "done"])))
    ("todo_status" :run eddi-agent--tool-todo-status :states (planning executing)
     :description "The todo list."
     :params ())
    ("session_complete" :run eddi-agent--tool-session-complete :states (planning executing)
     :description "End the session."
     :params (("message" "string" "For the user"))))
  "The tools, in the order they are offered.
Each is (NAME :run FUNCTION :states STATES [:engine t] [:description
TEXT :params PARAMS]).  A tool with :engine is one of the engine's
\(`eddi-module-tools'): its description, schema and EddiSpeak command
are the engine's, the same that eddi-server offers MCP clients, and it
is offered only when the engine has that command.  The agent's own
tools carry their :description and :params, each (NAME TYPE
DESCRIPTION [:optional t] [:enum VECTOR]).  Each FUNCTION takes the
session and the arguments (an alist) and returns a result: a string,
or (:content STRING :error t).")

(defun eddi-agent--schema (params)
  "The JSON schema (an alist) of a tool taking PARAMS."
  `((type . "object")
    (properties
     . ,(if params
            (mapcar (lambda (param)
                      (pcase-let ((`(,name ,type ,description . ,props) param))
                        `(,(intern name) (type . ,type) (description . ,description)
                          ,@(and (plist-get props :enum) `((enum . ,(plist-get props :enum)))))))
                    params)
          #s(hash-table)))
    ,@(let ((required (cl-loop for param in params
                               unless (plist-get (nthcdr 3 param) :optional)
                               collect (car param))))
        (and required `((required . ,(vconcat required)))))))

(defun eddi-agent--engine-has (command)
  "Non-nil when the eddi engine knows COMMAND (Help answers Ok)."
  (condition-case nil
      (string-prefix-p "Ok" (eddi-exec (concat "Help " command)))
    (error nil)))

(defun eddi-agent--engine-tool (name)
  "The engine's tool NAME as (:description TEXT :schema ALIST :command C).
nil when the engine's table has no such tool."
  (cl-loop for tool in (eddi-module-tools)
           when (equal (plist-get tool :name) name)
           return (list :description (plist-get tool :description)
                        :schema (eddi-agent-backend-json-parse (plist-get tool :schema))
                        :command (plist-get tool :command))))

(defun eddi-agent--supported-tools ()
  "The tools this engine supports, with their descriptions and schemas.
They are the entries of `eddi-agent--tools' with :description and
:schema filled in: an engine tool's from the engine's table, dropped
when the engine lacks its command."
  (cl-loop for (name . props) in eddi-agent--tools
           for engine = (and (plist-get props :engine) (eddi-agent--engine-tool name))
           for command = (plist-get engine :command)
           if (not (plist-get props :engine))
           collect `(,name :schema ,(eddi-agent--schema (plist-get props :params)) ,@props)
           else if (and engine (or (null command) (eddi-agent--engine-has command)))
           collect `(,name ,@engine ,@props)))

(defun eddi-agent--offered (session)
  "The tools offered to SESSION's model in its current state."
  (cl-remove-if-not (lambda (tool)
                      (or (not eddi-agent-workflow-states)
                          (memq (eddi-agent-session-state session)
                                (plist-get (cdr tool) :states))))
                    (eddi-agent-session-tools session)))

(defun eddi-agent--tool-specs (session)
  "SESSION's offered tools as (NAME DESCRIPTION SCHEMA) for the backend."
  (mapcar (lambda (tool)
            (list (car tool) (plist-get (cdr tool) :description) (plist-get (cdr tool) :schema)))
          (eddi-agent--offered session)))

(defun eddi-agent--arg (args name)
  "The argument NAME (a string) of ARGS."
  (let ((value (alist-get (intern name) args)))
    (unless (memq value '(nil :null)) value)))

(defun eddi-agent--quote (text)
  "TEXT as an EddiSpeak string."
  (concat "\"" (replace-regexp-in-string "[\"\\\\]" "\\\\\\&" text) "\""))

(defvar eddi-agent-review)
(defvar eddi-preview-multi-file)
(defvar eddi-after-edit-functions)
(defvar eddi-save-function)
(defvar eddi--held-for-review)
(declare-function eddi-agent-held-mode "eddi-agent-review" (&optional arg))

(defun eddi-agent--eddi (session text)
  "Run the EddiSpeak message TEXT as SESSION's sender; return the reply.
Changes are shown in the live buffers when eddi.el can show them.
With `eddi-agent-review' on, saves are held for the review at the end
of the session, and the reply says so."
  (let* ((held nil)
         (note (lambda (buffer)
                 (cl-pushnew buffer (eddi-agent-session-changed session))
                 ;; Close must not kill a buffer whose changes wait for review.
                 (when eddi-agent-review
                   (with-current-buffer buffer
                     (setq eddi--held-for-review t)
                     (eddi-agent-held-mode 1)))))
         (eddi-after-edit-functions
          (cons (lambda (buffer &rest _) (funcall note buffer)) eddi-after-edit-functions))
         (eddi-save-function
          (and eddi-agent-review
               (lambda (buffer) (funcall note buffer) (setq held t))))
         (eddi-preview-multi-file (and (not eddi-agent-review) eddi-preview-multi-file))
         ;; Held edits make no lock file beside the user's file.
         (create-lockfiles (and (not eddi-agent-review) create-lockfiles))
         (reply (funcall (if (fboundp 'eddi-run) #'eddi-run #'eddi-exec)
                         text (eddi-agent-session-id session))))
    (if held
        (concat reply "\n[Saves are held for the user's review: files reach the disk when the user accepts them]")
      reply)))

(defun eddi-agent--tool-eddi (session args)
  "The `eddi' tool: run ARGS' text in SESSION."
  (eddi-agent--eddi session (eddi-agent--arg args "text")))

(defun eddi-agent--tool-read (session args)
  "The `read' tool: Read ARGS' path in SESSION."
  (let ((offset (eddi-agent--arg args "offset"))
        (limit (eddi-agent--arg args "limit")))
    (eddi-agent--eddi
     session (concat "Read " (eddi-agent--quote (eddi-agent--arg args "path"))
                     (when (or offset limit) (format " %d" (or offset 1)))
                     (when limit (format " %d" limit))))))

(defun eddi-agent--tool-grep (session args)
  "The `grep' tool: Grep ARGS' pattern in SESSION."
  (let ((glob (eddi-agent--arg args "glob"))
        (offset (eddi-agent--arg args "offset")))
    (eddi-agent--eddi
     session (concat "Grep /"
                     (replace-regexp-in-string "/" "\\\\/" (eddi-agent--arg args "pattern"))
                     "/"
                     (when (eq (eddi-agent--arg args "ignore_case") t) "i")
                     (when (or glob offset) (concat " " (eddi-agent--quote (or glob "*"))))
                     (when offset (format " %d" offset))))))

(defun eddi-agent--tool-edit (session args)
  "The `edit' tool: a hashline Edit of ARGS' patch in SESSION."
  (eddi-agent--eddi session (concat "Edit\n" (eddi-agent--arg args "patch"))))

(defun eddi-agent--tool-apply-patch (session args)
  "The `apply_patch' tool: Patch with ARGS' patch in SESSION."
  (eddi-agent--eddi session (concat "Patch\n" (eddi-agent--arg args "patch"))))

(defun eddi-agent--context-buffer (session)
  "The buffer SESSION's context tools look at."
  (let ((origin (eddi-agent-session-origin session)))
    (if (buffer-live-p origin) origin (window-buffer (selected-window)))))

(defun eddi-agent--tool-eval-sexp (session args)
  "The `eval_sexp' tool: evaluate ARGS' forms in SESSION's context buffer.
Reading from the user signals instead of waiting, and input from the
user stops the evaluation (`while-no-input'), so a long form cannot
freeze Emacs; \[keyboard-quit] stops it too."
  (let* ((text (eddi-agent--arg args "expr"))
         (forms (let ((start 0) forms)
                  (while (string-match-p "[^ \t\n\r]" text start)
                    (pcase-let ((`(,form . ,end) (read-from-string text start)))
                      (push form forms)
                      (setq start end)))
                  (nreverse forms)))
         value)
    (with-current-buffer (eddi-agent--context-buffer session)
      (let ((inhibit-interaction t))
        (cl-letf (((symbol-function 'read-key) #'eddi-agent--refuse-input)
                  ((symbol-function 'read-multiple-choice) #'eddi-agent--refuse-input))
          ;; The user's keys come first: input stops the evaluation.
          (setq value (while-no-input
                        (let (last)
                          (dolist (form forms) (setq last (eval form t)))
                          (list last)))))))
    (if (consp value)
        (prin1-to-string (car value))
      (list :content "Interrupted: the user typed while it ran; nothing after that point ran"
            :error t))))

(defun eddi-agent--refuse-input (&rest _)
  "Signal that a tool may not wait for the user."
  (signal 'inhibited-interaction nil))

(declare-function eddi-agent--ui-insert "eddi-agent" (session text &optional face))
(declare-function eddi-agent--ui-stop-button "eddi-agent" (session process))
(declare-function eddi-agent--ui-remove-stop-buttons "eddi-agent" (session &optional owner))

(defun eddi-agent--shell-result (process output)
  "The result of the ended shell PROCESS whose output is OUTPUT."
  (cond
   ((process-get process 'eddi-agent-stopped)
    (list :content (concat output "[Interrupted by the user (C-g)]") :error t :quit t))
   ((process-get process 'eddi-agent-timeout)
    (list :content (format "%s[killed after %s s]" output eddi-agent-shell-timeout) :error t))
   ((eq (process-status process) 'signal)
    (list :content (format "%s[killed by signal %d]" output (process-exit-status process)) :error t))
   ((/= (process-exit-status process) 0)
    (list :content (format "%s[exit %d]" output (process-exit-status process)) :error t))
   (t output)))

;;;;; The shell's view of the workspace

(defvar eddi-agent-shell-view)

(defvar eddi-agent--overlay-works 'unknown
  "Whether this kernel lets `unshare' mount an overlay: t, nil or `unknown'.")

(defconst eddi-agent--view-script
  (concat "mount -t overlay overlay -o \"lowerdir=$1,upperdir=$2,workdir=$3\" \"$1\" || exit 125; "
          ;; Best effort: a private temporary folder, the root read-only.
          "mount -t tmpfs tmpfs \"$5\" 2>/dev/null && export TMPDIR=\"$5\"; "
          "mount -o remount,bind,ro / 2>/dev/null; "
          "cd \"$4\" && shift 5 && exec \"$@\"")
  "The shell script that mounts the view, then runs the command.
Arguments: the workspace, the upper and work folders, the folder to
run in, the temporary folder, then the command.")

(defun eddi-agent--overlay-available ()
  "Non-nil when an unprivileged overlay mount works here (probed once)."
  (when (eq eddi-agent--overlay-works 'unknown)
    (setq eddi-agent--overlay-works
          (and (executable-find "unshare")
               (let* ((dir (make-temp-file "eddi-agent-probe-" t))
                      (dirs (mapcar (lambda (name) (let ((d (expand-file-name name dir)))
                                                     (make-directory d) d))
                                    '("low" "up" "work" "tmp"))))
                 (unwind-protect
                     (eql 0 (apply #'call-process "unshare" nil nil nil "-Urmn" "sh" "-c"
                                   eddi-agent--view-script "eddi-view"
                                   (append (butlast dirs) (list (car dirs)) (last dirs)
                                           (list "true"))))
                   (delete-directory dir t))))))
  eddi-agent--overlay-works)

(defun eddi-agent--pending-files (session root)
  "((RELATIVE-PATH . BUFFER)...) of SESSION's edits under ROOT waiting for review."
  (cl-loop for buffer in (eddi-agent-session-changed session)
           for file = (and (buffer-live-p buffer) (buffer-file-name buffer))
           when (and file (buffer-modified-p buffer)
                     (buffer-local-value 'eddi--held-for-review buffer)
                     (file-in-directory-p file root))
           collect (cons (file-relative-name file root) buffer)))

(defun eddi-agent--write-pending (pending folder)
  "Write each buffer of PENDING at its path under FOLDER, encoded as saved."
  (pcase-dolist (`(,rel . ,buffer) pending)
    (let ((target (expand-file-name rel folder)))
      (make-directory (file-name-directory target) t)
      (with-current-buffer buffer
        (save-restriction
          (widen)
          (let ((coding-system-for-write buffer-file-coding-system))
            (write-region (point-min) (point-max) target nil 'silent)))))))

(defun eddi-agent--shell-view (session command)
  "How to run COMMAND for SESSION: (ARGV DIRECTORY NOTE CLEANUP).
ARGV runs in DIRECTORY; NOTE, when non-nil, ends the result (what the
command saw); CLEANUP is called when it ended.  See
`eddi-agent-shell-view'."
  (let* ((root (directory-file-name (expand-file-name (eddi-agent-session-directory session))))
         (shell (list shell-file-name shell-command-switch command))
         (pending (and eddi-agent-shell-view (eddi-agent--pending-files session root))))
    (cond
     ((null eddi-agent-shell-view)
      (list shell root nil #'ignore))
     ((and (eddi-agent--overlay-available) (not (string-match-p "[,:]" root)))
      (let* ((view (make-temp-file "eddi-agent-view-" t))
             (upper (expand-file-name "upper" view))
             (work (expand-file-name "work" view))
             (tmp (expand-file-name "tmp" view)))
        (mapc #'make-directory (list upper work tmp))
        (eddi-agent--write-pending pending upper)
        (list (append (list "unshare" "-Urmn" "sh" "-c" eddi-agent--view-script "eddi-view"
                            root upper work root tmp)
                      shell)
              root nil
              (lambda () (ignore-errors (delete-directory view t))))))
     (t
      ;; The fallback: a copy of the workspace, with the pending edits.
      (let* ((view (make-temp-file "eddi-agent-view-" t))
             (copy (expand-file-name (file-name-nondirectory root) view)))
        (copy-directory root copy t t)
        (eddi-agent--write-pending pending copy)
        (list shell copy
              (format "[ran in a copy of the workspace at %s: no private namespace here]" copy)
              (lambda () (ignore-errors (delete-directory view t)))))))))

(defun eddi-agent--tool-shell-exec (session args done)
  "The `shell_exec' tool: run ARGS' command in SESSION's workspace.
It runs as a process, so Emacs goes on; its output streams into the
*eddi-agent* buffer, and DONE gets the result when it ends (or is
killed after `eddi-agent-shell-timeout' seconds, or by a stop)."
  (pcase-let* ((`(,argv ,directory ,note ,cleanup)
                (eddi-agent--shell-view session (eddi-agent--arg args "command")))
               (default-directory (file-name-as-directory directory))
               (output (generate-new-buffer " *eddi-agent-shell*"))
               (timer nil)
               (process
          (make-process
           :name "eddi-agent-shell"
           :buffer output
           :command argv
           :connection-type 'pipe
           :noquery t
           :filter (lambda (process chunk)
                     (when (buffer-live-p (process-buffer process))
                       (with-current-buffer (process-buffer process)
                         (goto-char (point-max))
                         (insert chunk)))
                     (eddi-agent--ui-insert session chunk 'eddi-agent-shell-face))
           :sentinel (lambda (process _event)
                       (unless (process-live-p process)
                         (when timer (cancel-timer timer))
                         (eddi-agent--ui-remove-stop-buttons session process)
                         (when (eq (eddi-agent-session-process session) process)
                           (setf (eddi-agent-session-process session) nil))
                         (let ((text (if (buffer-live-p output)
                                         (with-current-buffer output (buffer-string))
                                       "")))
                           (when (buffer-live-p output) (kill-buffer output))
                           (funcall cleanup)
                           (funcall done (eddi-agent--shell-result
                                          process (if note (concat text note "\n") text)))))))))
    (setf (eddi-agent-session-process session) process)
    (eddi-agent--ui-stop-button session process)
    (setq timer (run-at-time eddi-agent-shell-timeout nil
                             (lambda ()
                               (when (process-live-p process)
                                 (process-put process 'eddi-agent-timeout t)
                                 (delete-process process)))))
    process))

;;;;; Context providers

(defun eddi-agent--tool-buffer-contents (_session args)
  "The `buffer_contents' tool: the text of ARGS' buffer."
  (let* ((name (eddi-agent--arg args "buffer"))
         (buffer (get-buffer name)))
    (if buffer
        (with-current-buffer buffer
          (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))
      (list :content (format "No buffer named %s" name) :error t))))

(defun eddi-agent--tool-directory-files (session args)
  "The `directory_files' tool: the files in ARGS' directory of SESSION."
  (let ((directory (expand-file-name (or (eddi-agent--arg args "path") ".")
                                     (eddi-agent-session-directory session))))
    (if (not (file-directory-p directory))
        (list :content (format "Not a directory: %s" directory) :error t)
      (mapconcat (lambda (file)
                   (if (file-directory-p (expand-file-name file directory))
                       (concat file "/")
                     file))
                 (directory-files directory nil directory-files-no-dot-files-regexp)
                 "\n"))))

(defun eddi-agent--context (session)
  "The context of SESSION: point, mark, mode, file and visible buffers."
  (with-current-buffer (eddi-agent--context-buffer session)
    (format "buffer: %s\nfile: %s\nmode: %s\npoint: %d (line %d, column %d)\nmark: %s\nvisible: %s\nworkspace: %s"
            (buffer-name) (or buffer-file-name "none") major-mode
            (point) (line-number-at-pos) (current-column)
            (or (mark t) "none")
            (mapconcat (lambda (window) (buffer-name (window-buffer window)))
                       (window-list-1 nil 'nomini t) ", ")
            (eddi-agent-session-directory session))))

(defun eddi-agent--tool-current-context (session _args)
  "The `current_context' tool: SESSION's context."
  (eddi-agent--context session))

(defun eddi-agent--tool-warnings-buffer (_session _args)
  "The `warnings_buffer' tool: the text of *Warnings*."
  (if-let ((buffer (get-buffer "*Warnings*")))
      (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max)))
    ""))

;;;;; Todos and the end

(defun eddi-agent--tool-todo-add (session args)
  "The `todo_add' tool: add ARGS' todo to SESSION; start executing."
  (let ((id (1+ (length (eddi-agent-session-todos session)))))
    (push (list id (eddi-agent--arg args "text") "pending") (eddi-agent-session-todos session))
    (setf (eddi-agent-session-state session) 'executing)
    (eddi-agent--ui-todos session)
    (format "Todo %d added" id)))

(defun eddi-agent--tool-todo-update (session args)
  "The `todo_update' tool: set the status of ARGS' todo in SESSION."
  (let* ((id (eddi-agent--arg args "id"))
         (status (eddi-agent--arg args "status"))
         (todo (assq id (eddi-agent-session-todos session))))
    (cond ((not todo) (list :content (format "No todo %s" id) :error t))
          ((not (member status '("pending" "in_progress" "done")))
           (list :content (format "Unknown status %s" status) :error t))
          (t (setf (nth 2 todo) status)
             (eddi-agent--ui-todos session)
             (format "Todo %d: %s" id status)))))

(defun eddi-agent--todo-lines (session)
  "SESSION's todos, one line each."
  (mapconcat (pcase-lambda (`(,id ,text ,status)) (format "%d [%s] %s" id status text))
             (reverse (eddi-agent-session-todos session)) "\n"))

(defun eddi-agent--tool-todo-status (session _args)
  "The `todo_status' tool: SESSION's todo list."
  (if (eddi-agent-session-todos session) (eddi-agent--todo-lines session) "No todos"))

(defun eddi-agent--tool-session-complete (session args)
  "The `session_complete' tool: SESSION ends after this turn.
ARGS holds the message for the user."
  (setf (eddi-agent-session-message session) (or (eddi-agent--arg args "message") ""))
  "Session complete")

(provide 'eddi-agent-tools)

;;; eddi-agent-tools.el ends here
