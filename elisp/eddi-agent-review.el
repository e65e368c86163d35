;;; eddi-agent-review.el --- Review an eddi agent's edits before they reach the disk  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; With `eddi-agent-review' on, an agent's edits stay in the live
;; buffers, unsaved: its Save (and the saves of Edit and Patch) are held
;; (`eddi-save-function').  When the session ends, one review shows
;; every buffer it changed against its file on disk, as a unified diff
;; in a `diff-mode' buffer whose headers name the real files, relative
;; to the workspace.  Each hunk, and each file, is accepted or rejected;
;; \\[eddi-agent-review-commit] then undoes the rejected hunks in their
;; buffers and saves the buffers that keep something.  A buffer whose
;; every hunk was rejected is left as its file is, unmodified.
;;
;; Why the review works on lines of the buffer's text and the file's: the
;; diff is made by diff(1) from exactly those two texts, so each hunk's
;; line ranges name exactly what to put back.  Rejected hunks are undone
;; from the bottom of the buffer up, so the ranges above stay valid; the
;; buffer must still hold the text that was reviewed, or the review
;; refuses and asks to be refreshed.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff-mode)

(declare-function ediff-buffers "ediff" (buffer-a buffer-b &optional startup-hooks job-name))
(defvar eddi-save-atomically)
(defvar eddi--held-for-review)
(defvar eddi--undo-outside-owner)
(defvar eddi--undo-log)
(defvar eddi--undo-step)
(declare-function eddi-save-live-buffer "eddi-backend" (buffer &optional as-eddi))
(declare-function eddi-undo-text-without "eddi-undo" (buffer owner))

(defcustom eddi-agent-review t
  "Non-nil means an agent's edits are saved only once you accept them.
The agent's edits stay in the live buffers, unsaved, and when the
session ends one review (\\[eddi-agent-review-changes]) shows every
buffer it changed; only accepted hunks are saved.  nil lets the
agent's Save write at once."
  :type 'boolean
  :group 'eddi-agent)

(defcustom eddi-agent-review-diff-program "diff"
  "The diff(1) program that makes the review's hunks."
  :type 'string
  :group 'eddi-agent)

(defvar-local eddi-agent--auto-save-name nil
  "The auto-save file name this buffer had before an agent's edits held it.")

(define-minor-mode eddi-agent-held-mode
  "Shown while an agent's changes in this buffer wait for review.
The mode line says so, and the buffer makes no lock file and no
auto-save file next to its file meanwhile (they would land in your
repository; the journal keeps unsaved eddi edits).  The review turns
it off when it is committed."
  :lighter " eddi-held"
  :group 'eddi-agent
  (if eddi-agent-held-mode
      (when buffer-auto-save-file-name
        (setq eddi-agent--auto-save-name buffer-auto-save-file-name
              buffer-auto-save-file-name nil))
    (when eddi-agent--auto-save-name
      (setq buffer-auto-save-file-name eddi-agent--auto-save-name
            eddi-agent--auto-save-name nil))))

(defface eddi-agent-review-rejected-face '((t :inherit shadow :strike-through t))
  "A rejected hunk in the review."
  :group 'eddi-agent-faces)

(defface eddi-agent-review-state-face '((t :inherit font-lock-comment-face))
  "The accept / reject mark after a hunk's header."
  :group 'eddi-agent-faces)

(cl-defstruct (eddi-agent-review-file (:constructor eddi-agent-review-file--create)
                                      (:copier nil))
  "One changed buffer in a review."
  (buffer nil :documentation "The live buffer.")
  (path nil :documentation "Its file, relative to the workspace, as the headers name it.")
  (old nil :documentation "The buffer's text without the agent's changes: what a reject puts back.")
  (disk nil :documentation "The file's text on disk when the review was made.")
  (new nil :documentation "The buffer's text when the review was made.")
  (mixed nil :documentation "Non-nil when the agent's changes could not be told from the user's.")
  (hunks nil :documentation "Its hunks, in order."))

(cl-defstruct (eddi-agent-review-hunk (:constructor eddi-agent-review-hunk--create)
                                      (:copier nil))
  "One hunk: line ranges of the file's text (old) and of the buffer's (new)."
  old-start old-count new-start new-count
  (accepted t)
  overlay)

(defvar-local eddi-agent-review--files nil
  "The `eddi-agent-review-file's this review buffer shows.")

(defvar-local eddi-agent-review--on-done nil
  "Called with the list of saved files once the review is committed.")

(defvar-local eddi-agent-review--owner nil
  "The eddi sender whose changes this review shows.")

;;;; Making the review

(defun eddi-agent-review--disk-text (buffer)
  "The text of BUFFER's file on disk, decoded as the buffer decodes it."
  (let ((file (buffer-file-name buffer))
        (coding (buffer-local-value 'buffer-file-coding-system buffer)))
    (if (not (file-exists-p file))
        ""
      (with-temp-buffer
        (let ((coding-system-for-read coding))
          (insert-file-contents file))
        (buffer-string)))))

(defun eddi-agent-review--diff (old new path &optional context)
  "The unified diff of OLD against NEW, both headers naming PATH.
CONTEXT is how many lines of context each hunk has (diff's default: 3)."
  (let ((old-file (make-temp-file "eddi-review-old"))
        (new-file (make-temp-file "eddi-review-new")))
    (unwind-protect
        (let ((coding-system-for-write 'utf-8-unix)
              (coding-system-for-read 'utf-8-unix))
          (write-region old nil old-file nil 'silent)
          (write-region new nil new-file nil 'silent)
          (with-temp-buffer
            (call-process eddi-agent-review-diff-program nil t nil
                          (if context (format "-U%d" context) "-u")
                          "--label" path "--label" path old-file new-file)
            (buffer-string)))
      (delete-file old-file)
      (delete-file new-file))))

(defconst eddi-agent-review--hunk-regexp
  "^@@ -\\([0-9]+\\)\\(?:,\\([0-9]+\\)\\)? \\+\\([0-9]+\\)\\(?:,\\([0-9]+\\)\\)? @@"
  "A unified diff's hunk header.")

(defun eddi-agent-review--hunk-ranges (diff)
  "The (OLD-START OLD-COUNT NEW-START NEW-COUNT) of each hunk of DIFF, in order."
  (let ((start 0) ranges)
    (while (string-match eddi-agent-review--hunk-regexp diff start)
      (push (list (string-to-number (match-string 1 diff))
                  (if (match-string 2 diff) (string-to-number (match-string 2 diff)) 1)
                  (string-to-number (match-string 3 diff))
                  (if (match-string 4 diff) (string-to-number (match-string 4 diff)) 1))
            ranges)
      (setq start (match-end 0)))
    (nreverse ranges)))

(defun eddi-agent-review-claim (buffer owner old)
  "Log the difference of BUFFER's text from OLD as OWNER's changes.
For an agent session the journal brought back: its unsaved edits came
into BUFFER with the restart, made by no command of this Emacs, so the
session undo log has no entry for them.  Each changed run of lines
becomes one entry of OWNER's (as if it had made them top to bottom), so
that what you type from now on stays yours: the review then shows only
OWNER's changes and a reject keeps your typing."
  (with-current-buffer buffer
    (let* ((new (save-restriction (widen) (buffer-substring-no-properties
                                           (point-min) (point-max))))
           (step (cl-incf eddi--undo-step)))
      (pcase-dolist (`(,old-start ,old-count ,new-start ,new-count)
                     (eddi-agent-review--hunk-ranges
                      (eddi-agent-review--diff old new "claim" 0)))
        ;; A hunk of no new lines names the line after which it was.
        (let* ((line (if (= new-count 0) (1+ new-start) new-start))
               (from (with-temp-buffer
                       (insert new)
                       (eddi-agent-review--line-position line)))
               (was (eddi-agent-review--lines old old-start old-count))
               (now (eddi-agent-review--lines new line new-count)))
          ;; Newest first: the hunk further down is the later change, and
          ;; each one's position holds in the text after those above it.
          (push (vector from was now owner step) eddi--undo-log))))))

(defun eddi-agent-review--changed (buffers root owner)
  "The `eddi-agent-review-file's of BUFFERS in which OWNER changed something.
Each one's diff is of the buffer without OWNER's changes (what you
typed kept) against the buffer: only the agent's changes show, and a
reject puts back only what it replaced.  Where the log cannot tell them
apart (your edits overlap the agent's), the file is compared with its
file on disk and marked mixed.  Paths are relative to ROOT."
  (let (files)
    (dolist (buffer (delete-dups (copy-sequence buffers)))
      (when (and (buffer-live-p buffer) (buffer-file-name buffer))
        (let* ((disk (eddi-agent-review--disk-text buffer))
               (base (and owner (eddi-undo-text-without buffer owner)))
               (new (with-current-buffer buffer
                      (save-restriction (widen) (buffer-substring-no-properties
                                                 (point-min) (point-max))))))
          (unless (equal (or base disk) new)
            (push (eddi-agent-review-file--create
                   :buffer buffer :old (or base disk) :disk disk :new new
                   :mixed (and owner (not base))
                   :path (file-relative-name (buffer-file-name buffer) root))
                  files)))))
    (nreverse files)))

(defun eddi-agent-review--insert (file)
  "Insert FILE's diff at point and fill in its hunks."
  (let ((start (point)))
    (when (eddi-agent-review-file-mixed file)
      (insert (format "# %s: your edits overlap the agent's; this is the buffer against its file, and the review leaves it as it is, unsaved\n"
                      (eddi-agent-review-file-path file))))
    (insert (eddi-agent-review--diff (eddi-agent-review-file-old file)
                                     (eddi-agent-review-file-new file)
                                     (eddi-agent-review-file-path file)))
    (save-excursion
      (goto-char start)
      (let (hunks)
        (while (re-search-forward eddi-agent-review--hunk-regexp nil t)
          (let ((hunk (eddi-agent-review-hunk--create
                       :old-start (string-to-number (match-string 1))
                       :old-count (if (match-string 2) (string-to-number (match-string 2)) 1)
                       :new-start (string-to-number (match-string 3))
                       :new-count (if (match-string 4) (string-to-number (match-string 4)) 1)
                       :overlay (make-overlay (line-beginning-position) (line-end-position)))))
            (overlay-put (eddi-agent-review-hunk-overlay hunk) 'eddi-agent-review-hunk hunk)
            (overlay-put (eddi-agent-review-hunk-overlay hunk) 'eddi-agent-review-file file)
            (push hunk hunks)))
        (setf (eddi-agent-review-file-hunks file) (nreverse hunks))))
    (put-text-property start (point) 'eddi-agent-review-file file)))

(defun eddi-agent-review-buffer-name (owner)
  "The name of the review of OWNER's changes: one buffer per agent session."
  (if owner (format "*eddi-review %s*" owner) "*eddi-review*"))

(defun eddi-agent-review-show (buffers root &optional on-done owner)
  "Review the changes OWNER made in BUFFERS; return the review buffer.
OWNER is the agent's eddi sender; nil compares BUFFERS with their
files.  The review buffer is OWNER's own (`eddi-agent-review-buffer-name'),
so that the reviews of several sessions wait side by side.  Paths are
shown relative to ROOT.  ON-DONE is called with the files saved once
the review is committed.  nil when nothing is left to review."
  (when-let ((files (eddi-agent-review--changed buffers root owner)))
    (dolist (file files)
      (with-current-buffer (eddi-agent-review-file-buffer file)
        (setq eddi--held-for-review t)
        (eddi-agent-held-mode 1)))
    (let ((review (get-buffer-create (eddi-agent-review-buffer-name owner))))
      (with-current-buffer review
        (let ((inhibit-read-only t))
          (erase-buffer)
          (delete-all-overlays)
          (setq default-directory (file-name-as-directory root))
          (insert (substitute-command-keys
                   (concat "\\<eddi-agent-review-mode-map>"
                           "eddi-agent review: \\[eddi-agent-review-accept-hunk] accept a hunk, "
                           "\\[eddi-agent-review-reject-hunk] reject it, "
                           "\\[eddi-agent-review-accept-file] / \\[eddi-agent-review-reject-file] "
                           "the whole file, \\[eddi-agent-review-ediff] ediff, "
                           "\\[eddi-agent-review-commit] save what is accepted, "
                           "\\[eddi-agent-review-reject-all] reject everything\n")))
          (mapc #'eddi-agent-review--insert files))
        (eddi-agent-review-mode)
        (setq eddi-agent-review--files files
              eddi-agent-review--on-done on-done
              eddi-agent-review--owner owner)
        (mapc #'eddi-agent-review--paint files)
        (goto-char (point-min))
        (when (re-search-forward eddi-agent-review--hunk-regexp nil t)
          (goto-char (line-beginning-position))))
      review)))

;;;; The review buffer

(defvar eddi-agent-review-mode-map
  (let ((map (make-sparse-keymap)))
    ;; diff-mode's single-key commands too (n, p, RET...): in a read-only
    ;; buffer diff-mode puts them above the major mode's map, so this map
    ;; takes their place there (see `eddi-agent-review-mode').
    (set-keymap-parent map (make-composed-keymap diff-mode-shared-map diff-mode-map))
    (define-key map (kbd "a") #'eddi-agent-review-accept-hunk)
    (define-key map (kbd "r") #'eddi-agent-review-reject-hunk)
    (define-key map (kbd "A") #'eddi-agent-review-accept-file)
    (define-key map (kbd "R") #'eddi-agent-review-reject-file)
    (define-key map (kbd "e") #'eddi-agent-review-ediff)
    (define-key map (kbd "C-c C-c") #'eddi-agent-review-commit)
    (define-key map (kbd "C-c C-k") #'eddi-agent-review-reject-all)
    map)
  "Keys of `eddi-agent-review-mode'.")

(define-derived-mode eddi-agent-review-mode diff-mode "Eddi-Review"
  "Accept or reject an eddi agent's changes hunk by hunk before they are saved.
\\[eddi-agent-review-accept-hunk] and \\[eddi-agent-review-reject-hunk] mark the hunk at point,
\\[eddi-agent-review-accept-file] and \\[eddi-agent-review-reject-file] every hunk of its file;
\\[eddi-agent-review-commit] undoes the rejected hunks in their buffers and
saves the rest; \\[eddi-agent-review-ediff] compares a file in ediff.

\\{eddi-agent-review-mode-map}"
  (setq buffer-read-only t)
  (setq-local minor-mode-overriding-map-alist
              (cons (cons 'buffer-read-only eddi-agent-review-mode-map)
                    (assq-delete-all 'buffer-read-only
                                     (copy-sequence minor-mode-overriding-map-alist)))))

(defun eddi-agent-review--paint (file)
  "Show the state of FILE's hunks."
  (dolist (hunk (eddi-agent-review-file-hunks file))
    (let ((overlay (eddi-agent-review-hunk-overlay hunk))
          (accepted (eddi-agent-review-hunk-accepted hunk)))
      (overlay-put overlay 'after-string
                   (propertize (if accepted "   [accept]" "   [reject]")
                               'face 'eddi-agent-review-state-face))
      (overlay-put overlay 'face (and (not accepted) 'eddi-agent-review-rejected-face)))))

(defun eddi-agent-review--hunk-at-point ()
  "The hunk whose lines hold point, or an error."
  (save-excursion
    (end-of-line)
    (or (and (re-search-backward eddi-agent-review--hunk-regexp nil t)
             (cl-loop for overlay in (overlays-at (point))
                      thereis (overlay-get overlay 'eddi-agent-review-hunk)))
        (user-error "No hunk here"))))

(defun eddi-agent-review--file-at-point ()
  "The file whose diff holds point, or an error."
  (or (get-text-property (point) 'eddi-agent-review-file)
      (save-excursion (end-of-line)
                      (and (re-search-backward eddi-agent-review--hunk-regexp nil t)
                           (get-text-property (point) 'eddi-agent-review-file)))
      (user-error "No file here")))

(defun eddi-agent-review--mark-hunk (accepted)
  "Mark the hunk at point ACCEPTED (or not) and move to the next one."
  (let ((hunk (eddi-agent-review--hunk-at-point)))
    (setf (eddi-agent-review-hunk-accepted hunk) accepted)
    (eddi-agent-review--paint (overlay-get (eddi-agent-review-hunk-overlay hunk)
                                           'eddi-agent-review-file))
    (goto-char (overlay-start (eddi-agent-review-hunk-overlay hunk)))
    (forward-line 1)
    (if (re-search-forward eddi-agent-review--hunk-regexp nil t)
        (goto-char (line-beginning-position))
      (goto-char (overlay-start (eddi-agent-review-hunk-overlay hunk))))))

(defun eddi-agent-review-accept-hunk ()
  "Accept the hunk at point: it is saved by \\[eddi-agent-review-commit]."
  (interactive)
  (eddi-agent-review--mark-hunk t))

(defun eddi-agent-review-reject-hunk ()
  "Reject the hunk at point: \\[eddi-agent-review-commit] undoes it in its buffer."
  (interactive)
  (eddi-agent-review--mark-hunk nil))

(defun eddi-agent-review--mark-file (file accepted)
  "Mark every hunk of FILE ACCEPTED (or not)."
  (dolist (hunk (eddi-agent-review-file-hunks file))
    (setf (eddi-agent-review-hunk-accepted hunk) accepted))
  (eddi-agent-review--paint file))

(defun eddi-agent-review-accept-file ()
  "Accept every hunk of the file at point."
  (interactive)
  (eddi-agent-review--mark-file (eddi-agent-review--file-at-point) t))

(defun eddi-agent-review-reject-file ()
  "Reject every hunk of the file at point."
  (interactive)
  (eddi-agent-review--mark-file (eddi-agent-review--file-at-point) nil))

(defun eddi-agent-review-ediff ()
  "Compare the file at point on disk with its buffer in `ediff'."
  (interactive)
  (require 'ediff)
  (let* ((file (eddi-agent-review--file-at-point))
         (disk (get-buffer-create (format "*eddi-review disk: %s*" (eddi-agent-review-file-path file)))))
    (with-current-buffer disk
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (eddi-agent-review-file-old file)))
      (set-buffer-modified-p nil)
      (setq buffer-read-only t))
    (ediff-buffers disk (eddi-agent-review-file-buffer file))))

;;;; Committing

(defun eddi-agent-review--line-position (line)
  "The position where LINE (1-based) starts, or `point-max' past the end."
  (goto-char (point-min))
  (forward-line (1- line))
  (point))

(defun eddi-agent-review--lines (text start count)
  "COUNT lines of TEXT from line START (1-based), newlines kept."
  (if (= count 0)
      ""
    (with-temp-buffer
      (insert text)
      (let ((beg (eddi-agent-review--line-position start)))
        (forward-line count)
        (buffer-substring-no-properties beg (point))))))

(defun eddi-agent-review--undo-hunk (file hunk)
  "Put the file's text of HUNK back in FILE's buffer (the current buffer)."
  (let* ((count (eddi-agent-review-hunk-new-count hunk))
         ;; A hunk of no new lines names the line after which it was.
         (line (if (= count 0)
                   (1+ (eddi-agent-review-hunk-new-start hunk))
                 (eddi-agent-review-hunk-new-start hunk)))
         (old (eddi-agent-review--lines (eddi-agent-review-file-old file)
                                        (eddi-agent-review-hunk-old-start hunk)
                                        (eddi-agent-review-hunk-old-count hunk))))
    (save-excursion
      (let ((beg (eddi-agent-review--line-position line)))
        (forward-line count)
        (let ((end (point)))
          (goto-char beg)
          (delete-region beg end)
          (insert old))))))

(defun eddi-agent-review--apply (file owner)
  "Undo FILE's rejected hunks in its buffer; save it if something is left.
The hunks put back are OWNER's changes (logged as its own).  A buffer
that also holds your unsaved edits is not saved: they are yours to
save; nor is a mixed one changed at all (a reject there could take
your typing).  Return (PATH . HOW), HOW `saved' or `kept'
\(left in the buffer, unsaved), or nil when the buffer is as its file."
  (let* ((buffer (eddi-agent-review-file-buffer file))
         (rejected (cl-remove-if #'eddi-agent-review-hunk-accepted
                                 (eddi-agent-review-file-hunks file)))
         (mixed (eddi-agent-review-file-mixed file))
         (path (eddi-agent-review-file-path file)))
    (with-current-buffer buffer
      (setq eddi--held-for-review nil)
      (eddi-agent-held-mode -1)
      (unless mixed
        (let ((eddi--undo-outside-owner owner))
          (save-restriction
            (widen)
            (dolist (hunk (reverse rejected))
              (eddi-agent-review--undo-hunk file hunk)))))
      (let ((text (save-restriction (widen) (buffer-substring-no-properties
                                             (point-min) (point-max)))))
        (cond
         ((equal text (eddi-agent-review-file-disk file))
          (set-buffer-modified-p nil)
          nil)
         ((or mixed (not (equal (eddi-agent-review-file-old file)
                                (eddi-agent-review-file-disk file))))
          (cons path 'kept))
         (t (eddi-save-live-buffer buffer)
            (cons path 'saved)))))))

(defun eddi-agent-review--check (file)
  "Refuse when FILE's buffer no longer holds the reviewed text, or its file moved."
  (let ((buffer (eddi-agent-review-file-buffer file)))
    (unless (buffer-live-p buffer)
      (user-error "The buffer of %s was killed" (eddi-agent-review-file-path file)))
    (unless (equal (with-current-buffer buffer
                     (save-restriction (widen) (buffer-substring-no-properties
                                                (point-min) (point-max))))
                   (eddi-agent-review-file-new file))
      (user-error "%s changed since the review was made; review it again (M-x eddi-agent-review-changes)"
                  (eddi-agent-review-file-path file)))
    (unless (equal (eddi-agent-review--disk-text buffer) (eddi-agent-review-file-disk file))
      (user-error "%s changed on disk since the review was made; review it again"
                  (eddi-agent-review-file-path file)))))

(defun eddi-agent-review-commit ()
  "Undo the rejected hunks in their buffers and save what is accepted.
A buffer with nothing accepted is left unmodified, as its file is.
Return the paths saved."
  (interactive)
  (let ((files eddi-agent-review--files)
        (on-done eddi-agent-review--on-done)
        (owner eddi-agent-review--owner)
        (review (current-buffer)))
    (mapc #'eddi-agent-review--check files)
    (let* ((outcome (delq nil (mapcar (lambda (file) (eddi-agent-review--apply file owner))
                                      files)))
           (saved (mapcar #'car (cl-remove-if-not (lambda (o) (eq (cdr o) 'saved)) outcome)))
           (kept (mapcar #'car (cl-remove-if-not (lambda (o) (eq (cdr o) 'kept)) outcome))))
      (when-let ((window (get-buffer-window review t)))
        (quit-window nil window))
      (kill-buffer review)
      (message "eddi-agent: saved %s%s" (if saved (string-join saved ", ") "nothing")
               (if kept
                   (format "; kept unsaved, as they hold your own edits: %s"
                           (string-join kept ", "))
                 ""))
      (when on-done (funcall on-done saved))
      saved)))

(defun eddi-agent-review-reject-all ()
  "Reject every change of the review and commit: nothing is saved."
  (interactive)
  (dolist (file eddi-agent-review--files)
    (eddi-agent-review--mark-file file nil))
  (eddi-agent-review-commit))

(defun eddi-agent-review-accept-all ()
  "Accept every change of the review and commit: everything is saved."
  (interactive)
  (dolist (file eddi-agent-review--files)
    (eddi-agent-review--mark-file file t))
  (eddi-agent-review-commit))

(provide 'eddi-agent-review)

;;; eddi-agent-review.el ends here
