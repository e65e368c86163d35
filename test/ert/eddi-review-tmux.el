;;; eddi-review-tmux.el --- The review buffer in a real emacs -nw, for eddi-review-tmux.sh  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by `emacs -nw' inside tmux (see eddi-review-tmux.sh): in the
;; workspace named by $EDDI_REVIEW_ROOT it changes two files' buffers as
;; an agent would (two hunks in a.txt, one in b.txt), opens the review
;; and waits for keys.  When the review is committed it writes the saved
;; paths to the file "done" and kills Emacs.

;;; Code:

(require 'eddi-agent-review)
(require 'eddi-backend)

(defvar eddi-save-atomically t)

(let* ((root (file-name-as-directory (getenv "EDDI_REVIEW_ROOT")))
       (make-backup-files nil)
       (buffers
        (mapcar (lambda (spec)
                  (with-current-buffer (find-file-noselect (expand-file-name (car spec) root))
                    (dolist (edit (cdr spec))
                      (goto-char (point-min))
                      (search-forward (car edit))
                      (replace-match (cdr edit) t t))
                    (current-buffer)))
                '(("a.txt" ("line 2\n" . "LINE TWO\n") ("line 19\n" . "LINE NINETEEN\n"))
                  ("b.txt" ("beta" . "gamma"))))))
  (setq make-backup-files nil)
  (switch-to-buffer
   (eddi-agent-review-show
    buffers root
    (lambda (saved)
      (write-region (format "%S\n" saved) nil (expand-file-name "done" root) nil 'silent)
      (run-at-time 0.2 nil #'kill-emacs 0)))))

(provide 'eddi-review-tmux)

;;; eddi-review-tmux.el ends here
