;;; eddi-nats-test.el --- ERT tests of the NATS bridge against a real nats-server  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by ctest:
;;   emacs --batch -Q -module-assertions -L elisp -L test/ert -l eddi-nats-test.el
;;         -f eddi-nats-test-batch NATS-SERVER EDDI-CLI
;; Each test starts its own nats-server on a free port, connects this Emacs
;; with `eddi-nats-connect' and drives it from outside with the eddi CLI
;; (`eddi --nats URL'), a separate process.  While the CLI runs, the test
;; keeps Emacs responsive with `accept-process-output', which is also when
;; the bridge's pipe process wakes Emacs to run the requests.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'eddi)
(require 'eddi-transcript)

(defvar eddi-nats-test-server-program "nats-server" "The nats-server to run.")
(defvar eddi-nats-test-cli nil "The eddi CLI, the external client.")

(defconst eddi-nats-test-timeout 20
  "Seconds any one wait may take before the test fails.")

(defvar eddi-nats-test-root nil "The workspace of the running test.")

;;;; nats-server

(defun eddi-nats-test--environment ()
  "The environment for child processes: no sanitizer runtime preloaded.
nats-server is a Go program and the CLI is built without it."
  (cl-remove-if (lambda (entry) (string-prefix-p "LD_PRELOAD=" entry)) process-environment))

(defun eddi-nats-test--wait (what predicate)
  "Accept process output until PREDICATE is non-nil; fail naming WHAT."
  (let ((deadline (+ (float-time) eddi-nats-test-timeout)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (error "Timed out waiting for %s" what))
      (accept-process-output nil 0.02))))

(defun eddi-nats-test-start-server (&optional port)
  "Start nats-server on PORT (default: a free one); return (PROCESS . URL)."
  (let* ((log (generate-new-buffer " *nats-server*"))
         (process-environment (eddi-nats-test--environment))
         (process (make-process :name "nats-server" :buffer log :noquery t :sentinel #'ignore
                                :connection-type 'pipe
                                :command (list eddi-nats-test-server-program "-a" "127.0.0.1"
                                               "-p" (number-to-string (or port -1)))))
         port-found)
    (eddi-nats-test--wait
     "nats-server to listen"
     (lambda ()
       (with-current-buffer log
         (goto-char (point-min))
         (when (re-search-forward
                "Listening for client connections on 127\\.0\\.0\\.1:\\([0-9]+\\)" nil t)
           (setq port-found (match-string 1))))))
    (cons process (concat "nats://127.0.0.1:" port-found))))

(defun eddi-nats-test-stop-server (server)
  "Stop the nats-server of SERVER and wait for it to exit."
  (let ((process (car server)))
    (when (process-live-p process)
      (interrupt-process process)
      (eddi-nats-test--wait "nats-server to exit" (lambda () (not (process-live-p process)))))
    (kill-buffer (process-buffer process))))

;;;; The external client

(defun eddi-nats-test-cli (url sender &rest commands)
  "Run the eddi CLI against URL as SENDER with COMMANDS (one -c each).
Return its output lines; Emacs serves NATS while it runs."
  (let ((process (eddi-nats-test-cli-start url sender commands)))
    (eddi-nats-test-cli-finish process)))

(defun eddi-nats-test-cli-start (url sender commands)
  "Start the eddi CLI against URL as SENDER with COMMANDS; return the process.
Its stderr goes to the same buffer, so that a failure shows in the lines."
  (let ((process-environment (eddi-nats-test--environment)))
    (make-process :name "eddi-cli" :buffer (generate-new-buffer " *eddi-cli*") :noquery t
                  :sentinel #'ignore
                  :connection-type 'pipe
                  :command (append (list eddi-nats-test-cli "--nats" url "--sender" sender)
                                   (cl-mapcan (lambda (c) (list "-c" c)) commands)))))

(defun eddi-nats-test-cli-finish (process)
  "Wait for the CLI PROCESS to exit; return its output lines."
  (eddi-nats-test--wait "the eddi CLI" (lambda () (not (process-live-p process))))
  ;; Its exit can be seen before the last of its output is read.
  (while (accept-process-output process 0.05))
  (let ((output (with-current-buffer (process-buffer process) (buffer-string))))
    (kill-buffer (process-buffer process))
    (split-string output "\n" t)))

;;;; A bare NATS client
;;
;; The eddi CLI always sends {"sender", "text"}.  To send the other shapes
;; (plain text, a session alone, broken JSON, bytes that are not UTF-8) the
;; tests speak the NATS wire protocol themselves over a TCP connection.

(defun eddi-nats-test--port (url)
  "The port number of URL."
  (string-to-number (car (last (split-string url ":")))))

(defun eddi-nats-test-raw (url subjects publish)
  "Subscribe to SUBJECTS, then PUBLISH, over a bare NATS connection to URL.
PUBLISH is a list of (SUBJECT REPLY-TO BODY), BODY a string or unibyte
bytes, REPLY-TO nil for none.  Wait for one message per subject of
SUBJECTS (the reply inbox is \"_INBOX.raw\"); return their bodies,
decoded as UTF-8, in that order."
  (let* ((buffer (generate-new-buffer " *nats-raw*"))
         (process (make-network-process :name "nats-raw" :buffer buffer :noquery t
                                        :host "127.0.0.1" :service (eddi-nats-test--port url)
                                        :coding 'binary :sentinel #'ignore))
         (got (make-vector (length subjects) nil)))
    (unwind-protect
        (progn
          (eddi-nats-test--wait "the NATS INFO line"
                                (lambda () (with-current-buffer buffer
                                             (string-prefix-p "INFO " (buffer-string)))))
          (with-current-buffer buffer (erase-buffer))
          (process-send-string
           process
           (concat "CONNECT {\"verbose\":false,\"pedantic\":false}\r\n"
                   (cl-loop for subject in subjects for sid from 0
                            concat (format "SUB %s %d\r\n" subject sid))
                   (cl-loop for (subject reply body) in publish
                            for bytes = (encode-coding-string body 'utf-8)
                            concat (format "PUB %s %s%d\r\n%s\r\n" subject
                                           (if reply (concat reply " ") "")
                                           (length bytes) bytes))))
          (eddi-nats-test--wait
           "the NATS messages"
           (lambda ()
             (with-current-buffer buffer
               (goto-char (point-min))
               (while (re-search-forward "^MSG [^ ]+ \\([0-9]+\\) \\([0-9]+\\)\r\n" nil t)
                 (let ((sid (string-to-number (match-string 1)))
                       (start (point))
                       (end (+ (point) (string-to-number (match-string 2)))))
                   (when (and (<= end (point-max)) (not (aref got sid)))
                     (aset got sid (decode-coding-string (buffer-substring start end) 'utf-8)))))
               (cl-every #'identity got)))))
      (delete-process process)
      (kill-buffer buffer))
    (append got nil)))

(defun eddi-nats-test-request (url subject body)
  "The reply to BODY published on SUBJECT, over a bare NATS connection to URL."
  (car (eddi-nats-test-raw url '("_INBOX.raw") `((,subject "_INBOX.raw" ,body)))))

;;;; Fixture

(defun eddi-nats-test--threads ()
  "How many threads this Emacs has."
  (length (directory-files "/proc/self/task" nil "\\`[0-9]+\\'")))

(defconst eddi-nats-test-thread-exit-seconds 2
  "How long a finished nats.c thread may take to leave the task list.
nats.c detaches its subscription and reconnect threads; the bridge's
stop waits (nats_CloseAndWait) until each has done its last work, and
the thread ends a moment later.")

(defun eddi-nats-test--threads-back-to (count)
  "Wait until this Emacs has COUNT threads again; return how many it has."
  (let ((deadline (+ (float-time) eddi-nats-test-thread-exit-seconds)))
    (while (and (> (eddi-nats-test--threads) count) (< (float-time) deadline))
      (sleep-for 0.01))
    (eddi-nats-test--threads)))

(defmacro eddi-nats-test-with-bridge (files &rest body)
  "Run BODY with a nats-server, a workspace of FILES and this Emacs connected.
`url' and `server' are bound in BODY.  Afterwards the bridge is
disconnected, the engine freed, and no thread nor engine memory is left."
  (declare (indent 1))
  `(let* ((eddi-nats-test-root (file-name-as-directory (make-temp-file "eddi-nats-" t)))
          (make-backup-files nil)
          (create-lockfiles nil)
          (auto-save-default nil)
          (eddi-pulse-seconds 0)
          (eddi-nats-name "emacs-test")
          (eddi-root eddi-nats-test-root)
          (threads (eddi-nats-test--threads))
          (live (eddi-module-live-allocations))
          (server (eddi-nats-test-start-server))
          (url (cdr server))
          (eddi--engine nil))
     (ignore url)
     (dolist (file ,files)
       (eddi-transcript--write (expand-file-name (car file) eddi-nats-test-root) (cdr file)))
     (unwind-protect
         (progn
           (should (equal (eddi-nats-connect url) "emacs-test"))
           (should (> (eddi-nats-test--threads) threads))
           ,@body)
       (eddi-nats-disconnect)
       (eddi-reset)
       (eddi-nats-test-stop-server server)
       (dolist (buffer (buffer-list))
         (when (and (buffer-file-name buffer)
                    (string-prefix-p eddi-nats-test-root (buffer-file-name buffer)))
           (with-current-buffer buffer (set-buffer-modified-p nil))
           (kill-buffer buffer)))
       (delete-directory eddi-nats-test-root t)
       (should (= (eddi-nats-test--threads-back-to threads) threads))
       (should (= (eddi-module-live-allocations) live)))))

(defun eddi-nats-test-text (rel)
  "The text of the buffer visiting REL in the test workspace."
  (with-current-buffer (find-buffer-visiting (expand-file-name rel eddi-nats-test-root))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun eddi-nats-test-undo-one (rel)
  "Undo one step in the buffer visiting REL, as C-/ would."
  (with-current-buffer (find-buffer-visiting (expand-file-name rel eddi-nats-test-root))
    (let ((list buffer-undo-list))
      (while (null (car list)) (setq list (cdr list)))
      (setq buffer-undo-list (primitive-undo 1 list)))))

;;;; Tests

(ert-deftest eddi-nats-requests-edit-live-buffers ()
  (eddi-nats-test-with-bridge '(("x.txt" . "a\nb\n"))
    (should (equal (eddi-nats-test-cli url "agent" "Start s" "Open x.txt" "Insert Line \"y\""
                                       "Goto 2:0" "Insert Line \"z\"")
                   '("Ok, Instance emacs-test"
                     "Ok, At 0:0, Length 2"
                     "Ok, Inserted 1 line at 0, At 1:0"
                     "Ok, At 2:0"
                     "Ok, Inserted 1 line at 2, At 3:0")))
    ;; The live buffer changed, not the file, and each command is one undo step.
    (should (equal (eddi-nats-test-text "x.txt") "y\na\nz\nb\n"))
    (should (equal (eddi-transcript--read (expand-file-name "x.txt" eddi-nats-test-root))
                   "a\nb\n"))
    (eddi-nats-test-undo-one "x.txt")
    (should (equal (eddi-nats-test-text "x.txt") "y\na\nb\n"))
    (eddi-nats-test-undo-one "x.txt")
    (should (equal (eddi-nats-test-text "x.txt") "a\nb\n"))
    ;; The session lives in this Emacs's engine, under the agent's sender.
    (should (equal (eddi-module-session eddi--engine "agent") "s"))))

(ert-deftest eddi-nats-session-undo-keeps-user-typing ()
  "An agent's session over NATS is undone in Emacs; what the user typed in between stays."
  (eddi-nats-test-with-bridge '(("x.txt" . "a\nb\n"))
    (eddi-nats-test-cli url "agent" "Start s" "Open x.txt" "Insert Line \"y\"")
    (with-current-buffer (find-buffer-visiting (expand-file-name "x.txt" eddi-nats-test-root))
      (goto-char (point-max))
      (insert "typed\n"))
    (eddi-nats-test-cli url "agent" "Goto 2:0" "Insert Line \"z\"")
    (should (equal (eddi-nats-test-text "x.txt") "y\na\nz\nb\ntyped\n"))
    (should (= (eddi-undo-session "agent") 2))
    (should (equal (eddi-nats-test-text "x.txt") "a\nb\ntyped\n"))))

(ert-deftest eddi-nats-same-engine-as-eddi-exec ()
  (eddi-nats-test-with-bridge '(("x.txt" . "one\n"))
    (should (equal (eddi-exec "Start mine\nOpen x.txt\nInsert Line \"mine\"" "me")
                   "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0"))
    ;; The agent sees the user's session's edit in the same buffer.
    (should (equal (eddi-nats-test-cli url "agent" "Start s" "Open x.txt" "Show Block 0:1")
                   '("Ok, Instance emacs-test" "Ok, At 0:0, Length 2"
                     "Ok: At 0:0, Lines 0:1, Txt mine\\none")))))

(ert-deftest eddi-nats-read-only-buffer-fails ()
  (eddi-nats-test-with-bridge '(("x.txt" . "a\n"))
    (should (equal (eddi-nats-test-cli url "agent" "Start s" "Open x.txt")
                   '("Ok, Instance emacs-test" "Ok, At 0:0, Length 1")))
    (with-current-buffer (find-buffer-visiting (expand-file-name "x.txt" eddi-nats-test-root))
      (setq buffer-read-only t))
    (should (equal (eddi-nats-test-cli url "agent" "Insert Line \"y\"")
                   '("Fail \"Buffer is read-only\", Make it writable (C-x C-q) first")))
    (should (equal (eddi-nats-test-text "x.txt") "a\n"))))

(ert-deftest eddi-nats-full-queue-answers-busy ()
  (let ((eddi-nats-max-queue 1))
    (eddi-nats-test-with-bridge '(("x.txt" . "a\n"))
      ;; Emacs is busy (a blocking call) while three agents ask at once: one
      ;; request waits, the others are refused at once by the nats thread.
      (let ((clients (cl-loop for i from 1 to 3
                              collect (eddi-nats-test-cli-start
                                       url (format "agent%d" i) '("Help Status")))))
        (call-process "sleep" nil nil nil "1")
        (let ((replies (mapcar (lambda (p) (car (eddi-nats-test-cli-finish p))) clients)))
          (should (= (cl-count "Fail \"Busy, retry\"" replies :test #'equal) 2))
          (should (= (cl-count-if (lambda (r) (string-prefix-p "Ok" r)) replies) 1)))))))

(ert-deftest eddi-nats-sessions-belong-to-senders ()
  (eddi-nats-test-with-bridge '(("x.txt" . "a\n"))
    (should (equal (eddi-nats-test-cli url "agent" "Start s") '("Ok, Instance emacs-test")))
    ;; Routing as eddi-server does, before the engine runs anything.
    (should (equal (eddi-nats-test-cli url "other" "Start s")
                   '("Fail \"Session s already exists\", Choose another name")))
    (should (equal (eddi-module-session eddi--engine "other") nil))))

;; Like eddi-server, the bridge tells a joining instance which sessions it
;; holds, and refuses a session another instance announced.
(ert-deftest eddi-nats-shares-sessions-with-other-instances ()
  (eddi-nats-test-with-bridge nil
    (should (equal (eddi-nats-test-cli url "agent" "Start s") '("Ok, Instance emacs-test")))
    (should (equal (eddi-nats-test-request url "eddi.session.sync" "{}")
                   (concat "{\"instance\":\"emacs-test\",\"sessions\":"
                           "[{\"session\":\"s\",\"sender\":\"agent\"}]}")))
    ;; Heard back by the test, so delivered to the bridge too.
    (eddi-nats-test-raw url '("eddi.session.events")
                        '(("eddi.session.events" nil
                           "{\"event\":\"started\",\"session\":\"t\",\"sender\":\"bob\",\"instance\":\"other\"}")))
    (let ((ask (lambda () (eddi-nats-test-request url "eddi.emacs-test.cmd"
                                                  "{\"session\": \"t\", \"text\": \"Status\"}")))
          (deadline (+ (float-time) eddi-nats-test-timeout))
          reply)
      (while (and (equal (setq reply (funcall ask)) "Fail \"Session t not found\"")
                  (< (float-time) deadline))
        (sleep-for 0.02))
      (should (equal reply "Fail \"Session t lives on other\"")))
    (should (equal (eddi-nats-test-cli url "bob" "Status") '("Fail \"Session t lives on other\"")))))

;; The bridge answers $SRV.PING as eddi-server does, on all three forms of
;; the subject, so that the other instances' liveness pinger does not drop
;; the sessions this Emacs serves as a dead instance's.
(ert-deftest eddi-nats-answers-pings ()
  (eddi-nats-test-with-bridge nil
    (let ((pong (concat "\\`{\"type\":\"io\\.nats\\.micro\\.v1\\.ping_response\",\"name\":\"eddi\","
                        "\"id\":\"emacs-test\",\"version\":\"[0-9.]+\","
                        "\"metadata\":{\"instance\":\"emacs-test\",\"eddispeak\":\"[0-9.]+\"}}\\'")))
      (dolist (subject '("$SRV.PING.eddi.emacs-test" "$SRV.PING.eddi" "$SRV.PING"))
        (should (string-match-p pong (eddi-nats-test-request url subject "")))))))

(defconst eddi-nats-test-liveness-ms 300
  "The liveness timeout of the eddi-server that pings this Emacs.")

(defun eddi-nats-test--eddi-server ()
  "The eddi-server of the build the CLI belongs to, or nil."
  (let ((server (expand-file-name "../server/eddi-server"
                                  (file-name-directory eddi-nats-test-cli))))
    (and (file-executable-p server) server)))

;; An eddi-server on the same NATS hears of the session this Emacs holds
;; and pings it: the bridge answers, so the session is still routed here
;; after many timeouts (it would be dropped as a dead instance's).
(ert-deftest eddi-nats-session-outlives-the-liveness-timeout ()
  (skip-unless (eddi-nats-test--eddi-server))
  (eddi-nats-test-with-bridge nil
    (should (equal (eddi-nats-test-cli url "agent" "Start s") '("Ok, Instance emacs-test")))
    (let* ((log (generate-new-buffer " *eddi-server*"))
           (process-environment (eddi-nats-test--environment))
           (server (make-process
                    :name "eddi-server" :buffer log :noquery t :sentinel #'ignore
                    :connection-type 'pipe
                    :command (list (eddi-nats-test--eddi-server) "--nats" url
                                   "--root" eddi-nats-test-root "--name" "beta"
                                   "--no-journal" "--audit" "off" "--liveness-ms"
                                   (number-to-string eddi-nats-test-liveness-ms)))))
      (unwind-protect
          (progn
            (eddi-nats-test--wait "eddi-server to serve"
                                  (lambda () (with-current-buffer log
                                               (string-match-p "serving eddi\\.cmd"
                                                               (buffer-string)))))
            (let ((deadline (+ (float-time) (* 5 (/ eddi-nats-test-liveness-ms 1000.0)))))
              (while (< (float-time) deadline) (accept-process-output nil 0.02)))
            (should (equal (eddi-nats-test-request url "eddi.beta.cmd"
                                                   "{\"sender\": \"agent\", \"text\": \"Status\"}")
                           "Fail \"Session s lives on emacs-test\"")))
        (when (process-live-p server)
          (interrupt-process server)
          (eddi-nats-test--wait "eddi-server to exit" (lambda () (not (process-live-p server)))))
        (kill-buffer log)))))

(ert-deftest eddi-nats-survives-a-server-restart ()
  (eddi-nats-test-with-bridge '(("x.txt" . "a\n"))
    (should (equal (eddi-nats-test-cli url "agent" "Start s") '("Ok, Instance emacs-test")))
    ;; In batch Emacs `message' writes to stderr, not *Messages*: listen to it.
    (let* ((port (string-to-number (car (last (split-string url ":")))))
           (said nil)
           (listen (lambda (&rest args)
                     (when (car args) (push (apply #'format-message args) said))))
           (heard (lambda (regexp) (lambda () (cl-some (lambda (m) (string-match-p regexp m))
                                                       said)))))
      (advice-add 'message :before listen)
      (unwind-protect
          (progn
            (eddi-nats-test-stop-server server)
            (eddi-nats-test--wait "the lost server to be logged"
                                  (funcall heard "\\`eddi: NATS lost the server; reconnecting\\'"))
            (setq server (eddi-nats-test-start-server port))
            (eddi-nats-test--wait "the reconnection to be logged"
                                  (funcall heard (concat "\\`eddi: NATS reconnected to "
                                                         (regexp-quote url) "\\'"))))
        (advice-remove 'message listen)))
    ;; The session lived on in Emacs; the agent carries on.
    (should (equal (eddi-nats-test-cli url "agent" "Open x.txt" "Insert Line \"b\"")
                   '("Ok, At 0:0, Length 1" "Ok, Inserted 1 line at 0, At 1:0")))
    (should (equal (eddi-nats-test-text "x.txt") "b\na\n"))))

(ert-deftest eddi-nats-disconnect-answers-and-stops ()
  (eddi-nats-test-with-bridge nil
    (should (equal (eddi-module-nats-instance eddi--engine) "emacs-test"))
    ;; A request that arrived while Emacs was busy is run before the end.
    (let ((client (eddi-nats-test-cli-start url "agent" '("Start s"))))
      (call-process "sleep" nil nil nil "0.5")
      (eddi-nats-disconnect)
      (should (equal (eddi-nats-test-cli-finish client) '("Ok, Instance emacs-test"))))
    (should-not (eddi-module-nats-instance eddi--engine))
    (should-not eddi--nats-process)
    ;; Nobody serves eddi.cmd now: the CLI says so.
    (should (equal (eddi-nats-test-cli url "agent" "Status")
                   '("eddi: eddi.cmd: no eddi-server is listening")))
    ;; And connecting again works (nats.c was torn down and comes back).
    (should (equal (eddi-nats-connect url) "emacs-test"))
    (should (equal (eddi-nats-test-cli url "agent" "Start t") '("Fail \"Session s is active\", End it first")))))

(ert-deftest eddi-nats-engine-freed-while-serving ()
  (eddi-nats-test-with-bridge nil
    ;; Freeing the engine stops its bridge: a waiting request is refused,
    ;; not left to time out, and the threads are joined (checked at the end).
    (let ((client (eddi-nats-test-cli-start url "agent" '("Start s"))))
      (call-process "sleep" nil nil nil "0.5")
      (eddi-module-free eddi--engine)
      (should (equal (eddi-nats-test-cli-finish client)
                     '("Fail \"Emacs disconnected before running this, retry\""))))
    (setq eddi--engine nil)
    (eddi-nats-disconnect)
    (should-not (get-process "eddi-nats"))))

(ert-deftest eddi-nats-bad-url-is-one-clear-error ()
  (let ((eddi-root temporary-file-directory)
        (eddi--engine nil)
        (threads (eddi-nats-test--threads)))
    (unwind-protect
        (let ((err (should-error (eddi-nats-connect "nats://127.0.0.1:1") :type 'user-error)))
          (should (string-match-p "\\`eddi: Cannot connect to nats://127.0.0.1:1: " (cadr err)))
          (should-not eddi--nats-process)
          (should-not (get-process "eddi-nats")))
      (eddi-reset))
    (should (= (eddi-nats-test--threads-back-to threads) threads))))

(ert-deftest eddi-nats-message-shapes ()
  (eddi-nats-test-with-bridge '(("x.txt" . "a\n"))
    ;; Plain text runs as the sender "anonymous"; the Start is announced.
    (should (equal (eddi-nats-test-raw url '("_INBOX.raw" "eddi.session.events")
                                       `(("eddi.cmd" "_INBOX.raw" "Start p\nOpen x.txt")))
                   '("Ok, Instance emacs-test\nOk, At 0:0, Length 1"
                     "{\"event\":\"started\",\"session\":\"p\",\"sender\":\"anonymous\",\"instance\":\"emacs-test\"}")))
    (should (equal (eddi-module-session eddi--engine "anonymous") "p"))
    ;; A session alone names its sender; the instance subject answers too.
    (should (equal (eddi-nats-test-request url "eddi.emacs-test.cmd"
                                           "{\"session\": \"p\", \"text\": \"Insert Line \\\"é\\\"\"}")
                   "Ok, Inserted 1 line at 0, At 1:0"))
    (should (equal (eddi-nats-test-text "x.txt") "é\na\n"))
    (dolist (case '(("{\"session\": \"nope\", \"text\": \"Status\"}"
                     . "Fail \"Session nope not found\"")
                    ("{\"sender\": \"ann\", \"session\": \"p\", \"text\": \"Status\"}"
                     . "Fail \"Session p belongs to another sender\"")
                    ("{\"text\": \"Status\"}"
                     . "Fail \"Sender missing: give \\\"sender\\\" or \\\"session\\\"\"")
                    ("{\"sender\": \"ann\"}" . "Fail \"\\\"text\\\" must be a string\"")
                    ("{\"sender\": \"ann\", \"text\": \"Status\"} x"
                     . "Fail \"Invalid JSON: text after the object\"")
                    ("{\"sender\": " . "Fail \"Invalid JSON: unexpected end\"")
                    ("Status \377" . "Fail \"Message is not valid UTF-8\"")))
      (should (equal (eddi-nats-test-request
                      url "eddi.cmd" (if (string-suffix-p "\377" (car case))
                                         (string-to-unibyte (car case))
                                       (car case)))
                     (cdr case))))
    (should (equal (eddi-nats-test-text "x.txt") "é\na\n"))))

(ert-deftest eddi-nats-request-without-reply-subject-is-logged ()
  (eddi-nats-test-with-bridge nil
    (let* ((said nil)
           (listen (lambda (&rest args)
                     (when (car args) (push (apply #'format-message args) said)))))
      (advice-add 'message :before listen)
      (unwind-protect
          ;; Published without a reply subject, then a request that has one:
          ;; the first is dropped (and logged), the second answered.
          (should (equal (eddi-nats-test-raw url '("_INBOX.raw")
                                             '(("eddi.emacs-test.cmd" nil "Help")
                                               ("eddi.emacs-test.cmd" "_INBOX.raw" "Help Help")))
                         '("Ok: Help [<command>] - commands, or one command's syntax")))
        (advice-remove 'message listen))
      (should (member "eddi: NATS request on eddi.emacs-test.cmd without a reply subject dropped"
                      said)))))

;;;; Batch entry

(defun eddi-nats-test-batch ()
  "Run the NATS bridge tests; print \"ert: N passed, N failed\"; exit 1 on failure.
Arguments after -f eddi-nats-test-batch: NATS-SERVER EDDI-CLI."
  (setq eddi-nats-test-server-program (pop command-line-args-left)
        eddi-nats-test-cli (pop command-line-args-left))
  (eddi-load-module)
  (let* ((stats (ert-run-tests-batch "^eddi-nats-"))
         (failed (ert-stats-completed-unexpected stats))
         (passed (ert-stats-completed-expected stats)))
    (princ (format "ert: %d passed, %d failed\n" passed failed))
    (kill-emacs (if (> failed 0) 1 0))))

(provide 'eddi-nats-test)

;;; eddi-nats-test.el ends here
