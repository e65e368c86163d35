;;; bench_emacs.el --- eddi-module.so on a live buffer vs. plain elisp  -*- lexical-binding: t; -*-

;;; Commentary:

;; The target of the Emacs issue: a simple command on a live 10,000-line
;; buffer costs at most twice the same edit done in elisp
;; (`re-search-forward' + `replace-match') in the same Emacs.  Each row
;; prints the median of many runs, eddi's and elisp's, and their ratio.
;; It also counts whole-buffer copies (none are expected: the mirror is
;; kept in step by the edits themselves).
;;
;;   emacs --batch -Q -L elisp -l test/bench/bench_emacs.el \
;;         --eval '(setq eddi-module-directory "build/module/emacs")' -f eddi-bench

;;; Code:

(require 'cl-lib)
(require 'eddi)

(defconst eddi-bench-lines 10000 "Lines of the benchmark buffer.")
(defconst eddi-bench-runs 400 "Runs per measurement.")

(defun eddi-bench--median (fn)
  "Median wall time of FN over `eddi-bench-runs' runs, in microseconds."
  (let ((times nil))
    (garbage-collect)
    (dotimes (_ eddi-bench-runs)
      (let ((start (current-time)))
        (funcall fn)
        (push (* 1e6 (float-time (time-subtract (current-time) start))) times)))
    (nth (/ (length times) 2) (sort times #'<))))

(defun eddi-bench--row (name eddi-fn elisp-fn)
  "Print one row: NAME, eddi's median, elisp's median and the ratio."
  (let ((eddi (eddi-bench--median eddi-fn))
        (elisp (eddi-bench--median elisp-fn)))
    (princ (format "| %-34s | %9.1f | %9.1f | %5.2f |\n" name eddi elisp (/ eddi elisp)))))

(defun eddi-bench ()
  "Run the benchmark and print an org table."
  (eddi-load-module)
  (let* ((root (file-name-as-directory (make-temp-file "eddi-bench-" t)))
         (file (expand-file-name "big.py" root))
         (make-backup-files nil)
         (create-lockfiles nil)
         (eddi--engine (eddi-module-new root))
         (copies 0))
    (with-temp-file file
      (dotimes (i eddi-bench-lines)
        (insert (format "    value_%05d = compute(%d)  # line %d\n" i i i))))
    (advice-add 'eddi--whole-text :before (lambda () (cl-incf copies)))
    (unwind-protect
        (progn
          (eddi-exec "Start bench\nOpen big.py")
          (let ((buffer (find-buffer-visiting file))
                (copies-after-open copies))
            (princ (format "eddi-module.so, %d-line buffer (%d KiB), median of %d runs, microseconds\n\n"
                           eddi-bench-lines (/ (buffer-size buffer) 1024) eddi-bench-runs))
            (princ "| command                            |      eddi |     elisp | ratio |\n")
            (princ "|------------------------------------+-----------+-----------+-------|\n")
            ;; One match near the end: both scan the whole buffer.
            (let ((flip nil))
              (eddi-bench--row
               "Replace All (1 match at line 9000)"
               (lambda ()
                 (setq flip (not flip))
                 (eddi-exec (if flip "Replace \"value_09000\" \"VALUE_09000\" All"
                              "Replace \"VALUE_09000\" \"value_09000\" All")))
               (lambda ()
                 (setq flip (not flip))
                 (with-current-buffer buffer
                   (save-excursion
                     (goto-char (point-min))
                     (let ((case-fold-search nil)
                           (from (if flip "value_09000" "VALUE_09000")))
                       (while (re-search-forward (regexp-quote from) nil t)
                         (replace-match (if flip "VALUE_09000" "value_09000") t t))))))))
            (let ((flip nil))
              (eddi-bench--row
               "Replace /regex/ (first from 0:0)"
               (lambda ()
                 (setq flip (not flip))
                 (eddi-exec (if flip "Goto 0:0\nReplace /compute\\((\\d+)\\)/ \"calc($1)\""
                              "Goto 0:0\nReplace /calc\\((\\d+)\\)/ \"compute($1)\"")))
               (lambda ()
                 (setq flip (not flip))
                 (with-current-buffer buffer
                   (save-excursion
                     (goto-char (point-min))
                     (if flip
                         (progn (re-search-forward "compute(\\([0-9]+\\))")
                                (replace-match "calc(\\1)" t))
                       (re-search-forward "calc(\\([0-9]+\\))")
                       (replace-match "compute(\\1)" t)))))))
            (let ((flip nil))
              (eddi-bench--row
               "Goto 5000 + Insert/Delete Line"
               (lambda ()
                 (setq flip (not flip))
                 (eddi-exec (if flip "Goto 5000\nInsert Line \"# note\"" "Goto 5000\nDelete Line")))
               (lambda ()
                 (setq flip (not flip))
                 (with-current-buffer buffer
                   (save-excursion
                     (goto-char (point-min))
                     (forward-line 5000)
                     (if flip (insert "# note\n")
                       (delete-region (point) (line-beginning-position 2))))))))
            (eddi-bench--row
             "Find (match at line 9500)"
             (lambda () (eddi-exec "Goto 0:0\nFind \"value_09500\""))
             (lambda ()
               (with-current-buffer buffer
                 (save-excursion
                   (goto-char (point-min))
                   (search-forward "value_09500")))))
            (princ (format "\nWhole-buffer copies after Open: %d\n" (- copies copies-after-open)))
            ;; After the user types, only the typed text is copied.
            (with-current-buffer buffer (goto-char (point-min)) (insert "# typed\n"))
            (eddi-exec "Status")
            (princ (format "Whole-buffer copies after the user typed: %d\n"
                           (- copies copies-after-open)))))
      (advice-remove 'eddi--whole-text (lambda () (cl-incf copies)))
      (eddi-module-free eddi--engine)
      (delete-directory root t))))

;;; bench_emacs.el ends here
