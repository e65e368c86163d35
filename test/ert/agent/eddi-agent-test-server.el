;;; eddi-agent-test-server.el --- A scripted model API server for the agent tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; An HTTP/1.1 server on 127.0.0.1 that answers each request with the
;; next scripted response and records what it received.  It speaks the
;; real wire formats: the event streams of the Anthropic Messages API
;; and of the OpenAI chat completions API, sent with chunked transfer
;; encoding as those APIs send them, one event per chunk.  A response
;; can be delayed, cut before its end, or be a plain HTTP error.
;;
;; It runs inside the Emacs under test, in the same event loop as the
;; agent: curl connects to it like to any server, and the test reads
;; the recorded requests directly.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'eddi-agent-backend)

(cl-defstruct (eddi-agent-test-server (:constructor eddi-agent-test-server--create) (:copier nil))
  "A scripted server."
  (process nil :documentation "The listening process.")
  (script nil :documentation "Responses still to send.")
  (requests nil :documentation "Requests received, newest first.")
  (timers nil :documentation "Delayed responses."))

(defun eddi-agent-test-server-port (server)
  "The port SERVER listens on."
  (process-contact (eddi-agent-test-server-process server) :service))

(defun eddi-agent-test-server-url (server path)
  "The URL of PATH on SERVER."
  (format "http://127.0.0.1:%d%s" (eddi-agent-test-server-port server) path))

(defun eddi-agent-test-server-received (server)
  "The requests SERVER received, oldest first.
Each is (:method M :path P :time SECONDS :headers ((NAME . VALUE)...)
:body TEXT :json ALIST), header names in lower case, :time when it
arrived (`float-time')."
  (reverse (eddi-agent-test-server-requests server)))

(defun eddi-agent-test-server--parse (bytes)
  "A request parsed from BYTES, or nil while it is incomplete."
  (when-let ((end (string-search "\r\n\r\n" bytes)))
    (let* ((lines (split-string (substring bytes 0 end) "\r\n"))
           (request-line (split-string (car lines) " "))
           (headers (mapcar (lambda (line)
                              (when (string-match "\\`\\([^:]+\\):[ \t]*\\(.*\\)\\'" line)
                                (cons (downcase (match-string 1 line)) (match-string 2 line))))
                            (cdr lines)))
           (length (string-to-number (or (cdr (assoc "content-length" headers)) "0")))
           (start (+ end 4)))
      (when (>= (- (length bytes) start) length)
        (let ((body (decode-coding-string (substring bytes start (+ start length)) 'utf-8)))
          (list :method (nth 0 request-line) :path (nth 1 request-line) :time (float-time)
                :headers (delq nil headers) :body body
                :json (ignore-errors (eddi-agent-backend-json-parse body))))))))

(defun eddi-agent-test-server--send (connection response)
  "Send RESPONSE on CONNECTION and close it."
  (when (process-live-p connection)
    (let ((status (or (plist-get response :status) 200)))
      (if-let ((body (plist-get response :body)))
          (let ((bytes (encode-coding-string body 'utf-8)))
            (process-send-string
             connection
             (format "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n%sConnection: close\r\n\r\n%s"
                     status (if (= status 200) "OK" "Error")
                     (or (plist-get response :content-type) "application/json")
                     (length bytes)
                     (mapconcat (lambda (header) (format "%s: %s\r\n" (car header) (cdr header)))
                                (plist-get response :headers) "")
                     bytes)))
        (process-send-string
         connection
         (format "HTTP/1.1 %d OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                 status))
        (dolist (event (plist-get response :events))
          (let ((bytes (encode-coding-string event 'utf-8)))
            (process-send-string connection (format "%x\r\n%s\r\n" (length bytes) bytes))))
        (unless (or (plist-get response :cut) (plist-get response :stall))
          (process-send-string connection "0\r\n\r\n"))))
    ;; A stalled stream stays open, silent, until the client gives up.
    (unless (plist-get response :stall)
      (delete-process connection))))

(defun eddi-agent-test-server--filter (server)
  "The filter of SERVER's connections."
  (lambda (connection chunk)
    (let* ((bytes (concat (or (process-get connection 'bytes) "") chunk))
           (request (eddi-agent-test-server--parse bytes)))
      (process-put connection 'bytes bytes)
      (when request
        (process-put connection 'bytes "")
        (push request (eddi-agent-test-server-requests server))
        (let ((response (or (pop (eddi-agent-test-server-script server))
                            (list :status 500 :body "{\"error\":\"no scripted response left\"}"))))
          (if-let ((delay (plist-get response :delay)))
              (push (run-at-time delay nil #'eddi-agent-test-server--send connection response)
                    (eddi-agent-test-server-timers server))
            (eddi-agent-test-server--send connection response)))))))

(defun eddi-agent-test-server-start (script)
  "Start a server that answers with the responses of SCRIPT, in order.
A response is a plist: :events (event-stream texts, see
`eddi-agent-test-anthropic' and `eddi-agent-test-openai') or :body (a
whole body); :status (default 200); :delay (seconds before answering);
:cut (close the stream without its last chunk); :stall (send the
events, then keep the connection open and silent); :headers (extra
response headers ((NAME . VALUE)...), with :body)."
  (let ((server (eddi-agent-test-server--create :script script)))
    (setf (eddi-agent-test-server-process server)
          (make-network-process :name "eddi-agent-test-server" :server t
                                :host "127.0.0.1" :service t :family 'ipv4
                                :coding 'binary :noquery t
                                :filter (eddi-agent-test-server--filter server)))
    server))

(defun eddi-agent-test-server-stop (server)
  "Stop SERVER and its pending responses."
  (mapc #'cancel-timer (eddi-agent-test-server-timers server))
  (delete-process (eddi-agent-test-server-process server)))

;;;; Scripted model turns

(defun eddi-agent-test--pieces (text)
  "TEXT cut in three pieces, as a model's stream cuts it."
  (let* ((n (length text)) (a (/ n 3)) (b (/ (* 2 n) 3)))
    (cl-remove-if #'string-empty-p (list (substring text 0 a) (substring text a b)
                                         (substring text b)))))

(defun eddi-agent-test--json (value)
  "VALUE as JSON text."
  (eddi-agent-backend-json-encode value))

(defun eddi-agent-test--arguments (arguments)
  "ARGUMENTS as the model writes them: a string is taken as it is."
  (if (stringp arguments) arguments (eddi-agent-test--json arguments)))

(cl-defun eddi-agent-test-anthropic (&key text calls (stop "tool_use") (input-tokens 100)
                                          (output-tokens 20) cut-after)
  "The event stream of one Messages API turn.
TEXT is what the model writes; CALLS a list of (ID NAME ARGUMENTS),
ARGUMENTS an alist or raw JSON text; STOP the stop reason; INPUT-TOKENS
and OUTPUT-TOKENS the usage.  With CUT-AFTER, only that many events
are returned."
  (let ((events nil) (index 0))
    (cl-flet ((event (type data)
                (push (format "event: %s\ndata: %s\n\n" type
                              (eddi-agent-test--json (cons (cons 'type type) data)))
                      events)))
      (event "message_start"
             `((message (id . "msg_01") (type . "message") (role . "assistant")
                        (content . []) (model . "test-model")
                        (stop_reason . :null) (stop_sequence . :null)
                        (usage (input_tokens . ,input-tokens) (output_tokens . 1)))))
      (event "ping" nil)
      (when text
        (event "content_block_start" `((index . ,index) (content_block (type . "text") (text . ""))))
        (dolist (piece (eddi-agent-test--pieces text))
          (event "content_block_delta" `((index . ,index) (delta (type . "text_delta") (text . ,piece)))))
        (event "content_block_stop" `((index . ,index)))
        (cl-incf index))
      (pcase-dolist (`(,id ,name ,arguments) calls)
        (event "content_block_start"
               `((index . ,index) (content_block (type . "tool_use") (id . ,id) (name . ,name)
                                                 (input . #s(hash-table)))))
        (dolist (piece (eddi-agent-test--pieces (eddi-agent-test--arguments arguments)))
          (event "content_block_delta"
                 `((index . ,index) (delta (type . "input_json_delta") (partial_json . ,piece)))))
        (event "content_block_stop" `((index . ,index)))
        (cl-incf index))
      (event "message_delta" `((delta (stop_reason . ,stop) (stop_sequence . :null))
                               (usage (output_tokens . ,output-tokens))))
      (event "message_stop" nil))
    (setq events (nreverse events))
    (if cut-after (seq-take events cut-after) events)))

(cl-defun eddi-agent-test-openai (&key text calls (stop "tool_calls") (input-tokens 100)
                                       (output-tokens 20) cut-after)
  "The event stream of one chat completions turn.
TEXT, CALLS, STOP (the finish reason when there are calls),
INPUT-TOKENS, OUTPUT-TOKENS and CUT-AFTER as in
`eddi-agent-test-anthropic'."
  (let ((events nil))
    (cl-flet ((chunk (choices &optional usage)
                (push (format "data: %s\n\n"
                              (eddi-agent-test--json
                               `((id . "chatcmpl-1") (object . "chat.completion.chunk")
                                 (created . 1700000000) (model . "test-model")
                                 (choices . ,choices)
                                 ,@(and usage `((usage . ,usage))))))
                      events))
              (delta (delta &optional finish)
                (vector `((index . 0) (delta . ,delta) (logprobs . :null)
                          (finish_reason . ,(or finish :null))))))
      (chunk (delta '((role . "assistant") (content . ""))))
      (when text
        (dolist (piece (eddi-agent-test--pieces text))
          (chunk (delta `((content . ,piece))))))
      (cl-loop for (id name arguments) in calls
               for index from 0
               do (chunk (delta `((tool_calls . [((index . ,index) (id . ,id) (type . "function")
                                                  (function (name . ,name) (arguments . "")))]))))
               (dolist (piece (eddi-agent-test--pieces (eddi-agent-test--arguments arguments)))
                 (chunk (delta `((tool_calls . [((index . ,index)
                                                 (function (arguments . ,piece)))]))))))
      (chunk (delta #s(hash-table) (if calls stop "stop")))
      (chunk [] `((prompt_tokens . ,input-tokens) (completion_tokens . ,output-tokens)
                  (total_tokens . ,(+ input-tokens output-tokens))))
      (push "data: [DONE]\n\n" events))
    (setq events (nreverse events))
    (if cut-after (seq-take events cut-after) events)))

(provide 'eddi-agent-test-server)

;;; eddi-agent-test-server.el ends here
