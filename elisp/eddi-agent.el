;;; eddi-agent.el --- A language model drives eddi: the agent loop  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; M-x eddi-agent asks for a task and lets a language model carry it out
;; through eddi, in live buffers: the edits land where you see them, and
;; M-x eddi-agent-undo takes the whole session back.
;;
;; The loop is a pure executor, after efrit: the model decides
;; everything.  Each turn sends the task, the context and the tool
;; schema; the tool calls that come back run in order, and their raw
;; results go back unaltered.  No tool interprets content or suggests a
;; next step, and the loop ends only when the model calls
;; `session_complete' -- or when a guard stops it.
;;
;; Guards, not intelligence:
;; - a circuit breaker with efrit's limits (tool calls per session,
;;   identical calls in a row, calls of one tool in a row, the same error
;;   again and again, a wall clock), all customizable;
;; - tools offered by workflow state: while planning, the model sees the
;;   reading tools and `todo_add'; its first todo opens the executing
;;   state and every tool;
;; - an approval policy (eddi-agent-approve.el): `shell_exec' and
;;   `eval_sexp' run only when you say yes (or allow them), and
;;   `eval_sexp' cannot wait on a prompt;
;; - C-g at any moment stops the loop; a tool it interrupted gets a
;;   well-formed result, so the conversation stays valid.
;;
;; `eddi-agent-run' runs a task without prompting and, in batch Emacs,
;; returns when the loop ends, so agent sessions run in CI.  The wire
;; formats (Anthropic Messages, OpenAI chat completions) live in
;; eddi-agent-backend.el; the conversation here is neutral.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'button)
(require 'eddi)
(require 'eddi-agent-backend)

(declare-function eddi-module-root "eddi-module" (engine))
(declare-function eddi-module-session "eddi-module" (engine sender))
(defvar eddi--engine)
(defvar eddi-kill-buffers-on-close)
(defvar eddi-resume-functions)
(defvar eddi-journal-kept)
(defvar eddi-journal-report)
(defvar eddi--held-for-review)
(defvar eddi--undo-log)
(declare-function eddi--open-files "eddi" (sender))
(declare-function eddi--quote "eddi" (text))
(declare-function eddi-module-tools "eddi-module" ())

;;;; Options

(defcustom eddi-agent-system-prompt
  "You work in Emacs through tools. The eddi tool runs EddiSpeak commands, \
one per line, on live buffers (Help lists them; Help <command> shows one); \
an eddi session is already started for you. Tool results are raw. \
Call session_complete with a message for the user when the task is done."
  "The system prompt: what the tools are, not how to solve a task."
  :type 'string
  :group 'eddi-agent)

(defcustom eddi-agent-workflow-states t
  "Non-nil means tools are offered by workflow state, as in efrit.
While planning, only the reading tools, `todo_add', `todo_status' and
`session_complete' are offered; the first `todo_add' starts executing,
where every tool is offered."
  :type 'boolean
  :group 'eddi-agent)

(defcustom eddi-agent-max-tool-calls 30
  "Most tool calls in one session; the next one stops the session."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-max-identical-calls 3
  "Most identical calls (same tool, same arguments) in a row."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-max-same-tool-calls 15
  "Most calls of one tool in a row."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-error-warning-count 3
  "After this many identical errors, a warning goes to the model."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-error-stop-count 5
  "After this many identical errors, the session stops."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-max-seconds 300
  "Wall-clock limit of a session, in seconds."
  :type 'number
  :group 'eddi-agent-limits)

(defcustom eddi-agent-shell-timeout 60
  "Seconds a `shell_exec' command may run before it is killed."
  :type 'number
  :group 'eddi-agent-limits)

(defcustom eddi-agent-shell-view 'overlay
  "What the agent's `shell_exec' commands see and may change.
`overlay' (the default): a private view of the workspace that holds
the agent's edits still waiting for review, the files on disk
untouched.  It is an overlay mount in a user and mount namespace of
its own (unshare(1), no privileges needed); the command's writes to
the workspace stay in the view and go when it ends, /tmp is a fresh
one, the root file system is read-only and there is no network.
Where the kernel refuses such namespaces, a temporary copy of the
workspace (with the pending edits) plays the view; writes to it are
discarded too, but the network and the rest of the disk are open.
nil: the command runs on the workspace as it is on disk, without the
pending edits, as any shell would."
  :type '(choice (const :tag "Private view with the pending edits" overlay)
                 (const :tag "The disk as it is" nil))
  :group 'eddi-agent)

(defcustom eddi-agent-max-result-chars 60000
  "Longest tool result sent to the model; longer ones are cut, and say so."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-sender-prefix "agent"
  "Prefix of the eddi sender and session name of each agent session."
  :type 'string
  :group 'eddi-agent)

(defcustom eddi-agent-log-directory nil
  "Folder where each session's log is saved as JSON, or nil for none.
The logs hold the conversation, file contents included, so none are
written unless you set this, for instance to
\(locate-user-emacs-file \"eddi-agent/\")."
  :type '(choice (const :tag "Do not save logs" nil) directory)
  :group 'eddi-agent)

(defcustom eddi-agent-collapse-tool-calls t
  "Non-nil means tool calls start collapsed in the *eddi-agent* buffer."
  :type 'boolean
  :group 'eddi-agent)

(defcustom eddi-agent-quit-stops-session 'agent-buffer
  "Where \\[keyboard-quit] stops a running session.
`agent-buffer' (the default): only in the session's *eddi-agent*
buffer; a quit elsewhere is yours (dropping a region, leaving the
minibuffer) and the agent goes on.  t: anywhere.  nil: never; stop
it with \\[eddi-agent-stop], its [stop] button or
\\<eddi-agent-mode-map>\\[eddi-agent-stop] in its buffer."
  :type '(choice (const :tag "In the *eddi-agent* buffer" agent-buffer)
                 (const :tag "Anywhere" t)
                 (const :tag "Never" nil))
  :group 'eddi-agent)

(defface eddi-agent-model-face '((t :inherit default))
  "Text the model wrote."
  :group 'eddi-agent-faces)
(defface eddi-agent-task-face '((t :inherit font-lock-keyword-face))
  "The task."
  :group 'eddi-agent-faces)
(defface eddi-agent-tool-face '((t :inherit font-lock-function-name-face))
  "A tool call's heading."
  :group 'eddi-agent-faces)
(defface eddi-agent-error-face '((t :inherit error))
  "A failed tool call and a stopped session."
  :group 'eddi-agent-faces)
(defface eddi-agent-shell-face '((t :inherit font-lock-string-face))
  "Output of a shell command, as it streams in."
  :group 'eddi-agent-faces)
(defface eddi-agent-done-face '((t :inherit success))
  "A completed session."
  :group 'eddi-agent-faces)

(require 'eddi-agent-tools)
(require 'eddi-agent-approve)
(require 'eddi-agent-review)

;;;; Running a call

(defun eddi-agent--result (value)
  "VALUE, a tool's return value, as (:content STRING :error BOOL)."
  (let* ((result (if (stringp value) (list :content value) value))
         (content (plist-get result :content)))
    (if (<= (length content) eddi-agent-max-result-chars)
        result
      (plist-put (copy-sequence result) :content
                 (format "%s\n[cut: %d more characters]"
                         (substring content 0 eddi-agent-max-result-chars)
                         (- (length content) eddi-agent-max-result-chars))))))

(defun eddi-agent--missing (tool args)
  "The first parameter TOOL's schema requires that ARGS lack, or nil."
  (cl-loop for name across (or (alist-get 'required (plist-get (cdr tool) :schema)) [])
           when (null (eddi-agent--arg args name))
           return name))

(defun eddi-agent--execute (session call done)
  "Run CALL in SESSION; return (:content STRING :error BOOL).
An asynchronous tool returns `:started' and calls DONE with its result
later.  Errors become results; a quit is left to the caller."
  (let* ((name (eddi-agent-call-name call))
         (tool (assoc name (eddi-agent-session-tools session)))
         (args (eddi-agent-call-input call))
         denial)
    (cond
     ((eddi-agent-call-malformed call)
      (list :content (format "Malformed call of %s: %s: %s" name
                             (eddi-agent-call-malformed call) (eddi-agent-call-arguments call))
            :error t))
     ((not tool) (list :content (format "Unknown tool: %s" name) :error t))
     ((not (memq tool (eddi-agent--offered session)))
      (list :content (format "Tool %s is not available while %s" name
                             (eddi-agent-session-state session))
            :error t))
     ((eddi-agent--missing tool args)
      (list :content (format "Missing argument: %s" (eddi-agent--missing tool args)) :error t))
     ((setq denial (eddi-agent-approve-check session name args))
      (list :content denial :error t))
     ((plist-get (cdr tool) :async)
      (condition-case err
          (progn (funcall (plist-get (cdr tool) :run) session args
                          (lambda (value) (funcall done (eddi-agent--result value))))
                 :started)
        (error (list :content (error-message-string err) :error t))))
     (t
      (condition-case err
          (eddi-agent--result (funcall (plist-get (cdr tool) :run) session args))
        (error (list :content (error-message-string err) :error t)))))))

(defun eddi-agent--failed-p (call result)
  "Non-nil when RESULT of CALL is an error, for the error counts.
eddi's own replies fail when a line of them is a Fail."
  (or (plist-get result :error)
      (and (plist-get (cdr (assoc (eddi-agent-call-name call) eddi-agent--tools)) :engine)
           (string-match-p "^Fail " (plist-get result :content)))))

(defun eddi-agent--breaker (session call)
  "Count CALL in SESSION; return why the breaker trips, or nil."
  (let* ((name (eddi-agent-call-name call))
         (key (cons name (or (and (eddi-agent-call-input call)
                                  (eddi-agent-backend-json-encode (eddi-agent-call-input call)))
                             (eddi-agent-call-arguments call))))
         (last (eddi-agent-session-last-key session)))
    (cl-incf (eddi-agent-session-calls session))
    (setf (eddi-agent-session-identical session)
          (if (equal key last) (1+ (eddi-agent-session-identical session)) 1)
          (eddi-agent-session-same-tool session)
          (if (equal name (car last)) (1+ (eddi-agent-session-same-tool session)) 1)
          (eddi-agent-session-last-key session) key)
    (cond
     ((eddi-agent-session-expired session)
      (format "Circuit breaker: wall clock limit of %s s (eddi-agent-max-seconds)"
              eddi-agent-max-seconds))
     ((> (eddi-agent-session-calls session) eddi-agent-max-tool-calls)
      (format "Circuit breaker: more than %d tool calls in this session (eddi-agent-max-tool-calls)"
              eddi-agent-max-tool-calls))
     ((> (eddi-agent-session-identical session) eddi-agent-max-identical-calls)
      (format "Circuit breaker: more than %d identical calls in a row (eddi-agent-max-identical-calls)"
              eddi-agent-max-identical-calls))
     ((> (eddi-agent-session-same-tool session) eddi-agent-max-same-tool-calls)
      (format "Circuit breaker: more than %d calls of %s in a row (eddi-agent-max-same-tool-calls)"
              eddi-agent-max-same-tool-calls name)))))

(defun eddi-agent--count-error (session call result)
  "Count RESULT of CALL in SESSION if it failed.
Return nil, `warn' when the same error reached the warning count, or
`stop' when it reached the stop count."
  (when (eddi-agent--failed-p call result)
    (let* ((table (or (eddi-agent-session-errors session)
                      (setf (eddi-agent-session-errors session) (make-hash-table :test #'equal))))
           (count (puthash (plist-get result :content)
                           (1+ (gethash (plist-get result :content) table 0)) table)))
      (cond ((>= count eddi-agent-error-stop-count) 'stop)
            ((= count eddi-agent-error-warning-count) 'warn)))))

;;;; The loop

(cl-defstruct (eddi-agent--batch (:constructor eddi-agent--batch-create) (:copier nil))
  "The tool calls of one model turn, while they run."
  (calls nil :documentation "Calls still to run, in order.")
  (results nil :documentation "Results so far, newest first.")
  (notes nil :documentation "Warnings for the model, newest first.")
  (stop nil :documentation "(STATUS . MESSAGE) once the session must stop."))

(defun eddi-agent--run-calls (session requested)
  "Run each tool call in REQUESTED for SESSION, in order; go on or stop.
Every call gets a result, even when it does not run.  A call of an
asynchronous tool (`shell_exec') returns to the command loop while it
runs; its process sentinel continues with the next call."
  (setf (eddi-agent-session-busy session) (eddi-agent--batch-create :calls requested))
  (eddi-agent--next-call session))

(defvar eddi-agent--in-tool nil
  "Non-nil while a tool runs on the main thread (a stop then quits it).")

(defun eddi-agent--next-call (session)
  "Run SESSION's next calls until one runs asynchronously or none is left."
  (let ((batch (eddi-agent-session-busy session))
        (started nil))
    (while (and batch (not started) (eddi-agent--batch-calls batch))
      (let* ((call (pop (eddi-agent--batch-calls batch)))
             (stop (eddi-agent--batch-stop batch))
             (tripped nil)
             (result
              (cond
               (stop (list :content (format "Not run: %s" (cdr stop)) :error t))
               ((setq tripped (eddi-agent--breaker session call))
                (setf (eddi-agent--batch-stop batch) (cons 'tripped tripped))
                (list :content tripped :error t))
               (t
                (eddi-agent--ui-call session call)
                (condition-case nil
                    (let ((inhibit-quit nil)
                          (eddi-agent--in-tool t))
                      (prog1 (eddi-agent--execute
                              session call
                              (lambda (value) (eddi-agent--async-done session call value)))
                        ;; A C-g that came while quitting was inhibited.
                        (when quit-flag (setq quit-flag nil) (signal 'quit nil))))
                  (quit (list :content "Interrupted by the user (C-g)" :error t :quit t)))))))
        (if (eq result :started)
            (setq started t)
          (eddi-agent--call-done session call result))))
    (unless (or started (null batch))
      (eddi-agent--end-batch session))))

(defun eddi-agent--async-done (session call result)
  "An asynchronous CALL of SESSION ended with RESULT: go on from the command loop."
  (when (eddi-agent-session-busy session)
    (eddi-agent--call-done session call result)
    (run-at-time 0 nil #'eddi-agent--next-call session)))

(defun eddi-agent--call-done (session call result)
  "Record RESULT of CALL in SESSION's batch; count its errors."
  (let ((batch (eddi-agent-session-busy session)))
    (when (and (plist-get result :quit) (not (eddi-agent--batch-stop batch)))
      (setf (eddi-agent--batch-stop batch) (cons 'quit "Interrupted by the user (C-g)")))
    (push (list :id (eddi-agent-call-id call) :content (plist-get result :content)
                :error (plist-get result :error))
          (eddi-agent--batch-results batch))
    (eddi-agent--ui-result session call result)
    (unless (eddi-agent--batch-stop batch)
      (pcase (eddi-agent--count-error session call result)
        ('warn (push (format "Warning: this error came %d times: %s"
                             eddi-agent-error-warning-count (plist-get result :content))
                     (eddi-agent--batch-notes batch)))
        ('stop (setf (eddi-agent--batch-stop batch)
                     (cons 'tripped
                           (format "Circuit breaker: the same error %d times (eddi-agent-error-stop-count): %s"
                                   eddi-agent-error-stop-count
                                   (plist-get result :content))))))
      (when (eddi-agent-session-expired session)
        (setf (eddi-agent--batch-stop batch)
              (cons 'timeout (format "Wall clock limit of %s s" eddi-agent-max-seconds))))
      (when (equal (eddi-agent-call-name call) "session_complete")
        (setf (eddi-agent--batch-stop batch) (cons 'complete (eddi-agent-session-message session)))))))

(defun eddi-agent--end-batch (session)
  "Every call of SESSION's batch has its result: send them, or stop."
  (let* ((batch (eddi-agent-session-busy session))
         (notes (reverse (eddi-agent--batch-notes batch)))
         (stop (eddi-agent--batch-stop batch)))
    (setf (eddi-agent-session-busy session) nil)
    (push (list :role 'tool :results (reverse (eddi-agent--batch-results batch))
                :note (and notes (mapconcat #'identity notes "\n")))
          (eddi-agent-session-history session))
    (when notes
      (eddi-agent--ui-insert session (concat (mapconcat #'identity notes "\n") "\n")
                             'eddi-agent-error-face))
    (if stop
        (eddi-agent--finish session (car stop) (cdr stop))
      (eddi-agent--send session))))

(defun eddi-agent--on-turn (session turn failure)
  "Continue SESSION with the model's TURN, or stop on FAILURE."
  (when (eq (eddi-agent-session-status session) 'running)
    (setf (eddi-agent-session-request session) nil)
    (cond
     (quit-flag (setq quit-flag nil)
                (eddi-agent--finish session 'quit "Interrupted by the user (C-g)"))
     (failure (eddi-agent--finish session 'error failure))
     (t
      (cl-incf (eddi-agent-session-input-tokens session) (eddi-agent-turn-input-tokens turn))
      (cl-incf (eddi-agent-session-output-tokens session) (eddi-agent-turn-output-tokens turn))
      (push (list :role 'assistant :text (eddi-agent-turn-text turn)
                  :calls (eddi-agent-turn-calls turn))
            (eddi-agent-session-history session))
      (eddi-agent--ui-insert session "\n")
      (if (eddi-agent-turn-calls turn)
          (eddi-agent--run-calls session (eddi-agent-turn-calls turn))
        ;; Nothing to execute: the model stopped without session_complete.
        (eddi-agent--finish session 'ended (eddi-agent-turn-text turn)))))))

(defun eddi-agent--send (session)
  "Send SESSION's conversation to the model."
  (cond
   (quit-flag (setq quit-flag nil)
              (eddi-agent--finish session 'quit "Interrupted by the user (C-g)"))
   ((eddi-agent-session-expired session)
    (eddi-agent--finish session 'timeout (format "Wall clock limit of %s s" eddi-agent-max-seconds)))
   (t
    (eddi-agent--ui-insert session "Model: " 'bold)
    (setf (eddi-agent-session-request session)
          (eddi-agent-backend-request
           :backend (eddi-agent-session-backend session)
           :url (eddi-agent-session-url session)
           :key (eddi-agent-session-key session)
           :model (eddi-agent-session-model session)
           :system (eddi-agent-session-system session)
           :messages (reverse (eddi-agent-session-history session))
           :tools (eddi-agent--tool-specs session)
           :on-text (lambda (text) (eddi-agent--ui-insert session text 'eddi-agent-model-face))
           :on-retry (lambda (delay status attempt)
                       (setf (eddi-agent-session-retry session)
                             (format "HTTP %d: retry %d/%d in %s s" status (1- attempt)
                                     eddi-agent-max-retries delay))
                       (eddi-agent--ui-insert session
                                              (concat "[" (eddi-agent-session-retry session) "]\n")
                                              'eddi-agent-error-face)
                       (eddi-agent--ui-refresh session))
           :on-done (lambda (turn failure)
                      (setf (eddi-agent-session-retry session) nil)
                      ;; Out of the sentinel: tools may run long and be quit.
                      (run-at-time 0 nil #'eddi-agent--on-turn session turn failure)))))))

(defun eddi-agent--finish (session status message)
  "End SESSION with STATUS and MESSAGE: stop timers, save the log."
  (when (eq (eddi-agent-session-status session) 'running)
    (setf (eddi-agent-session-status session) status
          (eddi-agent-session-message session) message
          (eddi-agent-session-end session) (current-time))
    (eddi-agent-backend-cancel (eddi-agent-session-request session))
    (setf (eddi-agent-session-request session) nil)
    (when-let ((process (eddi-agent-session-process session)))
      (setf (eddi-agent-session-process session) nil)
      (when (process-live-p process) (delete-process process)))
    (mapc #'cancel-timer (eddi-agent-session-timers session))
    (setf (eddi-agent-session-timers session) nil)
    (when (eq eddi-agent--current session)
      (setq eddi-agent--current nil)
      (eddi-agent--mode-line-show nil)
      (remove-hook 'pre-command-hook #'eddi-agent--pre-command))
    (eddi-agent--save-log session)
    (eddi-agent--ui-remove-stop-buttons session)
    (eddi-agent--ui-insert session
                           (format "\n%s: %s\n" (capitalize (symbol-name status)) (or message ""))
                           (if (eq status 'complete) 'eddi-agent-done-face 'eddi-agent-error-face))
    (eddi-agent--ui-refresh session)
    ;; The eddi session ends with the agent; one whose edits wait for review
    ;; ends when the review is committed (and a restart meanwhile brings it
    ;; back with its review).
    (unless (and eddi-agent-review (eddi-agent--review session))
      (eddi-agent--end-eddi-session (eddi-agent-session-id session)))
    (unless noninteractive
      (message "eddi-agent: %s%s" status (if message (concat ": " (truncate-string-to-width message 120)) "")))))

(defun eddi-agent--pre-command ()
  "Stop the running session when the user quits where that stops it.
See `eddi-agent-quit-stops-session'."
  (when (and eddi-agent--current
             (memq this-command '(keyboard-quit keyboard-escape-quit))
             (or (eq eddi-agent-quit-stops-session t)
                 (and (eq eddi-agent-quit-stops-session 'agent-buffer)
                      (eq (current-buffer) (eddi-agent-session-buffer eddi-agent--current)))))
    (eddi-agent-stop)))

;;;###autoload
(defun eddi-agent-stop (&optional session)
  "Stop SESSION (default: the running one) now.
A shell command it runs is killed; its call gets a well-formed result."
  (interactive)
  (let* ((session (or session eddi-agent--current))
         (process (and session (eddi-agent-session-process session))))
    (when (and session (eq (eddi-agent-session-status session) 'running))
      (cond
       ((process-live-p process)
        (process-put process 'eddi-agent-stopped t)
        (delete-process process))
       ((and (eddi-agent-session-busy session) eddi-agent--in-tool)
        ;; A Lisp tool is running: let it end as interrupted.
        (setq quit-flag t))
       ((eddi-agent-session-busy session)
        ;; Between two calls: the next one sees the stop.
        (let ((batch (eddi-agent-session-busy session)))
          (unless (eddi-agent--batch-stop batch)
            (setf (eddi-agent--batch-stop batch) (cons 'quit "Interrupted by the user (C-g)")))))
       (t (eddi-agent--finish session 'quit "Interrupted by the user (C-g)"))))))

(defun eddi-agent--id-number (id)
  "The number at the end of the agent session ID."
  (string-to-number (substring id (1+ (length eddi-agent-sender-prefix)))))

(defun eddi-agent--free-id (engine)
  "The next agent session id that ENGINE has no session of.
A session the journal brought back after a restart keeps its name, and
a new agent must not take it over: its number is skipped, as is that
of one left in the journal (`eddi-journal-kept')."
  (let ((n (1+ eddi-agent--counter)) id)
    (while (progn (setq id (format "%s-%d" eddi-agent-sender-prefix n))
                  (or (eddi-module-session engine id) (member id eddi-journal-kept)))
      (cl-incf n))
    id))

(defun eddi-agent--end-eddi-session (id)
  "End the eddi session ID of an agent: it lives no longer than the agent.
Its journal entry goes with it, so a restart does not bring it back."
  ;; Its buffers stay: they hold the agent's work and the log that
  ;; `eddi-agent-undo' takes it back with.
  (let ((eddi-kill-buffers-on-close nil))
    (condition-case nil
        (when (and eddi--engine (eddi-module-session eddi--engine id))
          ;; A file the review saved (or left as on disk) is saved for the
          ;; engine too.  One the review left modified (your own edits
          ;; are in it) is yours now: the session lets it go, the buffer
          ;; keeps its text, and a restart does not bring the agent's
          ;; old text back into it.  A buffer still held for a review
          ;; keeps the session, and the journal its edits.
          (let ((root (eddi-module-root eddi--engine)))
            (dolist (path (eddi--open-files id))
              (let ((buffer (find-buffer-visiting (expand-file-name path root))))
                (cond
                 ((null buffer))
                 ((not (buffer-modified-p buffer))
                  (eddi-exec (format "Open %s\nSave" (eddi--quote path)) id))
                 ((not (buffer-local-value 'eddi--held-for-review buffer))
                  (eddi-exec (format "Close %s" (eddi--quote path)) id))))))
          (eddi-exec (concat "End " id) id))
      (error nil))))

(defun eddi-agent--start (task)
  "Make a session for TASK and send its first request."
  (when (and eddi-agent--current
             (eq (eddi-agent-session-status eddi-agent--current) 'running))
    (user-error "An eddi-agent session is running; stop it first (M-x eddi-agent-stop)"))
  (let* ((backend eddi-agent-backend)
         (url (eddi-agent-backend-url backend))
         (engine (eddi-engine))
         (id (eddi-agent--free-id engine))
         (session (eddi-agent-session--create
                   :id id :task task :backend backend :url url
                   :model (eddi-agent-backend-model backend)
                   :key (eddi-agent-backend-api-key backend url)
                   :system eddi-agent-system-prompt
                   :origin (current-buffer)
                   :start (current-time))))
    (when (and (eq backend 'anthropic) (null (eddi-agent-session-key session)))
      (user-error "No API key: set `eddi-agent-api-key', add one to auth-source for %s, or set %s"
                  (url-host (url-generic-parse-url url))
                  (alist-get backend eddi-agent-api-key-variables)))
    ;; Only a start that got this far uses up its id.
    (setq eddi-agent--counter (eddi-agent--id-number id))
    (setf (eddi-agent-session-directory session) (eddi-module-root engine))
    (setf (eddi-agent-session-tools session) (eddi-agent--supported-tools)
          (eddi-agent-session-state session) (if eddi-agent-workflow-states 'planning 'executing))
    (let ((reply (condition-case err (eddi-exec (concat "Start " id) id)
                   (error (error-message-string err)))))
      (push (list :role 'user
                  :text (format "%s\n\nContext:\n%s\neddi session: %s (Start %s: %s)"
                                task (eddi-agent--context session) id id reply))
            (eddi-agent-session-history session)))
    (setq eddi-agent--current session
          eddi-agent-last-session session)
    (add-hook 'pre-command-hook #'eddi-agent--pre-command)
    (eddi-agent--mode-line-show t)
    (push (run-at-time eddi-agent-max-seconds nil #'eddi-agent--expire session)
          (eddi-agent-session-timers session))
    (eddi-agent--ui-open session)
    (eddi-agent--send session)
    session))

(defun eddi-agent--expire (session)
  "The wall clock of SESSION ran out."
  (setf (eddi-agent-session-expired session) t)
  (unless (eddi-agent-session-busy session)
    (eddi-agent--finish session 'timeout (format "Wall clock limit of %s s" eddi-agent-max-seconds))))

;;;###autoload
(defun eddi-agent-run (task &optional wait)
  "Let the model carry out TASK through eddi; return the session.
In batch Emacs, or when WAIT is non-nil, return when the loop ends;
otherwise at once, the loop going on in the background.  A quit while
waiting stops the session.

The outcome is `eddi-agent-session-status': `complete' (the model
called session_complete), `ended' (it answered without a tool call),
`tripped' (a circuit breaker), `timeout' (the wall clock), `quit'
\(\\[keyboard-quit]) or `error' (the model API).  Its message,
`eddi-agent-session-message', is the model's or says why it stopped."
  (let ((session (eddi-agent--start task)))
    (when (or wait noninteractive)
      (condition-case nil
          (while (eq (eddi-agent-session-status session) 'running)
            (accept-process-output nil 0.05))
        (quit (eddi-agent-stop session)
              ;; A running tool ends as interrupted: wait for that.
              (while (eq (eddi-agent-session-status session) 'running)
                (accept-process-output nil 0.05)))))
    session))

;;;###autoload
(defun eddi-agent (task)
  "Ask for a TASK and let the model carry it out in live buffers.
The conversation shows in the *eddi-agent* buffer.  \\[eddi-agent-stop],
the [stop] button there, or \\[keyboard-quit] in that buffer stops the
session (a quit elsewhere does not: `eddi-agent-quit-stops-session');
\\[eddi-agent-undo] takes its changes back."
  (interactive (list (read-string "Task for eddi-agent: ")))
  (eddi-agent-run task))

;;;###autoload
(defun eddi-agent-undo (&optional session)
  "Undo every change SESSION (default: the last one) made, in every buffer."
  (interactive)
  (let ((session (or session eddi-agent-last-session)))
    (unless session (user-error "No eddi-agent session yet"))
    (let ((steps (eddi-undo-session (eddi-agent-session-id session))))
      (when (called-interactively-p 'interactive)
        (message "eddi-agent: undid %d steps of %s" steps (eddi-agent-session-id session)))
      steps)))

;;;; The review

(defun eddi-agent--review (session)
  "Open the review of the buffers SESSION changed; return its buffer or nil."
  (when-let ((review (eddi-agent-review-show
                      (reverse (eddi-agent-session-changed session))
                      (eddi-agent-session-directory session)
                      (lambda (_saved) (eddi-agent--end-eddi-session (eddi-agent-session-id session)))
                      (eddi-agent-session-id session))))
    (eddi-agent--ui-insert
     session
     (substitute-command-keys
      (let ((count (length (buffer-local-value 'eddi-agent-review--files review))))
        (format "Review: %d changed %s %s in %s; \\<eddi-agent-review-mode-map>\\[eddi-agent-review-commit] there saves what you accept\n"
                count (if (= count 1) "file" "files") (if (= count 1) "waits" "wait")
                (buffer-name review))))
     'eddi-agent-task-face)
    (unless noninteractive (display-buffer review))
    review))

(defvar eddi-agent--restored nil
  "Agent sessions the journal brought back whose review waits: their names.")

(defun eddi-agent--restored-buffers (name)
  "The live buffers of the files open in the restored agent session NAME."
  (let ((root (eddi-module-root (eddi-engine))))
    (delq nil (mapcar (lambda (path) (find-buffer-visiting (expand-file-name path root)))
                      (eddi--open-files name)))))

(defun eddi-agent--restore-said-p (name path note)
  "Non-nil when the journal's report on session NAME says NOTE of PATH.
NOTE follows \"; PATH: \" in the session's line of `eddi-journal-report'."
  (let ((report (or eddi-journal-report "")))
    (and (string-match (format "^Session %s of \\S-+ restored:.*$" (regexp-quote name)) report)
         (string-search (format "; %s: %s" path note) (match-string 0 report))
         t)))

(defun eddi-agent--review-restored (name)
  "Open the review of the restored agent session NAME; return it, or nil.
Committing it ends the session; so does finding nothing to review."
  (let ((review (eddi-agent-review-show
                 (eddi-agent--restored-buffers name) (eddi-module-root (eddi-engine))
                 (lambda (_saved)
                   (setq eddi-agent--restored (delete name eddi-agent--restored))
                   (eddi-agent--end-eddi-session name))
                 name)))
    (unless review
      (setq eddi-agent--restored (delete name eddi-agent--restored))
      (eddi-agent--end-eddi-session name))
    review))

(defun eddi-agent--review-resumed (sessions)
  "Open the review of each agent session in SESSIONS the journal brought back.
SESSIONS is ((NAME . SENDER)...).  An agent session still in the
journal is one whose edits were never reviewed (saved while the review
held them, or not saved at all): they come back into its buffers as
unsaved edits, and each session gets a review of its own, named after
it.  The restored edits are logged as the session's own in the buffers
the journal put them into, so that what you type from now on is yours:
the review shows only the agent's changes, and a reject keeps your
typing.  A buffer that was open and modified before kept its own text
\(its text wins over the journal's), so nothing in it is taken for the
agent's; one whose restored edits hold typing of the old Emacs (the
journal says so) is shown against its file and left as it is.
An agent session's sender is its name."
  (pcase-dolist (`(,name . ,_sender) sessions)
    (when (string-prefix-p (concat eddi-agent-sender-prefix "-") name)
      (dolist (path (eddi--open-files name))
        (when-let ((buffer (find-buffer-visiting
                            (expand-file-name path (eddi-module-root (eddi-engine))))))
          ;; A buffer whose text won over the journal's holds nothing of
          ;; the agent's; one eddi already edited in this Emacs has a log
          ;; (the restore's edits are a hole in it).
          (when (and (null (buffer-local-value 'eddi--undo-log buffer))
                     (not (eddi-agent--restore-said-p name path "the buffer's text was kept")))
            (if (eddi-agent--restore-said-p
                 name path "its unsaved edits hold some typed outside the session")
                ;; The journal says someone typed between the agent's
                ;; commands: its edits and the typing cannot be told apart,
                ;; so the review shows the file whole and leaves it as it is.
                (with-current-buffer buffer (push [:unknown] eddi--undo-log))
              (eddi-agent-review-claim buffer name (eddi-agent-review--disk-text buffer))))))
      (cl-pushnew name eddi-agent--restored :test #'equal)
      (let ((review (eddi-agent--review-restored name)))
        (when review
          (message "eddi-agent: %s came back with edits never reviewed: review them in %s"
                   name (buffer-name review))
          (unless noninteractive (display-buffer review)))))))

(add-hook 'eddi-resume-functions #'eddi-agent--review-resumed)

(defun eddi-agent--review-candidates ()
  "Names of the sessions whose changes can be reviewed: the last one first."
  (delete-dups (append (and eddi-agent-last-session
                            (list (eddi-agent-session-id eddi-agent-last-session)))
                       (reverse eddi-agent--restored))))

;;;###autoload
(defun eddi-agent-review-changes (&optional session)
  "Review the changes SESSION (default: the last one) left unsaved.
SESSION is an agent session or the name of one; the sessions a restart
brought back are reviewed by name.  Interactively, with several to
choose from, it asks which."
  (interactive
   (let ((names (eddi-agent--review-candidates)))
     (list (if (cdr names)
               (completing-read "Review the changes of session: " names nil t nil nil (car names))
             (car names)))))
  (let ((session (or session eddi-agent-last-session)))
    (unless session (user-error "No eddi-agent session yet"))
    (let* ((name (if (stringp session) session (eddi-agent-session-id session)))
           (live (cond ((not (stringp session)) session)
                       ((and eddi-agent-last-session
                             (equal name (eddi-agent-session-id eddi-agent-last-session)))
                        eddi-agent-last-session)))
           (review (cond (live (eddi-agent--review live))
                         ((member name eddi-agent--restored) (eddi-agent--review-restored name))
                         (t (user-error "No eddi-agent session %s" name)))))
      (unless review (user-error "Nothing of %s waits for review" name))
      (when (called-interactively-p 'interactive) (pop-to-buffer review))
      review)))

;;;; The log

(defun eddi-agent-session-log (session)
  "SESSION as an alist for JSON: settings, outcome and the conversation.
The conversation is in the backend's wire format, as sent."
  (let ((body (eddi-agent-backend-body (eddi-agent-session-backend session)
                                       (eddi-agent-session-model session)
                                       (eddi-agent-session-system session)
                                       (reverse (eddi-agent-session-history session))
                                       nil)))
    `((id . ,(eddi-agent-session-id session))
      (task . ,(eddi-agent-session-task session))
      (backend . ,(symbol-name (eddi-agent-session-backend session)))
      (url . ,(eddi-agent-session-url session))
      (model . ,(eddi-agent-session-model session))
      (started . ,(format-time-string "%FT%T%z" (eddi-agent-session-start session)))
      (seconds . ,(eddi-agent--elapsed session))
      (status . ,(symbol-name (eddi-agent-session-status session)))
      (message . ,(or (eddi-agent-session-message session) :null))
      (tool_calls . ,(eddi-agent-session-calls session))
      (input_tokens . ,(eddi-agent-session-input-tokens session))
      (output_tokens . ,(eddi-agent-session-output-tokens session))
      (todos . ,(vconcat (mapcar (pcase-lambda (`(,id ,text ,status))
                                   `((id . ,id) (text . ,text) (status . ,status)))
                                 (reverse (eddi-agent-session-todos session)))))
      ,@(cl-remove-if-not (lambda (entry) (memq (car entry) '(system messages))) body))))

(defun eddi-agent--save-log (session)
  "Write SESSION's log into `eddi-agent-log-directory'."
  (when eddi-agent-log-directory
    (condition-case err
        (let ((file (expand-file-name (format "%s-%s.json"
                                              (format-time-string "%Y%m%d-%H%M%S"
                                                                  (eddi-agent-session-start session))
                                              (eddi-agent-session-id session))
                                      eddi-agent-log-directory)))
          (make-directory eddi-agent-log-directory t)
          (let ((coding-system-for-write 'utf-8-unix))
            (write-region (concat (eddi-agent-backend-json-encode (eddi-agent-session-log session)) "\n")
                          nil file nil 'silent))
          (setf (eddi-agent-session-log-file session) file))
      (error (message "eddi-agent: log not saved: %s" (error-message-string err))))))

;;;; The mode line

(defconst eddi-agent--mode-line '(:eval (eddi-agent--mode-line))
  "The entry of `global-mode-string' while a session runs.")

(defun eddi-agent--mode-line ()
  "A short state of the running session for the mode line."
  (when-let ((session eddi-agent--current))
    (format " eddi-agent[%s%s %d calls %.1fk tok]"
            (cond ((eddi-agent-session-retry session) "retrying")
                  ((eddi-agent-session-process session) "shell")
                  ((eddi-agent-session-busy session) "tools")
                  (t (eddi-agent-session-state session)))
            (if (eddi-agent-session-todos session)
                (format " %d/%d todos"
                        (cl-count "done" (eddi-agent-session-todos session) :key #'caddr :test #'equal)
                        (length (eddi-agent-session-todos session)))
              "")
            (eddi-agent-session-calls session)
            (/ (+ (eddi-agent-session-input-tokens session)
                  (eddi-agent-session-output-tokens session))
               1000.0))))

(defun eddi-agent--mode-line-show (on)
  "Show the mode-line indicator when ON, else remove it."
  (unless (listp global-mode-string) (setq global-mode-string (list global-mode-string)))
  (if on
      (add-to-list 'global-mode-string eddi-agent--mode-line t)
    (setq global-mode-string (delete eddi-agent--mode-line global-mode-string)))
  (force-mode-line-update t))

;;;; The *eddi-agent* buffer

(defvar-local eddi-agent--buffer-session nil
  "The session this buffer shows.")

(defvar eddi-agent-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "TAB") #'forward-button)
    (define-key map (kbd "<backtab>") #'backward-button)
    (define-key map (kbd "C-c C-k") #'eddi-agent-stop)
    (define-key map (kbd "C-c C-u") #'eddi-agent-undo)
    map)
  "Keys of `eddi-agent-mode'.")

(define-derived-mode eddi-agent-mode special-mode "Eddi-Agent"
  "The conversation of an eddi-agent session.
RET on a tool call shows or hides its arguments and raw result.

\\{eddi-agent-mode-map}"
  (setq-local header-line-format '(:eval (eddi-agent--header-line)))
  (setq-local truncate-lines nil)
  (add-hook 'kill-buffer-hook #'eddi-agent--buffer-killed nil t))

(defun eddi-agent--buffer-killed ()
  "The *eddi-agent* buffer goes away: so does the session it shows."
  (let ((session eddi-agent--buffer-session))
    (when (and session (eq (eddi-agent-session-status session) 'running))
      (eddi-agent--finish session 'quit "The *eddi-agent* buffer was killed"))))

(defun eddi-agent--header-line ()
  "Show status, state, time, token counts, tool use and todos."
  (when-let ((session eddi-agent--buffer-session))
    (let ((todos (eddi-agent-session-todos session)))
      (format " %s%s  %s  %.0f s  tokens %d in, %d out  calls %d/%d%s"
              (eddi-agent-session-status session)
              (if-let ((retry (eddi-agent-session-retry session))) (concat " (" retry ")") "")
              (eddi-agent-session-state session)
              (eddi-agent--elapsed session)
              (eddi-agent-session-input-tokens session) (eddi-agent-session-output-tokens session)
              (eddi-agent-session-calls session) eddi-agent-max-tool-calls
              (if todos
                  (format "  todos %d/%d" (cl-count "done" todos :key #'caddr :test #'equal)
                          (length todos))
                "")))))

(defun eddi-agent--ui-open (session)
  "Prepare the *eddi-agent* buffer for SESSION and show it."
  (let ((buffer (get-buffer-create "*eddi-agent*")))
    (setf (eddi-agent-session-buffer session) buffer)
    (with-current-buffer buffer
      (unless (derived-mode-p 'eddi-agent-mode) (eddi-agent-mode))
      (setq eddi-agent--buffer-session session)
      (let ((inhibit-read-only t))
        (goto-char (point-max))
        (unless (bobp) (insert "\n"))
        (insert (propertize (format "Task (%s): %s " (eddi-agent-session-id session)
                                    (eddi-agent-session-task session))
                            'face 'eddi-agent-task-face))
        (eddi-agent--stop-button session session
                                 "Stop the session (C-c C-k, or C-g in this buffer)")
        (insert "\n")))
    (unless noninteractive
      (display-buffer buffer)
      (push (run-at-time 1 1 #'eddi-agent--ui-refresh session) (eddi-agent-session-timers session)))))

(defun eddi-agent--ui-refresh (session)
  "Redraw the header line of SESSION's buffer."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (force-mode-line-update)))))

(defun eddi-agent--ui-insert (session text &optional face)
  "Append TEXT with FACE at the end of SESSION's buffer, wherever point is.
Windows (and the buffer's point) that were at the end follow it; the
others stay where the user put them."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let* ((inhibit-read-only t)
               (end (point-max))
               (follow (= (point) end))
               (windows (cl-remove-if-not (lambda (window) (= (window-point window) end))
                                          (get-buffer-window-list buffer nil t))))
          (save-excursion
            (goto-char end)
            (insert (if face (propertize text 'face face) text)))
          (when follow (goto-char (point-max)))
          (dolist (window windows) (set-window-point window (point-max))))))))

(defun eddi-agent--stop-button (session owner help)
  "Insert at point a [stop] button that stops SESSION, showing HELP.
OWNER (a process, or SESSION itself) is what the button belongs to:
`eddi-agent--ui-remove-stop-buttons' takes it away when that ends."
  (insert-text-button "[stop]"
                      'eddi-agent-stop owner
                      'action (lambda (_) (eddi-agent-stop session))
                      'follow-link t
                      'help-echo help))

(defun eddi-agent--ui-stop-button (session process)
  "Add a button to SESSION's buffer that stops it while PROCESS runs."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let ((inhibit-read-only t))
          (save-excursion
            (goto-char (point-max))
            (eddi-agent--stop-button session process
                                     "Kill this shell command and stop the session")
            (insert "\n")))))))

(defun eddi-agent--ui-remove-stop-buttons (session &optional owner)
  "Take away the [stop] buttons of OWNER (default: all) in SESSION's buffer.
A button whose process or session ended would stop nothing.  A
shell's button has a line of its own; the session's ends its task line."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let ((inhibit-read-only t)
              (pos (point-min)))
          (while (setq pos (text-property-not-all pos (point-max) 'eddi-agent-stop nil))
            (let ((end (next-single-property-change pos 'eddi-agent-stop nil (point-max)))
                  (this (get-text-property pos 'eddi-agent-stop)))
              (if (and owner (not (eq this owner)))
                  (setq pos end)
                (if (processp this)
                    (delete-region pos (if (eq (char-after end) ?\n) (1+ end) end))
                  (delete-region (if (eq (char-before pos) ?\s) (1- pos) pos) end))))))))))

(defun eddi-agent--toggle (button)
  "Show or hide the body of the tool call BUTTON heads."
  (let ((overlay (button-get button 'eddi-agent-body)))
    (overlay-put overlay 'invisible (not (overlay-get overlay 'invisible)))))

(defun eddi-agent--ui-call (session call)
  "Show CALL of SESSION as a collapsible heading with its arguments."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let ((inhibit-read-only t)
              (summary (replace-regexp-in-string "[\n\t ]+" " " (eddi-agent-call-arguments call))))
          (save-excursion
            (goto-char (point-max))
            (let ((button (insert-text-button
                           (format "▸ %s %s" (eddi-agent-call-name call)
                                   (truncate-string-to-width summary 60 nil nil "…"))
                           'face 'eddi-agent-tool-face
                           'action #'eddi-agent--toggle
                           'follow-link t
                           'help-echo "RET: show or hide the arguments and the raw result"))
                  (start (progn (insert "\n") (point))))
              (insert (eddi-agent-call-arguments call) "\n")
              (let ((overlay (make-overlay start (point))))
                (overlay-put overlay 'invisible eddi-agent-collapse-tool-calls)
                (overlay-put overlay 'eddi-agent-call (eddi-agent-call-id call))
                (button-put button 'eddi-agent-body overlay)))))))))

(defun eddi-agent--ui-result (session call result)
  "Append RESULT of CALL to the collapsible body shown for CALL in SESSION."
  (let ((buffer (eddi-agent-session-buffer session)))
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (let* ((inhibit-read-only t)
               (overlay (cl-find (eddi-agent-call-id call) (overlays-in (point-min) (point-max))
                                 :key (lambda (o) (overlay-get o 'eddi-agent-call)) :test #'equal))
               (text (propertize (concat "→ " (plist-get result :content) "\n")
                                 'face (and (plist-get result :error) 'eddi-agent-error-face))))
          (save-excursion
            (if (not overlay)
                (progn (goto-char (point-max))
                       (insert (format "▸ %s (not run) " (eddi-agent-call-name call)) text))
              (goto-char (overlay-end overlay))
              (insert text)
              (move-overlay overlay (overlay-start overlay) (point)))))))))

(defun eddi-agent--ui-todos (session)
  "Show SESSION's todo list."
  (eddi-agent--ui-insert session (concat "Todos:\n" (eddi-agent--todo-lines session) "\n")
                         'eddi-agent-task-face)
  (eddi-agent--ui-refresh session))

(provide 'eddi-agent)

;;; eddi-agent.el ends here
