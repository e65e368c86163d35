;;; eddi-undo.el --- Undo one eddi session's changes and keep everyone else's  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; `eddi-undo-session' takes back every change one eddi sender made, in
;; every buffer, and keeps the changes you typed (or another sender
;; made) in between.  The engine's own Undo does that as long as nobody
;; else touched the buffer since the sender's first edit; after that its
;; history is gone (it was made against the old text), so the log that
;; eddi-backend.el keeps of every change decides instead.
;;
;; How the log is undone: walking it from the newest change back, each
;; change of the sender is moved past the changes made after it, as if it
;; had been made last (a change after it and before it in the text is
;; shifted by the other's length; changes that touch the same text cannot
;; be moved, which is a conflict), and then it is taken back where it now
;; is.  A conflict refuses the whole undo and names the lines: nothing is
;; half undone.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar eddi--undo-log)
(defvar eddi--undoing)
(defvar eddi--undo-owner)

;;;; Moving changes past each other

(defun eddi-undo--entry (pos old new owner step)
  "A log entry: at POS, OLD became NEW, by OWNER in STEP."
  (vector pos old new owner step))

(defun eddi-undo--swap (mine later)
  "Move MINE past LATER (made just after it): return (LATER' . MINE').
LATER' is LATER as if MINE had never been made, MINE' is MINE as if
made after LATER.  nil when they touch the same text."
  (pcase-let* ((`[,p ,old ,new ,owner ,step] mine)
               (`[,q ,lold ,lnew ,lowner ,lstep] later))
    (cond
     ;; LATER is before MINE's text: MINE moves by LATER's growth.
     ((<= (+ q (length lold)) p)
      (cons later (eddi-undo--entry (+ p (- (length lnew) (length lold))) old new owner step)))
     ;; LATER is after MINE's text: it moves back by MINE's growth.
     ((>= q (+ p (length new)))
      (cons (eddi-undo--entry (- q (- (length new) (length old))) lold lnew lowner lstep) mine)))))

(defun eddi-undo--line (text pos)
  "The line number (1-based) and the text of the line at POS in TEXT."
  (with-temp-buffer
    (insert text)
    (goto-char (min (max pos (point-min)) (point-max)))
    (cons (line-number-at-pos) (buffer-substring-no-properties (line-beginning-position)
                                                               (line-end-position)))))

(defun eddi-undo--plan (log owner)
  "Plan taking OWNER's changes out of LOG (newest first).
Return (:undo ENTRIES :log KEPT :steps N), ENTRIES to take back in
order from the buffer as it is, KEPT the new log; or (:conflict POS)
with POS the position in the buffer of a change that overlaps one of
OWNER's, or (:unknown t) when the log has a hole."
  (let ((later nil) (undo nil) (steps nil) (conflict nil))
    (cl-loop for entry in log
             until conflict
             do (cond
                 ((= (length entry) 1) (setq conflict :unknown))
                 ((not (equal (aref entry 3) owner)) (push entry later))
                 (t
                  (let ((mine entry) (moved nil))
                    (dolist (other later)
                      (if conflict
                          (push other moved)
                        (let ((swap (eddi-undo--swap mine other)))
                          (if swap
                              (progn (push (car swap) moved) (setq mine (cdr swap)))
                            (setq conflict (aref other 0))
                            (push other moved)))))
                    (setq later (nreverse moved))
                    (unless (eq (aref entry 4) 'outside) ; a review's, not a command
                      (cl-pushnew (aref entry 4) steps))
                    (push mine undo)))))
    (cond ((eq conflict :unknown) (list :unknown t))
          (conflict (list :conflict conflict))
          (t (list :undo (nreverse undo) :log (reverse later) :steps (length steps))))))

(defun eddi-undo--apply (entries)
  "Take back ENTRIES, in order, in the current buffer; as one undo step."
  (let ((eddi--undoing t)
        (group (prepare-change-group)))
    (activate-change-group group)
    (unwind-protect
        (save-excursion
          (save-restriction
            (widen)
            (dolist (entry entries)
              (pcase-let ((`[,pos ,old ,new ,_ ,_] entry))
                (unless (equal (buffer-substring-no-properties pos (min (point-max) (+ pos (length new))))
                               new)
                  (error "The undo log of %s is out of step with its text" (buffer-name)))
                (goto-char pos)
                (delete-region pos (+ pos (length new)))
                (insert old)))))
      (accept-change-group group)
      (undo-amalgamate-change-group group))))

;;;; The buffers of a session

(defun eddi-undo--owned-p (entry owner)
  "Non-nil when the log ENTRY is a change of OWNER."
  (and (= (length entry) 5) (equal (aref entry 3) owner)))

(defun eddi-undo--buffers (owner)
  "The live buffers whose log holds a change of OWNER."
  (cl-remove-if-not (lambda (buffer)
                      (cl-some (lambda (entry) (eddi-undo--owned-p entry owner))
                               (buffer-local-value 'eddi--undo-log buffer)))
                    (buffer-list)))

(defun eddi-undo-engine-can (buffer owner)
  "Non-nil when only OWNER's commands changed BUFFER since its first change.
The engine's Undo then still has the whole history.  A change made for
OWNER outside the engine (a review putting a rejected hunk back) is not
in that history."
  (let* ((log (buffer-local-value 'eddi--undo-log buffer))
         (oldest (cl-position-if (lambda (entry) (eddi-undo--owned-p entry owner)) log
                                 :from-end t)))
    (and oldest
         (cl-every (lambda (entry) (and (eddi-undo--owned-p entry owner)
                                        (not (eq (aref entry 4) 'outside))))
                   (cl-subseq log 0 oldest)))))

(defun eddi-undo-text-without (buffer owner)
  "BUFFER's text (widened) with OWNER's changes taken out, everyone else's kept.
nil when the log cannot say: a change eddi could not follow, or one of
someone else's that overlaps one of OWNER's."
  (let ((plan (eddi-undo--plan (buffer-local-value 'eddi--undo-log buffer) owner))
        (text (with-current-buffer buffer
                (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))))
    (when (plist-member plan :undo)
      (with-temp-buffer
        (insert text)
        (dolist (entry (plist-get plan :undo))
          (pcase-let ((`[,pos ,old ,new ,_ ,_] entry))
            (goto-char pos)
            (delete-region pos (+ pos (length new)))
            (insert old)))
        (buffer-string)))))

(defun eddi-undo-drop (buffer owner)
  "Forget OWNER's changes in BUFFER's log (the engine took them back)."
  (with-current-buffer buffer
    (setq eddi--undo-log (cl-remove-if (lambda (entry) (eddi-undo--owned-p entry owner))
                                       eddi--undo-log))))

(defun eddi-undo-plans (buffers owner)
  "Plans ((BUFFER . PLAN)...) taking OWNER's changes out of BUFFERS.
Signal a `user-error' naming the conflicting lines when one overlaps a
change of someone else, before anything is changed."
  (let ((plans (mapcar (lambda (buffer)
                         (cons buffer (eddi-undo--plan (buffer-local-value 'eddi--undo-log buffer)
                                                       owner)))
                       buffers))
        (problems nil))
    (pcase-dolist (`(,buffer . ,plan) plans)
      (cond
       ((plist-get plan :unknown)
        (push (format "%s: a change eddi could not follow" (buffer-name buffer)) problems))
       ((plist-get plan :conflict)
        (pcase-let ((`(,line . ,text)
                     (eddi-undo--line (with-current-buffer buffer
                                        (save-restriction (widen) (buffer-string)))
                                      (plist-get plan :conflict))))
          (push (format "%s:%d: %s" (buffer-name buffer) line text) problems)))))
    (when problems
      (user-error "eddi: Not undoing %s: your edits overlap its changes at %s"
                  owner (string-join (nreverse problems) "; ")))
    plans))

(defun eddi-undo-run (plans)
  "Carry out PLANS (from `eddi-undo-plans'); return the steps taken back."
  (let ((steps 0))
    (pcase-dolist (`(,buffer . ,plan) plans)
      (with-current-buffer buffer
        (eddi-undo--apply (plist-get plan :undo))
        (setq eddi--undo-log (plist-get plan :log))
        (cl-incf steps (plist-get plan :steps))))
    steps))

(provide 'eddi-undo)

;;; eddi-undo.el ends here
