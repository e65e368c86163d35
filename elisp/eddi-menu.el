;;; eddi-menu.el --- The eddi commands under one prefix map and in one menu  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; `eddi-command-map' holds every eddi command under one prefix and is
;; bound to no key: an Emacs package does not take keys of its own, so you
;; bind it, for instance (global-set-key (kbd "C-c e") eddi-command-map).
;; `eddi-menu' offers the same commands as a transient menu when transient
;; is there (built into Emacs 28 and later), else as one-key choices.
;; eddi.el loads this file.

;;; Code:

(require 'cl-lib)

(declare-function eddi-transient-menu "eddi-menu" ())
(declare-function eddi "eddi" ())
(declare-function eddi-send "eddi" (message))
(declare-function eddi-undo-session "eddi" (&optional sender))
(declare-function eddi-nats-connect "eddi" (&optional url))
(declare-function eddi-nats-disconnect "eddi" ())
(declare-function eddi-module-compile "eddi" (&optional source wait))

;; The agent's commands, for the map and the menu when eddi-agent.el is not
;; loaded yet.
(autoload 'eddi-agent "eddi-agent" "Let a model carry out a task in live buffers." t)
(autoload 'eddi-agent-stop "eddi-agent" "Stop the running agent session." t)
(autoload 'eddi-agent-undo "eddi-agent" "Undo the last agent session." t)
(autoload 'eddi-agent-review-changes "eddi-agent" "Review the last agent session's changes." t)

;;;###autoload
(defvar eddi-command-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "e") #'eddi)
    (define-key map (kbd "s") #'eddi-send)
    (define-key map (kbd "u") #'eddi-undo-session)
    (define-key map (kbd "a") #'eddi-agent)
    (define-key map (kbd "k") #'eddi-agent-stop)
    (define-key map (kbd "U") #'eddi-agent-undo)
    (define-key map (kbd "r") #'eddi-agent-review-changes)
    (define-key map (kbd "n") #'eddi-nats-connect)
    (define-key map (kbd "N") #'eddi-nats-disconnect)
    (define-key map (kbd "c") #'eddi-module-compile)
    (define-key map (kbd "m") #'eddi-menu)
    map)
  "The eddi commands under one prefix; bound to no key by default.
Bind it yourself, for instance:
  (global-set-key (kbd \"C-c e\") eddi-command-map)")
;;;###autoload
(fset 'eddi-command-map eddi-command-map)

(defconst eddi--menu-items
  '((?e "eddi" eddi) (?s "send" eddi-send) (?u "undo session" eddi-undo-session)
    (?a "agent" eddi-agent) (?k "stop agent" eddi-agent-stop) (?U "undo agent" eddi-agent-undo)
    (?r "review agent" eddi-agent-review-changes) (?n "NATS connect" eddi-nats-connect)
    (?N "NATS disconnect" eddi-nats-disconnect) (?c "compile module" eddi-module-compile))
  "The entries of \\[eddi-menu]: (KEY LABEL COMMAND).")

(defun eddi--define-transient ()
  "Define `eddi-transient-menu' from `eddi--menu-items' (transient is loaded)."
  (unless (fboundp 'eddi-transient-menu)
    (eval `(transient-define-prefix eddi-transient-menu ()
             "The eddi commands."
             ["eddi"
              ,@(mapcar (pcase-lambda (`(,key ,label ,command))
                          (list (string key) label command))
                        eddi--menu-items)])
          t)))

;;;###autoload
(defun eddi-menu ()
  "Choose an eddi command from a menu: a transient one when transient is there."
  (interactive)
  (if (require 'transient nil t)
      (progn (eddi--define-transient)
             (call-interactively 'eddi-transient-menu))
    (let ((choice (read-multiple-choice
                   "eddi" (mapcar (pcase-lambda (`(,key ,label ,_)) (list key label))
                                  eddi--menu-items))))
      (call-interactively (nth 2 (assq (car choice) eddi--menu-items))))))

(provide 'eddi-menu)

;;; eddi-menu.el ends here
