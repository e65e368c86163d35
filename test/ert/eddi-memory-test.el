;;; eddi-memory-test.el --- The module when the engine runs out of memory  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by ctest, one case per Emacs (an out of memory stops the module for
;; good):
;;   emacs --batch -Q -module-assertions -L elisp -L test/ert
;;         -l eddi-memory-test.el -f eddi-memory-test-batch MODULE TEST
;; MODULE is the test build of the module (eddi-module-test.so), whose
;; `eddi-module--fail-allocations' makes the engine's allocations fail for
;; real.  Lisp must see the signal Emacs gives when its own memory runs out
;; (`memory-signal-data'), Emacs must go on, no file may be written, and
;; every later call must say that eddi stopped.

;;; Code:

(require 'ert)
(require 'eddi)

(declare-function eddi-module--fail-allocations "eddi-module-test" (count))

(defvar eddi-memory-test-root nil "The workspace of the running test.")

(defconst eddi-memory-test-stopped
  "eddi ran out of memory and stopped: nothing more runs and no file is written; save your buffers (C-x s) and restart Emacs to use eddi again"
  "What every call says once the module ran out of memory.")

(defun eddi-memory-test-file (rel)
  "The bytes of REL in the test workspace, as on disk."
  (with-temp-buffer
    (set-buffer-multibyte nil)
    (insert-file-contents-literally (expand-file-name rel eddi-memory-test-root))
    (buffer-string)))

(defmacro eddi-memory-test-with-workspace (&rest body)
  "Run BODY over a fresh workspace holding a.txt, with its own engine."
  (declare (indent 0))
  `(let* ((eddi-memory-test-root (file-name-as-directory (make-temp-file "eddi-memory-" t)))
          (make-backup-files nil)
          (create-lockfiles nil)
          (auto-save-default nil)
          (eddi-pulse-seconds 0)
          (eddi-sender "tester")
          (eddi--engine nil))
     (with-temp-file (expand-file-name "a.txt" eddi-memory-test-root) (insert "old\n"))
     (setq eddi--engine (eddi-module-new eddi-memory-test-root))
     (unwind-protect
         (progn (should (equal (eddi-exec "Start s") "Ok"))
                (should (string-prefix-p "Ok" (eddi-exec "Open a.txt")))
                ,@body)
       (eddi-module--fail-allocations -1)
       (dolist (buffer (buffer-list))
         (when (and (buffer-file-name buffer)
                    (string-prefix-p eddi-memory-test-root (buffer-file-name buffer)))
           (with-current-buffer buffer (set-buffer-modified-p nil))
           (kill-buffer buffer)))
       (delete-directory eddi-memory-test-root t))))

(defun eddi-memory-test-stopped-p (thunk)
  "Whether THUNK signals that eddi stopped."
  (equal (condition-case err (progn (funcall thunk) nil) (error (cadr err)))
         eddi-memory-test-stopped))

(defun eddi-memory-test-check-stopped ()
  "Emacs goes on; every eddi call but a few says eddi stopped."
  (should (= (+ 1 1) 2))
  (should (buffer-live-p (find-buffer-visiting
                          (expand-file-name "a.txt" eddi-memory-test-root))))
  (with-current-buffer (messages-buffer)
    (should (string-match-p "eddi: out of memory ([0-9]+ bytes); eddi is stopped"
                            (buffer-string))))
  (should (eddi-memory-test-stopped-p (lambda () (eddi-exec "Save"))))
  (should (eddi-memory-test-stopped-p (lambda () (eddi-module-root eddi--engine))))
  (should (eddi-memory-test-stopped-p (lambda () (eddi-module-tools))))
  (should (equal (eddi-module-version) eddi-version))
  ;; eddi-reset lets go of the engine; a new one cannot be made.
  (eddi-reset)
  (should-not eddi--engine)
  (should (eddi-memory-test-stopped-p
           (lambda () (eddi-module-new eddi-memory-test-root))))
  (garbage-collect))                    ; the finalizer leaves a broken engine alone

(ert-deftest eddi-memory-direct ()
  "An allocation fails in the middle of an edit and its save."
  (eddi-memory-test-with-workspace
    ;; One edit saved, to learn how many allocations such an edit takes.
    (eddi-module--fail-allocations -1)
    (should (string-prefix-p "Ok" (eddi-exec "Insert Line \"one\"\nSave")))
    (let ((edit (eddi-module--fail-allocations -1)))
      (should (> edit 10))
      (should (equal (eddi-memory-test-file "a.txt") "one\nold\n"))
      ;; The same again, failing half way.
      (eddi-module--fail-allocations (/ edit 2))
      (let ((err (should-error (eddi-exec "Insert Line \"two\"\nSave"))))
        (should (equal err memory-signal-data))))
    ;; On disk: the file as it was, or wholly saved; never half.
    (should (member (eddi-memory-test-file "a.txt") '("one\nold\n" "two\none\nold\n")))
    (eddi-memory-test-check-stopped)
    (should (member (eddi-memory-test-file "a.txt") '("one\nold\n" "two\none\nold\n")))))

(ert-deftest eddi-memory-nested ()
  "The engine runs Lisp that calls another engine, which runs out of memory.
The nested call signals; the outer engine stops as soon as the Lisp
returns, even when that Lisp swallowed the signal, and its call signals."
  (eddi-memory-test-with-workspace
    (let* ((other-root (file-name-as-directory (make-temp-file "eddi-memory-other-" t)))
           (other (eddi-module-new other-root))
           (inner nil)
           (swallow (lambda (&rest _)
                      (eddi-module--fail-allocations 0)
                      (setq inner (condition-case err
                                      (progn (eddi-module-exec other "tester" "Start o") nil)
                                    (error err)))
                      ;; Allocations work again: only the stop ends the outer call.
                      (eddi-module--fail-allocations -1))))
      (unwind-protect
          (progn
            (advice-add 'eddi--backend-replace :before swallow)
            (let ((err (should-error (eddi-exec "Insert Line \"two\"\nSave"))))
              (should (equal err memory-signal-data)))
            (should (equal inner memory-signal-data)))
        (advice-remove 'eddi--backend-replace swallow)
        (delete-directory other-root t))
      (should (equal (eddi-memory-test-file "a.txt") "old\n"))
      (should (eddi-memory-test-stopped-p (lambda () (eddi-module-exec other "tester" "Start o"))))
      (eddi-memory-test-check-stopped)
      (should (equal (eddi-memory-test-file "a.txt") "old\n")))))

(defun eddi-memory-test-batch ()
  "Load MODULE, run the test TEST; exit 1 unless it passes.
Arguments after -f eddi-memory-test-batch: MODULE TEST."
  (let ((module (pop command-line-args-left))
        (test (pop command-line-args-left)))
    (module-load module)
    (eddi-load-module)
    (let* ((stats (ert-run-tests-batch (intern test)))
           (failed (ert-stats-completed-unexpected stats))
           (passed (ert-stats-completed-expected stats)))
      (princ (format "ert: %d passed, %d failed\n" passed failed))
      (kill-emacs (if (and (= failed 0) (= passed 1)) 0 1)))))

(provide 'eddi-memory-test)

;;; eddi-memory-test.el ends here
