;;; eddi-backend.el --- eddi.el's side of the live-buffer backend  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors

;; This file is part of eddi.

;;; Commentary:

;; The engine's Emacs module calls these functions to open, edit, sync and
;; save the buffers it works on (module/emacs/buffer_backend.c names each
;; of them).  They live apart from eddi.el because they are the contract with
;; the C side, not the user interface.  eddi.el loads this file.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar eddi-kill-buffers-on-close)
(defvar eddi-save-atomically)

;;;; Buffer backend (called by the module)

(cl-defstruct (eddi--tracker (:constructor eddi--tracker-create) (:copier nil))
  "One document's view of a buffer."
  id buffer
  tick                                  ; buffer-chars-modified-tick when in step
  dirty-beg dirty-end delta             ; user edits since, 0-based, or nil
  changes                               ; those edits as [BEG OLD-LEN TEXT], newest first
  (change-count 0)                      ; > `eddi-sync-max-changes': use the region
  group                                 ; the open change group of this command
  (groups 0)                            ; undo groups closed during this message
  user-saved                            ; Emacs saved the buffer since eddi did
  user-edits)                           ; unsaved edits not made by eddi (the user's)

(defconst eddi-sync-max-changes 64
  "User edits remembered one by one between two commands.
Past this many, only the region covering them is kept (and copied).")

(defvar eddi--trackers (make-hash-table)
  "Tracker ids (as the module knows them) to trackers.")

(defvar-local eddi--buffer-trackers nil
  "The trackers of the documents over this buffer.")
(put 'eddi--buffer-trackers 'permanent-local t)

(defvar-local eddi--visited-by-eddi nil
  "Non-nil when eddi visited this buffer (Close may kill it).")
(put 'eddi--visited-by-eddi 'permanent-local t)

(defvar eddi--editing nil
  "The tracker whose edit is being made, so its hook ignores it.")

(defvar eddi--saving nil
  "Non-nil while eddi saves a buffer.")

(defvar eddi--capture nil
  "When a hash table, buffers to their text before this message's first edit.")

(defvar eddi-after-edit-functions nil
  "Called with BUFFER BEG END after eddi changed the text of BUFFER.")

(defvar eddi-save-function)

(defun eddi--visit-held (file)
  "Visit FILE for a change whose saves are held; return its buffer.
With `eddi-save-function' set (an agent's review holds its saves), a
change must not write a file behind Emacs's back: each file it touches
is brought into a buffer, which takes the change and holds it.  A file
not made yet gets an empty buffer, written only when the review saves
it."
  (let ((buffer (let ((large-file-warning-threshold nil)
                      (inhibit-message t))
                  (find-file-noselect file t))))
    (with-current-buffer buffer
      (setq eddi--visited-by-eddi t)
      (unless (file-exists-p file)
        (setq buffer-file-coding-system 'utf-8-unix)
        ;; Emacs marks a new file in a missing folder read-only; the
        ;; review's save makes the folder.
        (setq buffer-read-only nil)))
    buffer))

(defun eddi--backend-copy (file text)
  "What Emacs holds of FILE: nil, or [MODIFIED TEXT].
A live buffer visiting FILE is its copy: MODIFIED is non-nil when it has
unsaved edits that eddi did not make (the user's: typed, or there when eddi
opened it), and TEXT is its whole text when TEXT is non-nil.  A change of
several files reads and writes FILE through that buffer, never behind it,
and leaves a MODIFIED one modified: the user's edits are never written by
eddi.  Unsaved edits of eddi's own are saved with the change, as in every
eddi front end.  While `eddi-save-function' holds saves, a file no
buffer visits is visited first (`eddi--visit-held'), so that the change
is held in its buffer too instead of written to the disk."
  (when-let ((buffer (or (find-buffer-visiting file)
                         (and eddi-save-function (eddi--visit-held file)))))
    (with-current-buffer buffer
      (vector (and (buffer-modified-p)
                   (or (null eddi--buffer-trackers)
                       (cl-some #'eddi--tracker-user-edits eddi--buffer-trackers))
                   t)
              (and text (eddi--whole-text))))))

(defun eddi--backend-copies (root)
  "A vector of the files below ROOT that a live buffer visits (true names)."
  (let ((prefix (file-name-as-directory root))
        (files nil))
    (dolist (buffer (buffer-list))
      (when-let ((name (and (buffer-live-p buffer) (not (buffer-base-buffer buffer))
                            (buffer-local-value 'buffer-file-truename buffer))))
        (let ((file (expand-file-name name)))
          (when (string-prefix-p prefix file) (push file files)))))
    (vconcat files)))

;;;; The session undo log

;; The engine's own undo history of a document is dropped as soon as the
;; user types in its buffer (its edits were made against the old text), so
;; session undo cannot rely on it alone.  Each buffer eddi edits therefore
;; keeps a log of every change to its text, newest first, each one
;; [POS OLD NEW OWNER STEP]: at position POS (of the widened buffer) text
;; OLD became NEW, made by the eddi sender OWNER (nil: the user) in eddi
;; command STEP.  eddi-undo.el takes one sender's changes out of that
;; history and keeps everyone else's.

(defvar-local eddi--undo-log nil
  "This buffer's changes since eddi first edited it, newest first.")
(put 'eddi--undo-log 'permanent-local t)

(defvar-local eddi--undo-before nil
  "(BEG END TEXT) of the change about to happen, from `before-change-functions'.")

(defvar eddi--undo-owner nil
  "The eddi sender whose command is running, so its edits are logged as its own.")

(defvar eddi--undo-step 0
  "Counts eddi commands that changed a buffer: the STEP of log entries.")

(defvar eddi--undoing nil
  "Non-nil while session undo edits a buffer (those edits are not logged).")

(defvar eddi--undo-outside-owner nil
  "The sender whose change is being made outside the engine, or nil.
A review that puts a rejected hunk of an agent back binds it: that
change is the agent's, logged as its own (STEP `outside'), so that
undoing the agent later takes both back and nothing of the user's.")

(defun eddi--undo-note-before (beg end)
  "Remember the text BEG..END that is about to change."
  (when (and eddi--undo-log (not eddi--editing) (not eddi--undoing))
    (setq eddi--undo-before (list beg end (buffer-substring-no-properties beg end)))))
(put 'eddi--undo-note-before 'permanent-local-hook t)

(defun eddi--undo-note-after (beg end old-len)
  "Log the user's change BEG..END (it replaced OLD-LEN characters)."
  (when (and eddi--undo-log (not eddi--editing) (not eddi--undoing))
    (let* ((before eddi--undo-before)
           (old (and before (= (car before) beg) (= (- (nth 1 before) beg) old-len)
                     (nth 2 before)))
           (new (buffer-substring-no-properties beg end))
           (last (car eddi--undo-log)))
      (setq eddi--undo-before nil)
      (cond
       ((not old) (push [:unknown] eddi--undo-log)) ; the history has a hole
       ((equal old new))                ; only text properties changed
       ;; Typing: one entry per run of inserted characters.
       ((and (equal old "") (= (length last) 5) (null (aref last 3))
             (null eddi--undo-outside-owner)
             (= beg (+ (aref last 0) (length (aref last 2)))))
        (aset last 2 (concat (aref last 2) new)))
       (t (push (vector beg old new eddi--undo-outside-owner
                        (and eddi--undo-outside-owner 'outside))
                eddi--undo-log))))))
(put 'eddi--undo-note-after 'permanent-local-hook t)

(defun eddi--fail (what &optional hint)
  "Refuse with WHAT (and HINT): the module turns it into Fail \"WHAT\", HINT."
  (signal 'eddi-error (if hint (list what hint) (list what))))

(defun eddi--live-tracker (id)
  "The tracker ID whose buffer is alive, or a Fail."
  (let ((tracker (gethash id eddi--trackers)))
    (unless tracker (eddi--fail "Buffer is no longer tracked"))
    (unless (buffer-live-p (eddi--tracker-buffer tracker))
      (eddi--fail "Buffer was killed" "Close it, then Open it again"))
    tracker))

(defun eddi--note-change (beg end old-len)
  "Grow each tracker's dirty region by a change of the buffer (BEG END OLD-LEN)."
  (dolist (tracker eddi--buffer-trackers)
    (unless (or eddi--editing eddi--undoing)
      (setf (eddi--tracker-user-edits tracker) t))
    (unless (eq tracker eddi--editing)
      (when (<= (cl-incf (eddi--tracker-change-count tracker)) eddi-sync-max-changes)
        (push (vector (1- beg) old-len (buffer-substring-no-properties beg end))
              (eddi--tracker-changes tracker)))
      (let ((beg (1- beg)) (end (1- end))
            (d (- end beg old-len))
            (dbeg (eddi--tracker-dirty-beg tracker))
            (dend (eddi--tracker-dirty-end tracker)))
        (if (not dbeg)
            (setf (eddi--tracker-dirty-beg tracker) beg
                  (eddi--tracker-dirty-end tracker) end
                  (eddi--tracker-delta tracker) d)
          (setf (eddi--tracker-dirty-beg tracker) (min dbeg beg)
                (eddi--tracker-dirty-end tracker) (if (<= (+ beg old-len) dend)
                                                      (max end (+ dend d))
                                                    end)
                (eddi--tracker-delta tracker) (+ (eddi--tracker-delta tracker) d)))))))
(put 'eddi--note-change 'permanent-local-hook t)

(defun eddi--note-save ()
  "Remember that Emacs saved the buffer, not eddi."
  (dolist (tracker eddi--buffer-trackers)
    (setf (eddi--tracker-user-edits tracker) nil)
    (unless eddi--saving
      (setf (eddi--tracker-user-saved tracker) t))))
(put 'eddi--note-save 'permanent-local-hook t)

(defun eddi--whole-text ()
  "The whole buffer, ignoring narrowing, without properties."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun eddi--backend-open (id file coding)
  "Track the buffer visiting FILE as ID; return its text.
Visit FILE with CODING when no buffer does yet."
  (let* ((existing (find-buffer-visiting file))
         (buffer (or existing
                     (let ((coding-system-for-read coding)
                           (large-file-warning-threshold nil)
                           (inhibit-message t))
                       (find-file-noselect file t)))))
    (with-current-buffer buffer
      (unless existing
        (setq eddi--visited-by-eddi t)
        (unless (file-exists-p file)
          (setq buffer-file-coding-system coding)
          ;; Emacs marks a new file in a missing folder read-only; eddi's
          ;; Save makes the folder.
          (setq buffer-read-only nil)))
      (let ((tracker (eddi--tracker-create :id id :buffer buffer
                                           :tick (buffer-chars-modified-tick)
                                           :user-edits (buffer-modified-p))))
        (puthash id tracker eddi--trackers)
        (push tracker eddi--buffer-trackers))
      (add-hook 'after-change-functions #'eddi--note-change nil t)
      (add-hook 'after-save-hook #'eddi--note-save nil t)
      (add-hook 'before-change-functions #'eddi--undo-note-before nil t)
      (add-hook 'after-change-functions #'eddi--undo-note-after nil t)
      (eddi--whole-text))))

(defun eddi--backend-sync (id chars full)
  "What changed in ID's buffer since the last sync, or nil.
CHARS is the length of the module's mirror.  The answer is a vector of
changes [BEG OLD-LEN TEXT] to apply in order (characters BEG..BEG+OLD-LEN,
0-based, became TEXT) or, when they are not known or FULL is non-nil,
the whole text."
  (let ((tracker (eddi--live-tracker id)))
    (with-current-buffer (eddi--tracker-buffer tracker)
      (let* ((tick (buffer-chars-modified-tick))
             (chars-moved (not (eql tick (eddi--tracker-tick tracker))))
             (beg (eddi--tracker-dirty-beg tracker))
             (end (eddi--tracker-dirty-end tracker))
             (delta (eddi--tracker-delta tracker))
             (changes (eddi--tracker-changes tracker))
             (count (eddi--tracker-change-count tracker)))
        (setf (eddi--tracker-dirty-beg tracker) nil
              (eddi--tracker-changes tracker) nil
              (eddi--tracker-change-count tracker) 0
              (eddi--tracker-tick tracker) tick)
        (cond ((and (not full) (not chars-moved))
               nil)                     ; at most text properties changed
              ((or full (not beg) (/= (+ chars delta) (buffer-size)))
               (eddi--whole-text))
              ((<= count eddi-sync-max-changes)
               (vconcat (nreverse changes)))
              (t
               (save-restriction
                 (widen)
                 (vector (vector beg (- end delta beg)
                                 (buffer-substring-no-properties (1+ beg) (1+ end)))))))))))

(defun eddi--check-supersession ()
  "Fail rather than let Emacs ask about a file changed on disk."
  (when (and buffer-file-name (not (buffer-modified-p))
             (not (verify-visited-file-modtime))
             (file-exists-p buffer-file-name)
             (not (and (fboundp 'userlock--check-content-unchanged)
                       (userlock--check-content-unchanged buffer-file-name))))
    (eddi--fail "File changed on disk since Open" "Revert the buffer, or Close and Open it")))

(defun eddi--backend-replace (id start end text)
  "Replace characters START..END (0-based) of ID's buffer with TEXT."
  (let* ((tracker (eddi--live-tracker id))
         (buffer (eddi--tracker-buffer tracker)))
    (with-current-buffer buffer
      (unless (and (eql (buffer-chars-modified-tick) (eddi--tracker-tick tracker))
                   (not (eddi--tracker-dirty-beg tracker)))
        (eddi--fail "Buffer changed during the command" "Run the command again"))
      (when buffer-read-only
        (eddi--fail "Buffer is read-only" "Make it writable (C-x C-q) first"))
      (eddi--check-supersession)
      (when (and eddi--capture (not (gethash buffer eddi--capture)))
        (puthash buffer (eddi--whole-text) eddi--capture))
      (unless (eddi--tracker-group tracker)
        (undo-boundary)
        (let ((group (prepare-change-group)))
          (activate-change-group group)
          (setf (eddi--tracker-group tracker) group)))
      ;; All or nothing: a C-g (or an error in a hook) midway puts the text
      ;; back, and the module then takes back the command's earlier edits.
      ;; Either way the buffer ends as the mirror expects, so the tracker
      ;; ignores both the edit and its cancellation.
      (let ((eddi--editing tracker)
            (old (save-restriction (widen) (buffer-substring-no-properties (1+ start) (1+ end)))))
        (unwind-protect
            (progn
              (atomic-change-group
                (save-restriction
                  (widen)
                  (save-excursion
                    (goto-char (1+ start))
                    (delete-region (1+ start) (1+ end))
                    (insert text)))
                (run-hook-with-args 'eddi-after-edit-functions buffer
                                    (1+ start) (+ 1 start (length text))))
              (cond (eddi--undoing)     ; session undo forgets these itself
                    (eddi--undo-owner
                     (push (vector (1+ start) old text eddi--undo-owner eddi--undo-step)
                           eddi--undo-log))
                    ;; A command run without a sender: the history has a hole.
                    (eddi--undo-log (push [:unknown] eddi--undo-log))))
          (setf (eddi--tracker-tick tracker) (buffer-chars-modified-tick)))))))

(defun eddi--backend-end-group (id)
  "The command is over: make ID's edits in it one undo step."
  (let ((tracker (gethash id eddi--trackers)))
    (when-let ((group (and tracker (eddi--tracker-group tracker))))
      (setf (eddi--tracker-group tracker) nil)
      (cl-incf (eddi--tracker-groups tracker))
      (cl-incf eddi--undo-step)
      (when (buffer-live-p (eddi--tracker-buffer tracker))
        (with-current-buffer (eddi--tracker-buffer tracker)
          (undo-amalgamate-change-group group)
          (accept-change-group group)
          (undo-boundary))))))

(defun eddi--backend-user-saved-p (id)
  "Non-nil when Emacs saved ID's buffer itself and the file is as it left it."
  (let ((tracker (eddi--live-tracker id)))
    (and (eddi--tracker-user-saved tracker)
         (verify-visited-file-modtime (eddi--tracker-buffer tracker)))))

(defvar eddi-save-function nil
  "When non-nil, a function that eddi's Save calls instead of writing.
It gets the buffer; the file stays as it is on disk, and the buffer
keeps its changes, modified, until someone saves it.  The engine takes
such a save as held, not written: its document stays modified (Save
replies \"Held for review\" and Close keeps it open), so the journal
keeps the edits against the file as it is on disk.  The agent binds
this while `eddi-agent-review' holds its edits for review.")

(defvar-local eddi--held-for-review nil
  "Non-nil while this buffer's changes wait for a review (Close keeps it).")
(put 'eddi--held-for-review 'permanent-local t)

(defun eddi-save-live-buffer (buffer &optional as-eddi)
  "Write BUFFER to its file as eddi's Save does: whole, hooks and backups run.
The file keeps its last line as found, and a missing folder is made.
With AS-EDDI nil the save counts as the user's own (as \[save-buffer]),
so that eddi's next Save does not take it for a change on disk."
  (with-current-buffer buffer
    (unless buffer-file-name (eddi--fail "Buffer visits no file"))
    (let ((dir (file-name-directory buffer-file-name)))
      (unless (file-directory-p dir) (make-directory dir t)))
    ;; The content was compared, so a new time stamp alone is no threat.
    (unless (verify-visited-file-modtime) (set-visited-file-modtime))
    (set-buffer-modified-p t)
    (let ((eddi--saving as-eddi)
          (require-final-newline nil)     ; the file keeps its last line as found
          (file-precious-flag (or file-precious-flag eddi-save-atomically))
          (inhibit-message t))
      (save-buffer))))

(defun eddi--backend-held-p (id)
  "Non-nil while ID's buffer holds changes that wait for a review.
After a save held for review, the engine keeps the document open on
Close while this says so."
  (let ((tracker (gethash id eddi--trackers)))
    (and tracker (buffer-live-p (eddi--tracker-buffer tracker))
         (buffer-local-value 'eddi--held-for-review (eddi--tracker-buffer tracker))
         t)))

(defun eddi--backend-save (id)
  "Save ID's buffer with `save-buffer' (hooks and backups run).
The module has checked that the file on disk is as eddi last saw it.
With `eddi-save-function' set, hand the buffer to it instead and return
`held': nothing is written, and the engine keeps the buffer's text as
unsaved (its journal too, so that a restart brings it back)."
  (let* ((tracker (eddi--live-tracker id))
         (buffer (eddi--tracker-buffer tracker)))
    (if eddi-save-function
        (progn (funcall eddi-save-function buffer)
               'held)
      (eddi-save-live-buffer buffer t)
      (with-current-buffer buffer
        (dolist (other eddi--buffer-trackers)
          (setf (eddi--tracker-user-saved other) nil)))
      nil)))

(defun eddi--save-coding ()
  "The coding system `basic-save-buffer' writes this buffer with."
  (or save-buffer-coding-system buffer-file-coding-system))

(defun eddi--save-bytes-uncertain ()
  "Why the bytes a save of this buffer writes cannot be known exactly, or nil.
A save that runs functions instead of `write-region' or around it (TRAMP
and other file handlers, `write-contents-functions', `write-file-functions',
annotations, file formats), or whose coding system leaves something open
\(the end of lines, a character it cannot encode), might write other bytes
than `encode-coding-string' gives."
  (let ((coding (eddi--save-coding)))
    (cond (eddi-save-function "its changes are held for review")
          ((not buffer-file-name) "it visits no file")
          ((buffer-base-buffer) "it is an indirect buffer")
          ((find-file-name-handler buffer-file-name 'write-region) "a file handler writes it")
          ((or write-contents-functions write-file-functions
               (bound-and-true-p local-write-file-hooks))
           "save hooks write it")
          ((or write-region-annotate-functions buffer-file-format)
           "it is saved in a file format")
          ((not enable-multibyte-characters) "it is unibyte")
          (selective-display "it hides lines")
          ((or (not (coding-system-p coding))
               (eq (coding-system-type coding) 'undecided)
               (vectorp (coding-system-eol-type coding))
               (coding-system-get coding :pre-write-conversion))
           "its coding system decides on save")
          ((save-restriction
             (widen)
             (unencodable-char-position (point-min) (point-max) coding))
           "a character cannot be encoded"))))

(defun eddi--backend-save-bytes (id)
  "The bytes a save of ID's buffer would write, one character per byte.
For a change of several files, which the module writes together (all or
nothing, and crash-safe with the journal) instead of calling
`save-buffer': the whole text encoded with the coding system a save
uses (`eddi--save-coding'), as `write-region' encodes it.  Fails when
that may not be what a save writes (`eddi--save-bytes-uncertain'): the
module then saves the buffer itself after the others."
  (let* ((tracker (eddi--live-tracker id))
         (buffer (eddi--tracker-buffer tracker)))
    (with-current-buffer buffer
      (when-let ((why (eddi--save-bytes-uncertain)))
        (eddi--fail (concat "Not written with the others: " why)))
      ;; latin-1-unix: one character per byte, line ends untouched.
      (decode-coding-string (encode-coding-string (eddi--whole-text) (eddi--save-coding) t)
                            'latin-1-unix t))))

(defun eddi--backend-saved (id)
  "The module wrote ID's buffer's bytes to its file: the buffer is saved.
It takes the file's new time and inode, its modified flag is cleared and
a recent auto-save file is deleted, as `basic-save-buffer' does after
writing.  `before-save-hook' did not run (the bytes written are the ones
the change computed); `after-save-hook' runs now, the file being in
place, and an error in it is only shown."
  (let ((tracker (gethash id eddi--trackers)))
    (when (and tracker (buffer-live-p (eddi--tracker-buffer tracker)))
      (with-current-buffer (eddi--tracker-buffer tracker)
        (let ((recent-save (recent-auto-save-p)))
          (set-visited-file-modtime)
          (setq buffer-file-number (nthcdr 10 (file-attributes buffer-file-name)))
          (set-buffer-modified-p nil)
          (delete-auto-save-file-if-necessary recent-save))
        (with-demoted-errors "eddi: vc-after-save: %S"
          (when (fboundp 'vc-after-save) (vc-after-save)))
        (dolist (other eddi--buffer-trackers)
          (setf (eddi--tracker-user-saved other) nil
                (eddi--tracker-user-edits other) nil))
        (let ((eddi--saving t))
          (with-demoted-errors "eddi: after-save-hook: %S"
            (run-hooks 'after-save-hook)))))))

(defun eddi--backend-release (id)
  "Stop tracking ID; kill its buffer if eddi visited it and nobody uses it."
  (let ((tracker (gethash id eddi--trackers)))
    (remhash id eddi--trackers)
    (when (and tracker (buffer-live-p (eddi--tracker-buffer tracker)))
      (with-current-buffer (eddi--tracker-buffer tracker)
        (when-let ((group (eddi--tracker-group tracker)))
          (accept-change-group group))
        (setq eddi--buffer-trackers (delq tracker eddi--buffer-trackers))
        (if eddi--buffer-trackers
            nil
          (remove-hook 'after-change-functions #'eddi--note-change t)
          (remove-hook 'after-save-hook #'eddi--note-save t)
          (when (and eddi-kill-buffers-on-close eddi--visited-by-eddi
                     (not eddi--held-for-review)
                     (not (get-buffer-window (current-buffer) t)))
            (set-buffer-modified-p nil)
            (let ((kill-buffer-query-functions nil))
              (kill-buffer))))))))

(defun eddi--tracker-buffer-of (id)
  "The live buffer of tracker ID, or nil."
  (when-let ((tracker (gethash id eddi--trackers)))
    (and (buffer-live-p (eddi--tracker-buffer tracker)) (eddi--tracker-buffer tracker))))

(provide 'eddi-backend)

;;; eddi-backend.el ends here
