;;; eddi-compile-test.el --- M-x eddi-module-compile on a fresh copy of the sources  -*- lexical-binding: t; -*-

;;; Commentary:

;; ctest runs `eddi-compile-test-batch' with the source folder and extra
;; CMake arguments: the sources a package manager would check out
;; (CMakeLists.txt, elisp/, module/, grammars/, server/, test/) are copied
;; to a temporary folder, eddi.el is loaded from the copy, and
;; `eddi-module-compile' must build eddi-module.so beside it, where a
;; fresh Emacs finds it with (require 'eddi-module), as vterm's module is.
;; Prints "compile: ok" or the build's output, and exits 1 on failure.

;;; Code:

(require 'cl-lib)

(defconst eddi-compile-test-parts '("CMakeLists.txt" "elisp" "module" "grammars" "server" "test")
  "What a checkout of eddi holds that the build needs.")

(defun eddi-compile-test--copy (source target)
  "Copy the parts of SOURCE the build needs into TARGET."
  (make-directory target t)
  (dolist (part eddi-compile-test-parts)
    (let ((from (expand-file-name part source))
          (to (expand-file-name part target)))
      (cond ((file-directory-p from) (copy-directory from to nil t t))
            ((file-exists-p from) (copy-file from to))))))

(defun eddi-compile-test-batch ()
  "Copy the sources, build the module with `eddi-module-compile', load it."
  (let* ((source (expand-file-name (pop command-line-args-left)))
         (arguments (delete "" command-line-args-left))
         (root (make-temp-file "eddi-compile-" t))
         (copy (expand-file-name "eddi" root))
         (ok nil))
    (setq command-line-args-left nil)
    (unwind-protect
        (progn
          (eddi-compile-test--copy source copy)
          ;; As a package manager leaves it: the copy's elisp/ on load-path.
          (push (expand-file-name "elisp" copy) load-path)
          (require 'eddi)
          (let* ((eddi-module-compile-arguments arguments)
                 ;; ccache then finds what the main build compiled.
                 (process-environment (cons (concat "CCACHE_BASEDIR=" root) process-environment))
                 (module (condition-case err
                             (eddi-module-compile)
                           (error (princ (with-current-buffer "*eddi-module-compile*" (buffer-string)))
                                  (princ (format "compile: %s\n" (error-message-string err)))
                                  nil))))
            (when module
              (unless (equal module (expand-file-name "elisp/eddi-module.so" copy))
                (error "The module was put in %s" module))
              (with-temp-buffer
                (call-process (expand-file-name invocation-name invocation-directory) nil t nil
                              "--batch" "-Q" "-L" (expand-file-name "elisp" copy)
                              "--eval" "(progn (require 'eddi-module) (princ (eddi-module-version)))")
                (if (equal (buffer-string) "0.1.0")
                    (setq ok t)
                  (princ (format "compile: the built module did not load: %s\n" (buffer-string))))))))
      (delete-directory root t))
    (princ (if ok "compile: ok\n" "compile: failed\n"))
    (kill-emacs (if ok 0 1))))

(provide 'eddi-compile-test)

;;; eddi-compile-test.el ends here
