;;; eddi-lint-test.el --- Every elisp file of eddi is checkdoc and compiler clean  -*- lexical-binding: t; -*-

;;; Commentary:

;; ctest runs `eddi-lint-test-batch' with the elisp folder: each file is
;; checked with checkdoc and byte-compiled (into a temporary folder), and
;; any warning of either fails the test.  The warnings are printed.

;;; Code:

(require 'checkdoc)
(require 'bytecomp)
(require 'cl-lib)

(defun eddi-lint-test--checkdoc (file)
  "The checkdoc warnings of FILE, one string each."
  (let ((checkdoc-diagnostic-buffer " *eddi-lint-checkdoc*")
        (checkdoc-spellcheck-documentation-flag nil)
        (checkdoc-verb-check-experimental-flag nil)
        (warnings nil))
    (when (get-buffer checkdoc-diagnostic-buffer) (kill-buffer checkdoc-diagnostic-buffer))
    (with-current-buffer (find-file-noselect file)
      (let ((inhibit-message t)) (checkdoc-current-buffer t))
      (kill-buffer))
    (when-let ((buffer (get-buffer checkdoc-diagnostic-buffer)))
      (with-current-buffer buffer
        (goto-char (point-min))
        (while (re-search-forward "^[^ \n*].*:[0-9]+: .*$" nil t)
          (push (match-string 0) warnings))))
    (nreverse warnings)))

(defun eddi-lint-test--compile (file)
  "The byte-compiler warnings of FILE, compiled into a temporary folder."
  (let* ((out (make-temp-file "eddi-lint-" t))
         (byte-compile-dest-file-function
          (lambda (source) (expand-file-name (concat (file-name-base source) ".elc") out)))
         (byte-compile-log-buffer " *eddi-lint-compile*")
         (warnings nil))
    (when (get-buffer byte-compile-log-buffer) (kill-buffer byte-compile-log-buffer))
    (unwind-protect
        (let ((inhibit-message t)) (byte-compile-file file))
      (delete-directory out t))
    (when-let ((buffer (get-buffer byte-compile-log-buffer)))
      (with-current-buffer buffer
        (goto-char (point-min))
        (while (re-search-forward "^.*\\(?:Warning\\|Error\\): .*$" nil t)
          (push (match-string 0) warnings))))
    (nreverse warnings)))

(defun eddi-lint-test-batch ()
  "Lint every elisp file of the folder named on the command line; exit 1 on warnings."
  (let* ((folder (expand-file-name (pop command-line-args-left)))
         (files (directory-files folder t "\\.el\\'"))
         (warnings nil))
    (add-to-list 'load-path folder)
    (dolist (file files)
      (dolist (warning (append (eddi-lint-test--checkdoc file) (eddi-lint-test--compile file)))
        (push (format "%s: %s" (file-name-nondirectory file) warning) warnings)))
    (setq warnings (nreverse warnings))
    (mapc (lambda (warning) (princ (concat warning "\n"))) warnings)
    (princ (format "lint: %d files, %d warnings\n" (length files) (length warnings)))
    (kill-emacs (if warnings 1 0))))

(provide 'eddi-lint-test)

;;; eddi-lint-test.el ends here
