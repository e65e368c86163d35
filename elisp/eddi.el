;;; eddi.el --- An editor that language models drive, over live buffers  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; Eddi runs short EddiSpeak commands ("Open src/app.py", "Find /def main/",
;; "Insert Line \"import sys\"") and answers each with one terse line
;; ("Ok, At 3:0", "Fail \"Not found\"").  The engine is C, loaded as the
;; dynamic module eddi-module.so; here every file eddi opens is a live
;; buffer, so the model edits what you see, font-lock and markers keep
;; working, and each eddi command is one undo step.
;;
;; Entry points:
;;   M-x eddi             a transcript buffer: type after "To Eddi:", RET sends
;;   M-x eddi-send        one message from anywhere, the reply in the echo area
;;   M-x eddi-undo-session  take back every change of the session, in every buffer
;;   (eddi-exec COMMANDS &optional SENDER)  the reply text, for programs
;;   M-x eddi-nats-connect  let agents elsewhere drive these buffers over NATS
;;   M-x eddi-menu        every command in one menu (transient when available;
;;                        eddi-menu.el)
;;   `eddi-command-map'   a prefix map of them all, unbound: bind it yourself,
;;                        (global-set-key (kbd "C-c e") eddi-command-map)
;;
;; Installation: the module is a C library built from the same sources.
;; With the sources on `load-path' (package-vc-install, or use-package
;; :load-path), M-x eddi-module-compile builds it with CMake and puts it
;; beside this file, where (require 'eddi-module) finds it.
;;
;; How the module and this file share the work: the module owns the engine
;; (sessions, cursors, undo history, the text mirror) and calls the
;; `eddi--backend-*' functions below whenever it must touch a buffer.  Those
;; functions name buffers by an integer id, so the C side never holds a Lisp
;; object between calls.  User edits are noticed by a buffer-local
;; `after-change-functions' hook that keeps one dirty region per document;
;; before the next command the module copies just that region.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup eddi nil
  "An editor that language models drive, over live buffers."
  :group 'tools
  :prefix "eddi-")

(defgroup eddi-module nil
  "Finding and building eddi-module.so."
  :group 'eddi
  :prefix "eddi-module-")

(defgroup eddi-buffers nil
  "How eddi edits, saves, shows and closes live buffers."
  :group 'eddi)

(defgroup eddi-nats nil
  "Serving eddi to agents outside Emacs over NATS."
  :group 'eddi
  :prefix "eddi-nats-")

(defgroup eddi-faces nil
  "Faces of the transcript and of edited buffers."
  :group 'eddi
  :group 'faces)

(defcustom eddi-module-directory nil
  "Folder holding eddi-module.so, or nil to look beside eddi.el.
When nil, eddi also tries ../build/module/emacs relative to eddi.el,
where the build command of eddi's README puts the module."
  :type '(choice (const :tag "Beside eddi.el or in the build folder" nil) directory)
  :group 'eddi-module)

(defcustom eddi-root nil
  "The workspace folder eddi may edit, or nil for the project root.
With nil, the root of the current project (or `default-directory')
when eddi is first used.  Paths outside it are refused."
  :type '(choice (const :tag "Project root at first use" nil) directory)
  :group 'eddi)

(defgroup eddi-lsp nil
  "The language servers eddi asks (doc/lsp.org)."
  :group 'eddi)

(defcustom eddi-lsp t
  "Non-nil means eddi asks the languages' servers.
Validate shows their diagnostics, and they check every Refactor,
Modify and script before it writes.  The servers are those
`eddi-lsp-servers' names, then those the workspace's .eddi/lsp.conf
names, then the usual programs found on PATH (clangd,
pyright-langserver, typescript-language-server); nil starts none.
Takes effect when the engine is made."
  :type 'boolean
  :group 'eddi-lsp)

(defcustom eddi-lsp-servers nil
  "Language servers by language: an alist of (LANG . COMMAND).
LANG is eddi's name of the language (\"c\", \"python\",
\"typescript\"); COMMAND the program and its arguments, split at
spaces.  Takes effect when the engine is made."
  :type '(alist :key-type string :value-type string)
  :group 'eddi-lsp)

(defcustom eddi-lsp-from-eglot t
  "Non-nil means eddi runs the servers eglot runs.
When the engine is made, a language `eddi-lsp-servers' does not name
takes the command of the server eglot runs for a buffer of that
language in the workspace, else the command `eglot-server-programs'
names for the language's major mode.  eddi starts its own process of
that command: it shows a server the texts of a plan before they are
written and asks from worker threads, which eglot's connection (its
own document versions, driven from the command loop) cannot share.
Contacts that are not a program and its arguments (a function, a TCP
port) are left to eglot."
  :type 'boolean
  :group 'eddi-lsp)

(defcustom eddi-lsp-trust-workspace nil
  "Non-nil means the servers a workspace's .eddi/lsp.conf names may run.
A project's file naming a program is otherwise refused, saying so,
since a cloned project would choose what runs.  Takes effect when
the engine is made."
  :type 'boolean
  :group 'eddi-lsp)

(defcustom eddi-sender "emacs"
  "The sender name of messages typed in this Emacs.
Each sender has its own session."
  :type 'string
  :group 'eddi)

(defcustom eddi-session-name "emacs"
  "Session that \\[eddi] starts when the sender has none, or nil for none."
  :type '(choice (const :tag "Do not start one" nil) string)
  :group 'eddi)

(defcustom eddi-save-atomically t
  "Non-nil means eddi's Save writes a new file and renames it.
That is `file-precious-flag' for eddi's saves: a file is written whole
or not at all, as in the headless eddi."
  :type 'boolean
  :group 'eddi-buffers)

(defcustom eddi-kill-buffers-on-close t
  "Non-nil means Close kills a buffer that eddi itself visited.
Buffers you had open, and buffers shown in a window, are kept."
  :type 'boolean
  :group 'eddi-buffers)

(defcustom eddi-display-opened-files t
  "Non-nil means a message of \\[eddi] or \\[eddi-send] that Opens a file shows it."
  :type 'boolean
  :group 'eddi-buffers)

(defcustom eddi-pulse-seconds 0.6
  "How long changed regions stay highlighted after a command; 0 for never."
  :type 'number
  :group 'eddi-buffers)

(defcustom eddi-preview-multi-file t
  "Non-nil means a message that changes several buffers shows a diff.
The diff buffer accepts the change (\\<eddi-preview-mode-map>\\[eddi-preview-accept]) or rejects
it (\\[eddi-preview-reject])."
  :type 'boolean
  :group 'eddi-buffers)

(defcustom eddi-nats-url "nats://127.0.0.1:4222"
  "The NATS server that \\[eddi-nats-connect] connects to by default."
  :type 'string
  :group 'eddi-nats)

(defcustom eddi-nats-name nil
  "The instance name this Emacs serves NATS as, or nil for emacs-HOST-PID.
Agents reach it on the subject eddi.NAME.cmd; a Start over NATS answers
\"Ok, Instance NAME\".  Characters other than letters, digits, - and _
become -, and the name is cut to 64 characters."
  :type '(choice (const :tag "emacs-HOST-PID" nil) string)
  :group 'eddi-nats)

(defcustom eddi-nats-max-queue 64
  "How many NATS requests may wait for Emacs.
More are answered \"Fail \"Busy, retry\"\" at once."
  :type 'natnum
  :group 'eddi-nats)

(defface eddi-input-face '((t :inherit font-lock-keyword-face))
  "The \"To Eddi:\" prompt in the transcript."
  :group 'eddi-faces)
(defface eddi-ok-face '((t :inherit success))
  "An Ok reply in the transcript."
  :group 'eddi-faces)
(defface eddi-fail-face '((t :inherit error))
  "A Fail reply in the transcript."
  :group 'eddi-faces)
(defface eddi-cursor-face '((t :inherit cursor :inverse-video t))
  "The model's cursor in an edited buffer."
  :group 'eddi-faces)
(defface eddi-changed-face '((t :inherit highlight))
  "Regions that the last command changed."
  :group 'eddi-faces)

(define-error 'eddi-error "eddi")

;; Defined by eddi-module.so when it is loaded.
(declare-function eddi-module-new "eddi-module"
                  (root &optional no-lsp lsp-commands trust-workspace))
(declare-function eddi-module-free "eddi-module" (engine))
(declare-function eddi-module-exec "eddi-module" (engine sender text &optional via-nats session))
(declare-function eddi-module-nats-connect "eddi-module" (engine process url instance max-queue))
(declare-function eddi-module-nats-take "eddi-module" (engine))
(declare-function eddi-module-nats-reply "eddi-module" (engine id reply))
(declare-function eddi-module-nats-drain "eddi-module" (engine))
(declare-function eddi-module-nats-disconnect "eddi-module" (engine))
(declare-function eddi-module-nats-instance "eddi-module" (engine))
(declare-function eddi-module-root "eddi-module" (engine))
(declare-function eddi-module-session "eddi-module" (engine sender))
(declare-function eddi-module-cursor "eddi-module" (engine sender))
(declare-function eddi-module-version "eddi-module" ())
(declare-function diff-no-select "diff" (old new &optional switches no-async buf))
(declare-function project-root "project" (project))

(defconst eddi-version "0.1.0"
  "The version of eddi.el; the module must be the same version.")

;;;; The module

(defconst eddi--directory
  (file-name-directory (or load-file-name buffer-file-name default-directory))
  "Where eddi.el was loaded from.")

(defun eddi--module-candidates ()
  "Where to look for eddi-module.so, in order, after `load-path'."
  (delq nil (list eddi-module-directory
                  eddi--directory
                  (expand-file-name "../build/module/emacs" eddi--directory))))

(defun eddi--find-module ()
  "The eddi-module.so file to load, or one clear error.
`eddi-module-directory' comes first, then every folder of `load-path'
\(where `eddi-module-compile' puts the module, as vterm does), then the
folder of eddi.el and the build folder beside it."
  (unless module-file-suffix
    (user-error "eddi: This Emacs cannot load dynamic modules"))
  (or (let ((file (and eddi-module-directory
                       (expand-file-name "eddi-module.so" eddi-module-directory))))
        (and file (file-exists-p file) file))
      (locate-file "eddi-module" load-path (list module-file-suffix))
      (cl-loop for dir in (eddi--module-candidates)
               for file = (expand-file-name "eddi-module.so" dir)
               when (file-exists-p file) return file)
      (user-error "eddi: Module eddi-module.so not found in %s or on load-path; build it with M-x eddi-module-compile (C-u first to name the folder of eddi's sources), or cmake -S . -B build && cmake --build build there, or set `eddi-module-directory'"
                  (string-join (eddi--module-candidates) ", "))))

(defun eddi-load-module ()
  "Load eddi-module.so if it is not loaded; one clear error if it cannot be.
When it is missing and Emacs is interactive, offer to build it first
\(\[eddi-module-compile])."
  (unless (featurep 'eddi-module)
    (let ((file (condition-case err
                    (eddi--find-module)
                  (user-error
                   (if (and (not noninteractive)
                            (file-exists-p (eddi--module-source "CMakeLists.txt"))
                            (y-or-n-p "eddi: The module eddi-module.so is missing; build it now with CMake? "))
                       (progn
                         (display-buffer (eddi-module-compile))
                         (user-error "eddi: Building eddi-module.so in *eddi-module-compile*; run this again once it has finished"))
                     (signal (car err) (cdr err)))))))
      (condition-case err
          (module-load file)
        (error (user-error "eddi: Cannot load %s: %s" file (error-message-string err))))))
  (let ((version (eddi-module-version)))
    (unless (equal version eddi-version)
      (user-error "eddi: The module is version %s but eddi.el is %s; rebuild the module (M-x eddi-module-compile)"
                  version eddi-version))))

;;;; Building the module

(defcustom eddi-module-compile-arguments nil
  "Extra arguments for the CMake configure step of \[eddi-module-compile].
For instance (\"-DCMAKE_C_COMPILER_LAUNCHER=ccache\")."
  :type '(repeat string)
  :group 'eddi-module)

(defcustom eddi-cmake-program "cmake"
  "The cmake executable that \[eddi-module-compile] runs."
  :type 'string
  :group 'eddi-module)

(defcustom eddi-module-source-directory nil
  "Folder of eddi's sources, with CMakeLists.txt, to build the module from.
nil means the folder above eddi.el, as a checkout or a package made
from one has it."
  :type '(choice (const :tag "The folder above eddi.el" nil) directory)
  :group 'eddi-module)

(defconst eddi-module-compile-jobs 2
  "Parallel jobs of the build: the engine's grammars are large C files.")

(defun eddi--module-source (file &optional source)
  "FILE in eddi's sources: SOURCE, `eddi-module-source-directory' or above elisp/."
  (expand-file-name file (or source eddi-module-source-directory
                             (expand-file-name ".." eddi--directory))))

(defun eddi--module-compile-commands (source build target)
  "The commands that build SOURCE in BUILD and copy the module to TARGET."
  (list (cons eddi-cmake-program `("-S" ,source "-B" ,build ,@eddi-module-compile-arguments))
        (list eddi-cmake-program "--build" build "--target" "eddi-module"
              "-j" (number-to-string eddi-module-compile-jobs))
        (list "cp" (expand-file-name "module/emacs/eddi-module.so" build) target)))

(declare-function compilation-start "compile"
                  (command &optional mode name-function highlight-regexp continue))

;;;###autoload
(defun eddi-module-compile (&optional source wait)
  "Build eddi-module.so from eddi's sources with CMake.
As vterm does: configure SOURCE (default: `eddi-module-source-directory',
else the folder above eddi.el) into its build/ folder, build the module
target, and copy eddi-module.so beside eddi.el, on `load-path', where
`eddi-load-module' finds it.  Interactively, and when no sources are
there, it asks for their folder (with a prefix argument, always).

The build runs asynchronously in the `compilation-mode' buffer
*eddi-module-compile*, so Emacs goes on; \\[eddi] works once it says
finished.  In batch Emacs, or with WAIT, it runs to the end and returns
the module's file."
  (interactive
   (list (and (or current-prefix-arg
                  (not (file-exists-p (eddi--module-source "CMakeLists.txt"))))
              (read-directory-name "eddi: Sources of eddi (the folder with CMakeLists.txt): "))))
  (let* ((source (directory-file-name (eddi--module-source "." source)))
         (build (expand-file-name "build" source))
         (target (expand-file-name "eddi-module.so" eddi--directory))
         (commands (eddi--module-compile-commands source build target)))
    (unless (file-exists-p (expand-file-name "CMakeLists.txt" source))
      (user-error "eddi: No CMakeLists.txt in %s: these are not eddi's sources; name them with C-u M-x eddi-module-compile or `eddi-module-source-directory'"
                  source))
    (unless (executable-find eddi-cmake-program)
      (user-error "eddi: Cmake not found; install cmake and a C compiler first"))
    (if (or wait noninteractive)
        (eddi--module-compile-wait commands source target)
      (require 'compile)
      (let* ((default-directory (file-name-as-directory source))
             (buffer (compilation-start
                      (mapconcat (lambda (command) (mapconcat #'shell-quote-argument command " "))
                                 commands " && ")
                      nil (lambda (_mode) "*eddi-module-compile*"))))
        (with-current-buffer buffer
          (add-hook 'compilation-finish-functions
                    (lambda (_buffer how)
                      (message "eddi: %s" (if (string-prefix-p "finished" how)
                                              (format "built %s; M-x eddi loads it" target)
                                            (format "building eddi-module.so failed: %s"
                                                    (string-trim how)))))
                    nil t))
        buffer))))

(defun eddi--module-compile-wait (commands source target)
  "Run COMMANDS in SOURCE, output in *eddi-module-compile*; return TARGET."
  (let ((buffer (get-buffer-create "*eddi-module-compile*"))
        (default-directory (file-name-as-directory source)))
    (with-current-buffer buffer
      (let ((inhibit-read-only t)) (erase-buffer)))
    (dolist (command commands)
      (with-current-buffer buffer
        (goto-char (point-max))
        (insert "$ " (mapconcat #'shell-quote-argument command " ") "\n"))
      (unless (eql 0 (apply #'call-process (car command) nil buffer nil (cdr command)))
        (user-error "eddi: Building eddi-module.so failed; see %s" (buffer-name buffer))))
    (message "eddi: built %s" target)
    target))

(require 'eddi-backend)
(require 'eddi-undo)

;;;; The engine

(defvar eddi--engine nil
  "The engine of this Emacs, made on first use.")

(defvar eddi--nats-engine nil
  "The engine serving NATS (`eddi-nats-connect'), or nil.")

(defun eddi--root ()
  "The workspace folder for a new engine."
  (expand-file-name
   (or eddi-root
       (when-let ((project (and (fboundp 'project-current) (project-current))))
         (project-root project))
       default-directory)))

(defvar eglot-server-programs)
(declare-function eglot-current-server "eglot" ())
(declare-function jsonrpc--process "jsonrpc" (connection))

(defconst eddi--lsp-language-modes
  '(("c" c-mode c-ts-mode)
    ("cpp" c++-mode c++-ts-mode)
    ("python" python-mode python-ts-mode)
    ("javascript" js-mode js-ts-mode js2-mode javascript-mode js-jsx-mode)
    ("typescript" typescript-mode typescript-ts-mode)
    ("tsx" tsx-ts-mode))
  "Each language eddi has a server for by default, and its major modes.")

(defun eddi--lsp-command (words)
  "WORDS (a program and its arguments) as eddi's COMMAND, or nil.
The program is looked up on the variable `exec-path', which may
differ from the PATH eddi's engine would search.  nil when a word
has a space: eddi splits a command at spaces."
  (let ((program (and (stringp (car words)) (executable-find (car words)))))
    (when (and program (cl-every #'stringp words)
               (not (cl-some (lambda (word) (string-match-p " " word)) (cdr words)))
               (not (string-match-p " " program)))
      (mapconcat #'identity (cons program (cdr words)) " "))))

(defun eddi--eglot-running-command (modes root)
  "The command of a server eglot runs for a buffer in MODES under ROOT."
  (when (fboundp 'eglot-current-server)
    (cl-some (lambda (buffer)
               (with-current-buffer buffer
                 (when (and buffer-file-name (memq major-mode modes)
                            (bound-and-true-p eglot--managed-mode)
                            (file-in-directory-p buffer-file-name root))
                   (let* ((server (eglot-current-server))
                          (process (and server (fboundp 'jsonrpc--process)
                                        (jsonrpc--process server))))
                     (and (processp process) (eddi--lsp-command (process-command process)))))))
             (buffer-list))))

(defun eddi--eglot-entry-modes (key)
  "The major modes an `eglot-server-programs' KEY names."
  (cond ((symbolp key) (list key))
        ((keywordp (cadr key)) (list (car key)))
        (t (mapcar (lambda (mode) (if (consp mode) (car mode) mode)) key))))

(defun eddi--eglot-configured-command (modes)
  "The command `eglot-server-programs' names for a mode in MODES, or nil."
  (when (boundp 'eglot-server-programs)
    (cl-some (lambda (entry)
               (when (cl-intersection modes (eddi--eglot-entry-modes (car entry)))
                 (let ((contact (cdr entry)))
                   (and (consp contact) (stringp (car contact))
                        (eddi--lsp-command (cl-loop for word in contact
                                                    until (keywordp word) collect word))))))
             eglot-server-programs)))

(defun eddi--lsp-servers (root)
  "The \"LANG=COMMAND\" lines the engine over ROOT gets, or nil.
`eddi-lsp-servers' first; with `eddi-lsp-from-eglot', eglot's servers
for the languages it leaves out."
  (let ((servers (copy-sequence eddi-lsp-servers)))
    (when (and eddi-lsp-from-eglot (featurep 'eglot))
      (dolist (language eddi--lsp-language-modes)
        (unless (assoc (car language) servers)
          (when-let ((command (or (eddi--eglot-running-command (cdr language) root)
                                  (eddi--eglot-configured-command (cdr language)))))
            (setq servers (append servers (list (cons (car language) command))))))))
    (and servers
         (mapconcat (lambda (server) (concat (car server) "=" (cdr server))) servers "\n"))))

(defun eddi-engine ()
  "The engine of this Emacs, loading the module and making it if needed."
  (eddi-load-module)
  (or eddi--engine
      (let ((root (eddi--root)))
        (setq eddi--engine
              (eddi-module-new root (not eddi-lsp) (eddi--lsp-servers root)
                               eddi-lsp-trust-workspace)))))

;;;###autoload
(defun eddi-reset ()
  "Free the engine: end every session and release its buffers.
The next command makes a new engine (over `eddi-root' as it is then)."
  (interactive)
  (when (eq eddi--nats-engine eddi--engine) (eddi-nats-disconnect))
  (when eddi--engine
    (eddi-module-free eddi--engine)
    (setq eddi--engine nil)))

(defvar eddi--changed nil
  "(BUFFER BEG END) regions changed during the current message.")

(defun eddi--note-edit (buffer beg end)
  "Remember the region BUFFER BEG..END for highlighting."
  (push (list buffer beg end) eddi--changed))

(defun eddi--exec (engine commands sender &optional via-nats session)
  "Run COMMANDS from SENDER on ENGINE (VIA-NATS: it came over NATS).
SESSION, when non-nil, is the session the request names; SENDER may
then be nil."
  (maphash (lambda (_ tracker) (setf (eddi--tracker-groups tracker) 0)) eddi--trackers)
  (let ((eddi--undo-owner (or sender session)))
    (eddi-module-exec engine sender commands via-nats session)))

;;;###autoload
(defun eddi-exec (commands &optional sender)
  "Run the EddiSpeak message COMMANDS from SENDER (default `eddi-sender').
Return the reply text, one line per command.  Commands run on live
buffers; each command is one undo step in each buffer it changed."
  (eddi--exec (eddi-engine) commands (or sender eddi-sender)))

;;;; Showing what the model did

(defvar eddi--cursor-overlay nil
  "The overlay showing the model's cursor.")

(defun eddi--show-cursor (sender)
  "Move the model-cursor overlay to SENDER's cursor."
  (let* ((cursor (and eddi--engine (eddi-module-cursor eddi--engine sender)))
         (buffer (and cursor (eddi--tracker-buffer-of (car cursor)))))
    (if (not buffer)
        (when eddi--cursor-overlay (delete-overlay eddi--cursor-overlay))
      (with-current-buffer buffer
        (let* ((pos (min (point-max) (1+ (cdr cursor))))
               (end (if (memq (char-after pos) '(?\n nil)) pos (1+ pos))))
          (unless eddi--cursor-overlay
            (setq eddi--cursor-overlay (make-overlay pos end))
            (overlay-put eddi--cursor-overlay 'priority 100))
          (move-overlay eddi--cursor-overlay pos end buffer)
          ;; At a line end there is no character to paint: show a space.
          (overlay-put eddi--cursor-overlay 'after-string
                       (and (= pos end) (propertize " " 'face 'eddi-cursor-face)))
          (overlay-put eddi--cursor-overlay 'face (and (< pos end) 'eddi-cursor-face))
          (dolist (window (get-buffer-window-list buffer nil t))
            (unless (pos-visible-in-window-p pos window)
              (set-window-point window pos))))))))

(defun eddi--pulse (regions)
  "Highlight REGIONS ((BUFFER BEG END)...) for `eddi-pulse-seconds'."
  (when (> eddi-pulse-seconds 0)
    (let (overlays)
      (dolist (region regions)
        (pcase-let ((`(,buffer ,beg ,end) region))
          (when (and (buffer-live-p buffer) (get-buffer-window buffer t))
            (with-current-buffer buffer
              (let ((overlay (make-overlay (min beg (point-max)) (min (max end (1+ beg)) (point-max)))))
                (overlay-put overlay 'face 'eddi-changed-face)
                (push overlay overlays))))))
      (when overlays
        (run-at-time eddi-pulse-seconds nil (lambda () (mapc #'delete-overlay overlays)))))))

(defun eddi--buffer-path (buffer)
  "BUFFER's file relative to the workspace, as eddi names it."
  (let ((root (file-name-as-directory (eddi-module-root eddi--engine))))
    (file-relative-name (file-truename (buffer-file-name buffer)) root)))

(defun eddi--quote (text)
  "TEXT as an EddiSpeak string."
  (concat "\"" (replace-regexp-in-string "[\"\\\\]" "\\\\\\&" text) "\""))

(defun eddi-run (commands &optional sender)
  "Run COMMANDS from SENDER like `eddi-exec', then show what changed.
The model's cursor moves, changed regions are highlighted, and a
change to several buffers is shown as a diff to accept or reject."
  (let* ((sender (or sender eddi-sender))
         (eddi--changed nil)
         (eddi--capture (and eddi-preview-multi-file (make-hash-table)))
         (eddi-after-edit-functions (cons #'eddi--note-edit eddi-after-edit-functions))
         (reply (eddi-exec commands sender)))
    (eddi--show-cursor sender)
    (eddi--pulse eddi--changed)
    (when (and eddi--capture (> (hash-table-count eddi--capture) 1))
      (eddi--preview eddi--capture sender))
    reply))

;;;; Multi-file preview

(defvar-local eddi--preview-undo nil
  "(SENDER . ((PATH . GROUPS)...)) that rejecting this preview takes back.")

(defvar eddi-preview-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'eddi-preview-accept)
    (define-key map (kbd "C-c C-k") #'eddi-preview-reject)
    map)
  "Keys of the multi-file preview.")

(define-minor-mode eddi-preview-mode
  "Accept (\\[eddi-preview-accept]) or reject (\\[eddi-preview-reject]) a multi-file change."
  :lighter " Eddi-Preview")

(defun eddi--preview (before sender)
  "Show a diff of every buffer in BEFORE (buffer to old text) against now.
Rejecting it undoes the change as SENDER."
  (require 'diff)
  (let ((preview (get-buffer-create "*eddi-preview*"))
        undo)
    (with-current-buffer preview
      (let ((inhibit-read-only t))
        (erase-buffer)
        (maphash
         (lambda (buffer old)
           (when (buffer-live-p buffer)
             (let ((groups 0))
               (dolist (tracker (buffer-local-value 'eddi--buffer-trackers buffer))
                 (setq groups (max groups (eddi--tracker-groups tracker))))
               (push (cons (eddi--buffer-path buffer) groups) undo))
             (with-temp-buffer
               (insert old)
               (let ((diff (diff-no-select (current-buffer) buffer "-u" t)))
                 (with-current-buffer preview
                   (insert (format "eddi: %s\n" (buffer-name buffer))
                           (with-current-buffer diff
                             (buffer-substring-no-properties (point-min) (point-max)))))
                 (kill-buffer diff)))))
         before))
      (diff-mode)
      (eddi-preview-mode 1)
      (setq eddi--preview-undo (cons sender undo))
      (goto-char (point-min)))
    (display-buffer preview)))

(defun eddi--preview-close ()
  "Close the preview buffer and its window."
  (let ((buffer (current-buffer)))
    (when-let ((window (get-buffer-window buffer t)))
      (quit-window nil window))
    (kill-buffer buffer)))

(defun eddi-preview-accept ()
  "Keep the previewed change."
  (interactive)
  (eddi--preview-close))

(defun eddi-preview-reject ()
  "Take back the previewed change in every buffer, through eddi's Undo."
  (interactive)
  (pcase-let ((`(,sender . ,undo) eddi--preview-undo))
    (let ((current (eddi--status-file sender)))
      (dolist (entry undo)
        (when (> (cdr entry) 0)
          (eddi-exec (format "Open %s\nUndo %d" (eddi--quote (car entry)) (cdr entry)) sender)))
      (when current (eddi-exec (format "Open %s" (eddi--quote current)) sender))
      (message "eddi: rejected the change to %d files" (length undo))))
  (eddi--preview-close))

;;;; Session-wide undo

(defun eddi--status-file (sender)
  "SENDER's current file, from Status."
  (let ((status (eddi-exec "Status" sender)))
    (when (string-match "File \\([^,]+\\)," status)
      (match-string 1 status))))

(defun eddi--open-files (sender)
  "The files open in SENDER's session."
  (let ((reply (eddi-exec "List Open" sender)))
    (when (string-match "\\`Ok: \\(.*\\)\\'" reply)
      (let ((list (match-string 1 reply)))
        (unless (string-prefix-p "No " list)
          (split-string list ", "))))))

;;;###autoload
(defun eddi-undo-session (&optional sender)
  "Undo every change of SENDER's session, in every buffer it edited.
Changes typed in between (or made by other senders) are kept; where
one overlaps a change of the session nothing is undone, and the error
names the lines.  Return the number of undo steps taken."
  (interactive)
  (let* ((sender (or sender eddi-sender))
         (current (eddi--status-file sender))
         (open (eddi--open-files sender))
         (buffers (eddi-undo--buffers sender))
         ;; While only the session changed a buffer, the engine's Undo
         ;; still has its history; otherwise the log decides.
         (engine (cl-remove-if-not
                  (lambda (buffer)
                    (and (eddi-undo-engine-can buffer sender)
                         (member (eddi--buffer-path buffer) open)))
                  buffers))
         (plans (eddi-undo-plans (cl-set-difference buffers engine) sender))
         (steps 0))
    (dolist (buffer engine)
      (let ((reply (let ((eddi--undoing t))
                     (eddi-module-exec eddi--engine sender
                                       (format "Open %s\nUndo 10000"
                                               (eddi--quote (eddi--buffer-path buffer)))))))
        (eddi-undo-drop buffer sender)
        (when (string-match "Undid \\([0-9]+\\)" reply)
          (cl-incf steps (string-to-number (match-string 1 reply))))))
    (cl-incf steps (eddi-undo-run plans))
    (when (and current engine) (eddi-exec (format "Open %s" (eddi--quote current)) sender))
    (eddi--show-cursor sender)
    (when (called-interactively-p 'interactive)
      (if (> steps 0)
          (message "eddi: undid %d steps of %s" steps sender)
        (message "eddi: %s changed nothing that is left to undo" sender)))
    steps))

;;;; The transcript buffer

(defconst eddi-prompt "To Eddi: "
  "The prompt of the transcript buffer.")

(defvar eddi-history nil
  "Messages sent to eddi, newest first.")

(defvar-local eddi--input-start nil
  "Marker where the input after the last prompt starts.")

(defvar-local eddi--history-index -1
  "Position in `eddi-history' while browsing it.")

(defvar eddi-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'eddi-send-input)
    (define-key map (kbd "C-j") #'newline)
    (define-key map (kbd "M-p") #'eddi-previous-input)
    (define-key map (kbd "M-n") #'eddi-next-input)
    (define-key map (kbd "C-c C-u") #'eddi-undo-session)
    map)
  "Keys of `eddi-mode'.")

(defconst eddi-font-lock-keywords
  '(("^To Eddi:" . 'eddi-input-face)
    ("^Eddi : \\(Ok\\)" 1 'eddi-ok-face)
    ("^Eddi : \\(Fail\\)" 1 'eddi-fail-face)
    ("^Eddi : Fail \\(\"[^\"]*\"\\)" 1 'eddi-fail-face))
  "Highlighting of the transcript.")

(define-derived-mode eddi-mode text-mode "Eddi"
  "A conversation with eddi: type after \"To Eddi:\" and press RET.
\\[newline] adds a line to the message; \\[eddi-previous-input] and \\[eddi-next-input] walk the history.

\\{eddi-mode-map}"
  (setq-local font-lock-defaults '(eddi-font-lock-keywords t))
  (setq-local eddi--input-start (copy-marker (point-max))))

(defun eddi--insert-prompt ()
  "Insert a fresh prompt at the end of the transcript."
  (let ((inhibit-read-only t))
    (goto-char (point-max))
    (unless (bolp) (insert "\n"))
    (insert (propertize eddi-prompt 'read-only t 'rear-nonsticky t 'front-sticky t
                        'field 'prompt))
    (set-marker eddi--input-start (point))))

(defun eddi-transcript-buffer ()
  "The transcript buffer, made if needed."
  (let ((buffer (get-buffer-create "*eddi*")))
    (with-current-buffer buffer
      (unless (derived-mode-p 'eddi-mode)
        (eddi-mode)
        (eddi--insert-prompt)))
    buffer))

(defun eddi--record (message reply)
  "Append MESSAGE and REPLY to the transcript, before its prompt."
  (with-current-buffer (eddi-transcript-buffer)
    (let ((inhibit-read-only t)
          (input (buffer-substring eddi--input-start (point-max))))
      (delete-region (- eddi--input-start (length eddi-prompt)) (point-max))
      (insert (propertize (concat eddi-prompt
                                  (replace-regexp-in-string "\n" "\n| " message)
                                  "\n"
                                  (mapconcat (lambda (line) (concat "Eddi : " line))
                                             (split-string reply "\n") "\n")
                                  "\n")
                          'read-only t 'front-sticky t 'rear-nonsticky t))
      (eddi--insert-prompt)
      (insert input))))

(declare-function eddi-module-open-journal "eddi-module" (engine &optional only))
(declare-function eddi-module-state-dir "eddi-module" (engine))

(defcustom eddi-journal 'ask
  "Whether the module keeps its sessions in the workspace's journal.
With `ask', the first \\[eddi] of an Emacs offers to resume the sessions a
journal kept (unsaved edits, bookmarks, open files), and keeps journaling
either way; with t it resumes without asking; with nil sessions live in
memory only.  Buffers visiting the files are used as they are: their text
wins over the journal's unsaved edits, and the reply says so."
  :type '(choice (const :tag "Offer to resume" ask)
                 (const :tag "Resume without asking" t)
                 (const :tag "No journal" nil))
  :group 'eddi)

(defvar eddi--journal-opened nil
  "The engine whose journal was opened, so that it is opened once.")

(defvar eddi-resume-functions nil
  "Functions called with the sessions the journal brought back.
Each gets a list of (NAME . SENDER), after the sessions are restored
and their files open in buffers.  The agent reviews its own here.")

(defun eddi--restored-sessions (report)
  "The (NAME . SENDER) of each session REPORT says was restored."
  (let ((start 0) sessions)
    (while (string-match "^Session \\(\\S-+\\) of \\(\\S-+\\) restored:" report start)
      (push (cons (match-string 1 report) (match-string 2 report)) sessions)
      (setq start (match-end 0)))
    (nreverse sessions)))

(declare-function eddi-module-journal-sessions "eddi-module" (engine))

(defvar eddi-journal-report nil
  "What the journal said when it was last opened.
The sessions it gave back, and how (edits re-applied, rebased, kept).")

(defvar eddi-journal-kept nil
  "Names of the sessions left in the journal when it was opened (not resumed).
A new session should not take one of these names: the journal would
give it that session's records.")

(defun eddi--journal-sessions (engine)
  "The sessions the journal of ENGINE's workspace holds.
A list of (NAME SENDER FILES EDITS)."
  (mapcar (lambda (line)
            (pcase-let ((`(,name ,sender ,files ,edits) (split-string line "\t")))
              (list name sender files (string-to-number (or edits "0")))))
          (split-string (eddi-module-journal-sessions engine) "\n" t)))

(defun eddi--describe-journal-session (session)
  "SESSION of `eddi--journal-sessions' in a few words."
  (pcase-let ((`(,name ,_sender ,files ,edits) session))
    (format "%s (%s%s)" name (if (string-empty-p files) "no files" files)
            (if (> edits 0) (format ", %d unsaved edit%s" edits (if (= edits 1) "" "s")) ""))))

(defun eddi--choose-resume (sessions)
  "Ask which of SESSIONS to resume; return their names (nil: none)."
  (let ((names (mapcar #'car sessions)))
    (pcase (car (read-multiple-choice
                 (format "eddi: The journal kept %s. Resume"
                         (mapconcat #'eddi--describe-journal-session sessions "; "))
                 '((?y "yes" "resume them all")
                   (?n "no" "resume none; they stay in the journal for next time")
                   (?c "choose" "pick the sessions to resume"))))
      (?y names)
      (?c (completing-read-multiple "eddi: Resume sessions (comma between): " names nil t))
      (_ nil))))

(defun eddi--open-journal ()
  "Open the journal of the engine as `eddi-journal' says; report what came back.
With `ask', the prompt lists the sessions the journal kept (their files
and unsaved edits) and resumes all, none or those you choose; the
others stay in the journal, in `eddi-journal-kept'."
  (let ((engine (eddi-engine)))
    (unless (or (null eddi-journal) (eq eddi--journal-opened engine))
      (setq eddi--journal-opened engine)
      (let* ((sessions (eddi--journal-sessions engine))
             (chosen (cond ((or (eq eddi-journal t) (null sessions)) (mapcar #'car sessions))
                           ;; Batch Emacs has no one to ask: it keeps memory only.
                           (noninteractive nil)
                           (t (eddi--choose-resume sessions)))))
        (setq eddi-journal-kept (cl-set-difference (mapcar #'car sessions) chosen :test #'equal))
        (when (or chosen (null sessions))
          (let ((report (eddi-module-open-journal
                         engine (and eddi-journal-kept (string-join chosen "\n")))))
            (setq eddi-journal-report report)
            (unless (string-empty-p report) (message "eddi: %s" report))
            (when-let ((restored (eddi--restored-sessions report)))
              (run-hook-with-args 'eddi-resume-functions restored))))))))

(defun eddi-offer-resume ()
  "Offer to resume the sessions eddi's journal kept for this workspace.
Buffers visiting their files are used as they are: their text wins.  The
journal is opened once per engine, so this asks only before the first
\\[eddi] (or after `eddi-reset')."
  (interactive)
  (let ((eddi-journal 'ask)) (eddi--open-journal)))

;;;###autoload
(defun eddi ()
  "Show the eddi transcript; type a command after \"To Eddi:\", RET sends it."
  (interactive)
  (let ((buffer (eddi-transcript-buffer)))
    (eddi--open-journal)
    (eddi--ensure-session)
    (pop-to-buffer buffer)
    (goto-char (point-max))))

(defun eddi--ensure-session ()
  "Start `eddi-session-name' for `eddi-sender' unless it has a session.
The Start and its reply go to the transcript."
  (eddi-engine)
  (when (and eddi-session-name (not (eddi-module-session eddi--engine eddi-sender)))
    (eddi--record (concat "Start " eddi-session-name)
                  (eddi-exec (concat "Start " eddi-session-name)))))

(defun eddi--run-typed (message)
  "Run MESSAGE typed by the user; show the file it opened; return the reply."
  (let ((reply (eddi-run message)))
    (when (and eddi-display-opened-files
               (string-match-p "^[ \t]*Open[ \t]" message))
      (let* ((cursor (eddi-module-cursor eddi--engine eddi-sender))
             (buffer (and cursor (eddi--tracker-buffer-of (car cursor)))))
        (when buffer (display-buffer buffer '(nil (inhibit-same-window . t))))))
    reply))

(defun eddi-send-input ()
  "Send the text after the prompt to eddi and show the reply."
  (interactive)
  (let ((message (string-trim (buffer-substring-no-properties eddi--input-start (point-max)))))
    (if (string-empty-p message)
        (message "eddi: type a command after the prompt (Help lists them)")
      (push message eddi-history)
      (setq eddi--history-index -1)
      (let ((inhibit-read-only t)) (delete-region eddi--input-start (point-max)))
      (eddi--record message (eddi--run-typed message))
      (goto-char (point-max)))))

(defun eddi--history-step (step)
  "Replace the input with the history entry STEP away."
  (let ((index (+ eddi--history-index step)))
    (cond ((< index -1) (user-error "End of history"))
          ((>= index (length eddi-history)) (user-error "Beginning of history"))
          (t (setq eddi--history-index index)
             (delete-region eddi--input-start (point-max))
             (goto-char (point-max))
             (when (>= index 0) (insert (nth index eddi-history)))))))

(defun eddi-previous-input ()
  "Put the previous message in the input."
  (interactive)
  (eddi--history-step 1))

(defun eddi-next-input ()
  "Put the next message in the input."
  (interactive)
  (eddi--history-step -1))

;;;###autoload
(defun eddi-send (message)
  "Send MESSAGE to eddi from anywhere; show the reply in the echo area.
The exchange is also added to the transcript buffer.  Like \\[eddi],
it starts `eddi-session-name' first when the sender has no session."
  (interactive (list (read-string eddi-prompt nil 'eddi-history)))
  (eddi--ensure-session)
  (let ((reply (eddi--run-typed message)))
    (eddi--record message reply)
    (message "%s" reply)
    reply))

;;;; Reach from outside: NATS

;; The module connects to NATS with nats.c, whose threads queue the requests
;; in C.  They never call Lisp: they write a byte to a pipe process, and its
;; filter, on the Emacs thread, takes the requests out of the queue, runs
;; them like any other message and hands each reply back to be published.

(defvar eddi--nats-process nil
  "The pipe process that wakes Emacs when NATS requests arrive.")

(defvar eddi--nats-serving nil
  "Non-nil while the queue is being served (the filter does not nest).")

(defun eddi--nats-instance ()
  "The instance name to serve NATS as, from `eddi-nats-name'."
  (let ((name (replace-regexp-in-string
               "[^A-Za-z0-9_-]" "-"
               (or eddi-nats-name (format "emacs-%s-%d" (system-name) (emacs-pid))))))
    (substring name 0 (min 64 (length name)))))

(defun eddi--nats-live-p (engine)
  "Non-nil when ENGINE is live and serves NATS (it may have been freed)."
  (and engine (ignore-errors (eddi-module-nats-instance engine))))

(defun eddi--nats-answer (engine request)
  "Run REQUEST [ID SENDER TEXT SESSION] on ENGINE and publish the reply.
A request always gets a reply, even when Lisp signals or you quit."
  (let (reply)
    (unwind-protect
        (setq reply
              (condition-case err
                  (let ((eddi--changed nil)
                        (eddi-after-edit-functions
                         (cons #'eddi--note-edit eddi-after-edit-functions)))
                    (prog1 (eddi--exec engine (aref request 2) (aref request 1) t
                                       (aref request 3))
                      (eddi--pulse eddi--changed)))
                (error (concat "Fail " (eddi--quote (error-message-string err))))))
      (eddi-module-nats-reply engine (aref request 0)
                              (or reply "Fail \"Interrupted in Emacs\", retry")))))

(defun eddi--nats-serve ()
  "Run every NATS request waiting in the module's queue."
  (unless eddi--nats-serving
    (let ((eddi--nats-serving t)
          (engine eddi--nats-engine)
          (done nil)
          item)
      (unwind-protect
          (progn
            (while (setq item (and (eddi--nats-live-p engine)
                                   (eddi-module-nats-take engine)))
              (if (stringp item)
                  (message "eddi: NATS %s" item)
                (eddi--nats-answer engine item)))
            (setq done t))
        ;; A quit stopped the loop: the rest waits for no new byte.
        (unless done (run-at-time 0 nil #'eddi--nats-serve))))))

(defun eddi--nats-filter (_process _bytes)
  "The module says requests are waiting: serve them."
  (eddi--nats-serve))

(defun eddi--nats-sentinel (process _event)
  "PROCESS went away while serving: disconnect."
  (when (and (eq process eddi--nats-process) (not (process-live-p process)))
    (eddi-nats-disconnect)))

;;;###autoload
(defun eddi-nats-connect (&optional url)
  "Let agents elsewhere drive this Emacs's buffers over NATS at URL.
Serves the subjects eddi-server serves: eddi.cmd (queue group eddi) and
eddi.INSTANCE.cmd, INSTANCE from `eddi-nats-name'.  Requests run on the
engine of \\[eddi], in live buffers.  Return the instance name."
  (interactive (list (read-string (format-prompt "NATS URL" eddi-nats-url)
                                  nil nil eddi-nats-url)))
  (let ((engine (eddi-engine))
        (url (or url eddi-nats-url))
        (instance (eddi--nats-instance)))
    (when eddi--nats-process (eddi-nats-disconnect))
    (let ((process (make-pipe-process :name "eddi-nats" :noquery t :coding 'binary
                                      :filter #'eddi--nats-filter
                                      :sentinel #'eddi--nats-sentinel)))
      (condition-case err
          (eddi-module-nats-connect engine process url instance eddi-nats-max-queue)
        (error (delete-process process)
               (user-error "eddi: %s" (error-message-string err))))
      (setq eddi--nats-process process
            eddi--nats-engine engine)
      (add-hook 'kill-emacs-hook #'eddi-nats-disconnect)
      (message "eddi: serving NATS at %s as %s" url instance)
      instance)))

;;;###autoload
(defun eddi-nats-disconnect ()
  "Stop serving NATS: requests already received are answered first."
  (interactive)
  (let ((process eddi--nats-process)
        (engine eddi--nats-engine))
    (setq eddi--nats-process nil)
    ;; The engine may have been freed (which stopped its bridge).
    (when (eddi--nats-live-p engine)
      (eddi-module-nats-drain engine)
      (eddi--nats-serve)
      (eddi-module-nats-disconnect engine))
    (setq eddi--nats-engine nil)
    (when (process-live-p process) (delete-process process))
    (remove-hook 'kill-emacs-hook #'eddi-nats-disconnect)
    (when (and engine (called-interactively-p 'interactive))
      (message "eddi: NATS disconnected"))))

(provide 'eddi)

(require 'eddi-menu)

;;; eddi.el ends here
