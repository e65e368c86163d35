;;; sample.el --- accounts

(require 'cl-lib)

(defvar bank-limit 10
  "How many accounts.")

(defun bank-open (id)
  "Open account ID."
  (if (> id 0) id nil))

(defmacro bank-with (account &rest body)
  `(let ((it ,account)) ,@body))
