;;; eddi-agent-approve.el --- Which tool calls of an eddi agent need the user's yes  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; The approval policy of `eddi-agent'.  Reading shell text for the
;; commands that write files cannot be made safe (a `sh -c', a `mv', a
;; `curl -o' or an `(with-temp-file ...)' write as well as a `>'), so
;; instead of guessing, every call of a tool that can change the world
;; is checked against `eddi-agent-approve': per kind of tool, `ask' (a
;; y / n / always-this-session prompt that shows the exact command),
;; `allow' or `deny'.  In batch Emacs nobody can answer, so `ask' means
;; deny unless `eddi-agent-approve-function' decides.  A denied call
;; still gets a well-formed tool result that says so.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eddi-agent-tools)

(defcustom eddi-agent-approve
  '((eval_sexp . ask) (shell_exec . ask) (edits . allow))
  "What to do with each kind of tool call that can change files.
An alist of (KIND . POLICY).  KIND is `eval_sexp' (Lisp the model
wrote), `shell_exec' (a shell command) or `edits' (the eddi, edit and
apply_patch tools, whose changes go through eddi's live buffers and,
with `eddi-agent-review' on, are saved only once you accept them).
POLICY is `ask' (prompt with the exact command: y runs it, n denies
it, a allows that kind for the rest of the session), `allow' or
`deny'.  A kind missing from the list is asked about."
  :type '(alist :key-type (choice (const eval_sexp) (const shell_exec) (const edits))
                :value-type (choice (const :tag "Ask each time" ask)
                                    (const :tag "Allow" allow)
                                    (const :tag "Deny" deny)))
  :group 'eddi-agent)

(defcustom eddi-agent-approve-function nil
  "Function that answers an `ask' instead of the prompt, or nil.
Called with the KIND (see `eddi-agent-approve'), the exact TEXT the
tool would run and the SESSION.  It returns `allow' (or t) to run the
call, `always' to run it and allow KIND for the rest of the session,
and anything else to deny it.  In batch Emacs, where nobody can
answer a prompt, `ask' without this function denies."
  :type '(choice (const :tag "Prompt (deny in batch Emacs)" nil) function)
  :group 'eddi-agent)

(defconst eddi-agent-approve--kinds
  '(("eval_sexp" eval_sexp "expr") ("shell_exec" shell_exec "command")
    ("eddi" edits "text") ("edit" edits "patch") ("apply_patch" edits "patch"))
  "Tools that need approval: (TOOL KIND ARGUMENT), ARGUMENT being what is shown.")

(defun eddi-agent-approve-kind (tool)
  "The approval kind of the tool named TOOL, or nil when it needs none."
  (nth 1 (assoc tool eddi-agent-approve--kinds)))

(defun eddi-agent-approve--text (tool args)
  "The exact text the call of TOOL with ARGS (an alist) would run."
  (let ((value (alist-get (intern (nth 2 (assoc tool eddi-agent-approve--kinds))) args)))
    (if (stringp value) value (format "%S" value))))

(defun eddi-agent-approve--prompt (kind text session)
  "Ask whether SESSION may run TEXT of KIND: `allow', `always' or `deny'."
  (let ((choice (read-multiple-choice
                 (format "eddi-agent %s wants to run (%s):\n%s\nRun it? "
                         (eddi-agent-session-id session) kind text)
                 '((?y "yes" "run this call")
                   (?n "no" "deny this call; the model is told")
                   (?a "always" "allow this kind of call for the rest of the session")))))
    (pcase (car choice) (?y 'allow) (?a 'always) (_ 'deny))))

(defun eddi-agent-approve-check (session tool args)
  "Whether SESSION may run TOOL with ARGS now.
Return nil when it may, or the denial text that becomes its result."
  (when-let ((kind (eddi-agent-approve-kind tool)))
    (let* ((policy (if (memq kind (eddi-agent-session-approved session))
                       'allow
                     (alist-get kind eddi-agent-approve 'ask)))
           (text (eddi-agent-approve--text tool args))
           (answer (pcase policy
                     ('allow 'allow)
                     ('deny 'deny)
                     (_ (cond (eddi-agent-approve-function
                               (funcall eddi-agent-approve-function kind text session))
                              (noninteractive 'deny)
                              (t (eddi-agent-approve--prompt kind text session)))))))
      (pcase answer
        ((or 'allow 't) nil)
        ('always (push kind (eddi-agent-session-approved session)) nil)
        (_ (format "Denied: the user did not approve this %s call (eddi-agent-approve is %s); nothing ran"
                   tool (if (eq policy 'deny) "deny" "ask")))))))

(provide 'eddi-agent-approve)

;;; eddi-agent-approve.el ends here
