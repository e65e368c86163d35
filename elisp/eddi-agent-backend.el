;;; eddi-agent-backend.el --- Model APIs for the eddi agent loop  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The eddi authors
;; SPDX-License-Identifier: GPL-3.0-or-later
;; Author: The eddi authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; One streaming request to a language model, in the wire format of
;; the Anthropic Messages API or of the OpenAI chat completions API
;; (which local servers such as Ollama and llama.cpp also speak), and
;; its answer decoded into a neutral turn: the text, the tool calls, the
;; stop reason and the token counts.  eddi-agent.el keeps the
;; conversation in a neutral form too; only this file knows how each
;; API spells it.
;;
;; Why curl: it is on every Debian machine, speaks HTTP/2, TLS and
;; proxies, and runs as a subprocess, so Emacs never blocks while a
;; model thinks.  The process filter parses the Server-Sent Events as
;; they arrive and hands text deltas to the caller for display.  The API
;; key never appears on a command line (where `ps' would show it): curl
;; reads its URL, headers and body as a config on standard input.
;;
;; A request ends exactly once, through its DONE callback: with a
;; complete turn, or with an error string (HTTP status and the server's
;; body, curl's message, a stream that stopped before its end event, an
;; event that is not JSON).  `eddi-agent-backend-cancel' ends it
;; without calling back.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'auth-source)
(require 'url-parse)

(defgroup eddi-agent nil
  "An agent loop in which a language model drives eddi."
  :group 'eddi
  :prefix "eddi-agent-")

(defgroup eddi-agent-limits nil
  "The agent's circuit breaker, clocks and result sizes."
  :group 'eddi-agent)

(defgroup eddi-agent-faces nil
  "Faces of the *eddi-agent* buffer and of the review."
  :group 'eddi-agent
  :group 'eddi-faces)

(defcustom eddi-agent-backend 'anthropic
  "The wire format of the model API."
  :type '(choice (const :tag "Anthropic Messages API" anthropic)
                 (const :tag "OpenAI-compatible chat completions" openai))
  :group 'eddi-agent)

(defcustom eddi-agent-api-url nil
  "Endpoint of the model API, or nil for the backend's public endpoint.
For a local OpenAI-compatible server, for instance
\"http://localhost:11434/v1/chat/completions\" (Ollama)."
  :type '(choice (const :tag "The backend's public endpoint" nil) string)
  :group 'eddi-agent)

(defcustom eddi-agent-model nil
  "Model name sent with each request, or nil for the backend's default."
  :type '(choice (const :tag "The backend's default" nil) string)
  :group 'eddi-agent)

(defcustom eddi-agent-max-tokens 8192
  "Most tokens the model may write in one turn (Anthropic's max_tokens)."
  :type 'natnum
  :group 'eddi-agent)

(defcustom eddi-agent-api-key nil
  "The API key, a function that returns it, or nil to look it up.
A function (called with no arguments when a session starts) can read
the key from a password store.  When nil, the key comes from
`auth-source', then from the variable of `eddi-agent-api-key-variables'."
  :type '(choice (const :tag "From auth-source or the environment" nil)
                 (string :tag "Key")
                 (function :tag "Function returning the key"))
  :group 'eddi-agent)

(defcustom eddi-agent-api-key-variables
  '((anthropic . "ANTHROPIC_API_KEY") (openai . "OPENAI_API_KEY"))
  "Environment variable holding the API key, per backend.
The key is looked up first with `auth-source' (a \"machine HOST
password KEY\" line for the endpoint's host), then in this variable.
An OpenAI-compatible backend without a key sends no Authorization
header, as local servers expect."
  :type '(alist :key-type symbol :value-type string)
  :group 'eddi-agent)

(defcustom eddi-agent-curl-program "curl"
  "The curl executable that carries requests."
  :type 'string
  :group 'eddi-agent)

(defcustom eddi-agent-connect-timeout 30
  "Seconds curl may take to connect to the model API."
  :type 'natnum
  :group 'eddi-agent)

(defcustom eddi-agent-idle-timeout 90
  "Seconds a response may stay silent before the request is dropped.
A stalled stream then fails at once instead of waiting for the wall
clock (`eddi-agent-max-seconds').  nil waits for ever."
  :type '(choice (const :tag "No idle timeout" nil) number)
  :group 'eddi-agent-limits)

(defcustom eddi-agent-max-retries 4
  "How many times a request is sent again after HTTP 429 or 5xx."
  :type 'natnum
  :group 'eddi-agent-limits)

(defcustom eddi-agent-retry-base-delay 2
  "Seconds before the first retry; each next one waits twice as long.
A retry-after header from the server is honoured instead."
  :type 'number
  :group 'eddi-agent)

(defcustom eddi-agent-retry-max-delay 60
  "The longest wait before a retry, whatever retry-after says."
  :type 'number
  :group 'eddi-agent)

(defconst eddi-agent-backend-anthropic-version "2023-06-01"
  "The anthropic-version header: the Messages API version spoken here.")

(defconst eddi-agent-backend--defaults
  '((anthropic "https://api.anthropic.com/v1/messages" "claude-sonnet-4-5")
    (openai "https://api.openai.com/v1/chat/completions" "gpt-4.1"))
  "Per backend: the public endpoint and the default model.")

;;;; Settings

(defun eddi-agent-backend-url (&optional backend)
  "The endpoint of BACKEND (default `eddi-agent-backend')."
  (or eddi-agent-api-url
      (nth 1 (assq (or backend eddi-agent-backend) eddi-agent-backend--defaults))))

(defun eddi-agent-backend-model (&optional backend)
  "The model name for BACKEND (default `eddi-agent-backend')."
  (or eddi-agent-model
      (nth 2 (assq (or backend eddi-agent-backend) eddi-agent-backend--defaults))))

(defun eddi-agent-backend-api-key (backend url)
  "The API key for BACKEND at URL, or nil when none is configured."
  (let ((key (if eddi-agent-api-key
                 (if (functionp eddi-agent-api-key) (funcall eddi-agent-api-key) eddi-agent-api-key)
               (let* ((host (url-host (url-generic-parse-url url)))
                      (entry (and host (car (auth-source-search :host host :max 1))))
                      (secret (plist-get entry :secret))
                      (variable (alist-get backend eddi-agent-api-key-variables)))
                 (or (if (functionp secret) (funcall secret) secret)
                     (and variable (getenv variable)))))))
    (and (stringp key) (not (string-empty-p key)) key)))

;;;; JSON

(defun eddi-agent-backend-json-parse (text)
  "Parse the JSON TEXT: objects as alists, arrays as vectors."
  (json-parse-string text :object-type 'alist :array-type 'array
                     :null-object :null :false-object :false))

(defun eddi-agent-backend-json-encode (value)
  "VALUE (alists, vectors, strings, numbers, t, :false, :null) as JSON text."
  (decode-coding-string (json-serialize value) 'utf-8))

;;;; Turns and tool calls

(cl-defstruct (eddi-agent-call (:constructor eddi-agent-call-create) (:copier nil))
  "One tool call of the model."
  (id nil :documentation "The id the API gave the call.")
  (name nil :documentation "The tool's name.")
  (arguments "" :documentation "The arguments as the model wrote them (JSON text).")
  (input nil :documentation "The arguments parsed (an alist), when they parse.")
  (malformed nil :documentation "Why the arguments do not parse, or nil.")
  (index nil :documentation "Position in the stream, to route argument deltas."))

(cl-defstruct (eddi-agent-turn (:constructor eddi-agent-turn-create) (:copier nil))
  "One reply of the model, as it streams in."
  (text "" :documentation "The text the model wrote.")
  (calls nil :documentation "Tool calls in order, once finished (newest first while streaming).")
  (stop-reason nil :documentation "Why the model stopped, as the API says it.")
  (input-tokens 0 :documentation "Tokens the request cost.")
  (output-tokens 0 :documentation "Tokens the model wrote.")
  (complete nil :documentation "Non-nil once the stream's end was seen.")
  (error nil :documentation "An error the stream itself reported."))

(defun eddi-agent-backend--call-at (turn index)
  "The call of TURN streamed at INDEX, or nil."
  (cl-find index (eddi-agent-turn-calls turn) :key #'eddi-agent-call-index))

(defun eddi-agent-backend--finish-turn (turn)
  "Order the tool requests of TURN and parse their arguments."
  (setf (eddi-agent-turn-calls turn) (reverse (eddi-agent-turn-calls turn)))
  (dolist (call (eddi-agent-turn-calls turn))
    (let ((text (eddi-agent-call-arguments call)))
      (when (string-empty-p (string-trim text))
        (setq text "{}"))
      (condition-case err
          (let ((input (eddi-agent-backend-json-parse text)))
            (if (and (listp input) (not (eq input :null)))
                (setf (eddi-agent-call-input call) input)
              (setf (eddi-agent-call-malformed call) "arguments are not a JSON object")))
        (json-error
         (setf (eddi-agent-call-malformed call)
               (format "arguments are not valid JSON (%s)" (car err)))))))
  turn)

;;;; Request bodies

(defun eddi-agent-backend--anthropic-message (message)
  "MESSAGE (a neutral plist) as a Messages API message."
  (pcase (plist-get message :role)
    ('user `((role . "user") (content . ,(plist-get message :text))))
    ('assistant
     `((role . "assistant")
       (content
        . ,(vconcat
            (let ((text (plist-get message :text)))
              (unless (string-empty-p text)
                (list `((type . "text") (text . ,text)))))
            (mapcar (lambda (call)
                      `((type . "tool_use") (id . ,(eddi-agent-call-id call))
                        (name . ,(eddi-agent-call-name call))
                        ;; Arguments that do not parse travel as {}: the
                        ;; tool result says what was wrong with them.
                        (input . ,(or (eddi-agent-call-input call) #s(hash-table)))))
                    (plist-get message :calls))))))
    ('tool
     `((role . "user")
       (content
        . ,(vconcat
            (mapcar (lambda (result)
                      `((type . "tool_result") (tool_use_id . ,(plist-get result :id))
                        (content . ,(plist-get result :content))
                        ,@(and (plist-get result :error) '((is_error . t)))))
                    (plist-get message :results))
            (when-let ((note (plist-get message :note)))
              (list `((type . "text") (text . ,note))))))))))

(defun eddi-agent-backend--openai-messages (message)
  "MESSAGE (a neutral plist) as a list of chat completions messages."
  (pcase (plist-get message :role)
    ('user (list `((role . "user") (content . ,(plist-get message :text)))))
    ('assistant
     (let ((text (plist-get message :text))
           (calls (plist-get message :calls)))
       (list `((role . "assistant")
               (content . ,(if (string-empty-p text) :null text))
               ,@(and calls
                      `((tool_calls
                         . ,(vconcat
                             (mapcar (lambda (call)
                                       `((id . ,(eddi-agent-call-id call)) (type . "function")
                                         (function (name . ,(eddi-agent-call-name call))
                                                   (arguments . ,(eddi-agent-call-arguments call)))))
                                     calls)))))))))
    ('tool
     (append
      (mapcar (lambda (result)
                `((role . "tool") (tool_call_id . ,(plist-get result :id))
                  (content . ,(plist-get result :content))))
              (plist-get message :results))
      (when-let ((note (plist-get message :note)))
        (list `((role . "user") (content . ,note))))))))

(defun eddi-agent-backend-body (backend model system messages tools)
  "The request body for BACKEND as an alist.
MODEL is the model name, SYSTEM the system prompt, MESSAGES the
neutral conversation, TOOLS a list of (NAME DESCRIPTION SCHEMA)."
  (pcase backend
    ('anthropic
     `((model . ,model) (max_tokens . ,eddi-agent-max-tokens) (stream . t)
       (system . ,system)
       ,@(and tools
              `((tools . ,(vconcat (mapcar (lambda (tool)
                                             `((name . ,(nth 0 tool)) (description . ,(nth 1 tool))
                                               (input_schema . ,(nth 2 tool))))
                                           tools)))))
       (messages . ,(vconcat (mapcar #'eddi-agent-backend--anthropic-message messages)))))
    ('openai
     `((model . ,model) (stream . t) (stream_options (include_usage . t))
       ,@(and tools
              `((tools . ,(vconcat (mapcar (lambda (tool)
                                             `((type . "function")
                                               (function (name . ,(nth 0 tool))
                                                         (description . ,(nth 1 tool))
                                                         (parameters . ,(nth 2 tool)))))
                                           tools)))))
       (messages . ,(vconcat (cons `((role . "system") (content . ,system))
                                   (mapcan #'eddi-agent-backend--openai-messages messages))))))
    (_ (error "Unknown eddi-agent backend: %S" backend))))

(defun eddi-agent-backend-headers (backend key)
  "The HTTP headers for BACKEND with the API KEY (or nil)."
  (append '("Content-Type: application/json"
            ;; No 100-continue round trip before large bodies.
            "Expect:")
          (pcase backend
            ('anthropic (list (concat "x-api-key: " (or key ""))
                              (concat "anthropic-version: "
                                      eddi-agent-backend-anthropic-version)))
            ('openai (and key (list (concat "Authorization: Bearer " key)))))))

;;;; Server-Sent Events

(cl-defstruct (eddi-agent-sse (:constructor eddi-agent-sse-create) (:copier nil))
  "The state of a Server-Sent Events parser."
  (pending "" :documentation "The start of a line not yet ended.")
  (event nil :documentation "The event field of the event being read.")
  (data nil :documentation "Its data lines, newest first."))

(defun eddi-agent-sse-feed (sse chunk handler)
  "Feed CHUNK of an event stream to SSE; call HANDLER on each event.
HANDLER gets the event type (or nil) and the data text.  CHUNK may end
anywhere, even inside a line."
  (let ((text (concat (eddi-agent-sse-pending sse) chunk))
        (start 0))
    (while (string-match "\n" text start)
      (let ((line (substring text start (match-beginning 0))))
        (setq start (match-end 0))
        (when (string-suffix-p "\r" line)
          (setq line (substring line 0 -1)))
        (cond
         ((string-empty-p line)
          (let ((data (eddi-agent-sse-data sse))
                (event (eddi-agent-sse-event sse)))
            (setf (eddi-agent-sse-data sse) nil
                  (eddi-agent-sse-event sse) nil)
            (when data
              (funcall handler event (mapconcat #'identity (reverse data) "\n")))))
         ((string-prefix-p ":" line))   ; a comment, sent to keep the line open
         ((string-match "\\`\\([^:]*\\)\\(?:: ?\\(.*\\)\\)?\\'" line)
          (let ((field (match-string 1 line))
                (value (or (match-string 2 line) "")))
            (pcase field
              ("event" (setf (eddi-agent-sse-event sse) value))
              ("data" (push value (eddi-agent-sse-data sse)))))))))
    (setf (eddi-agent-sse-pending sse) (substring text start))))

;;;; Stream decoders

(defun eddi-agent-backend--anthropic-event (turn _type data on-text)
  "Apply the Messages API stream event DATA to TURN.
Text deltas also go to ON-TEXT."
  (let* ((event (eddi-agent-backend-json-parse data))
         (kind (alist-get 'type event)))
    (pcase kind
      ("message_start"
       (let ((usage (alist-get 'usage (alist-get 'message event))))
         (setf (eddi-agent-turn-input-tokens turn)
               (+ (or (alist-get 'input_tokens usage) 0)
                  (let ((n (alist-get 'cache_read_input_tokens usage))) (if (numberp n) n 0))
                  (let ((n (alist-get 'cache_creation_input_tokens usage))) (if (numberp n) n 0)))
               (eddi-agent-turn-output-tokens turn) (or (alist-get 'output_tokens usage) 0))))
      ("content_block_start"
       (let ((block (alist-get 'content_block event)))
         (pcase (alist-get 'type block)
           ("text" (let ((text (alist-get 'text block)))
                     (when (and (stringp text) (not (string-empty-p text)))
                       (setf (eddi-agent-turn-text turn) (concat (eddi-agent-turn-text turn) text))
                       (funcall on-text text))))
           ("tool_use" (push (eddi-agent-call-create :id (alist-get 'id block)
                                                     :name (alist-get 'name block)
                                                     :index (alist-get 'index event))
                             (eddi-agent-turn-calls turn))))))
      ("content_block_delta"
       (let ((delta (alist-get 'delta event)))
         (pcase (alist-get 'type delta)
           ("text_delta"
            (let ((text (alist-get 'text delta)))
              (setf (eddi-agent-turn-text turn) (concat (eddi-agent-turn-text turn) text))
              (funcall on-text text)))
           ("input_json_delta"
            (when-let ((call (eddi-agent-backend--call-at turn (alist-get 'index event))))
              (setf (eddi-agent-call-arguments call)
                    (concat (eddi-agent-call-arguments call)
                            (alist-get 'partial_json delta))))))))
      ("message_delta"
       (let ((reason (alist-get 'stop_reason (alist-get 'delta event)))
             (usage (alist-get 'usage event)))
         (when (stringp reason) (setf (eddi-agent-turn-stop-reason turn) reason))
         (when (numberp (alist-get 'output_tokens usage))
           (setf (eddi-agent-turn-output-tokens turn) (alist-get 'output_tokens usage)))))
      ("message_stop" (setf (eddi-agent-turn-complete turn) t))
      ("error"
       (let ((err (alist-get 'error event)))
         (setf (eddi-agent-turn-error turn)
               (format "%s: %s" (alist-get 'type err) (alist-get 'message err))))))))

(defun eddi-agent-backend--openai-event (turn _type data on-text)
  "Apply the chat completions stream chunk DATA to TURN.
Text deltas also go to ON-TEXT."
  (if (equal data "[DONE]")
      (setf (eddi-agent-turn-complete turn) t)
    (let* ((chunk (eddi-agent-backend-json-parse data))
           (err (alist-get 'error chunk))
           (usage (alist-get 'usage chunk))
           (choices (alist-get 'choices chunk))
           (choice (and (vectorp choices) (> (length choices) 0) (aref choices 0)))
           (delta (alist-get 'delta choice)))
      (when (consp err)
        (setf (eddi-agent-turn-error turn) (format "%s" (alist-get 'message err))))
      (when (consp usage)
        (setf (eddi-agent-turn-input-tokens turn) (or (alist-get 'prompt_tokens usage) 0)
              (eddi-agent-turn-output-tokens turn) (or (alist-get 'completion_tokens usage) 0)))
      (let ((text (alist-get 'content delta)))
        (when (and (stringp text) (not (string-empty-p text)))
          (setf (eddi-agent-turn-text turn) (concat (eddi-agent-turn-text turn) text))
          (funcall on-text text)))
      (let ((calls (alist-get 'tool_calls delta)))
        (when (vectorp calls)
          (seq-doseq (part calls)
            (let* ((index (alist-get 'index part))
                   (function (alist-get 'function part))
                   (call (or (eddi-agent-backend--call-at turn index)
                             (car (push (eddi-agent-call-create :index index)
                                        (eddi-agent-turn-calls turn)))))
                   (id (alist-get 'id part))
                   (name (alist-get 'name function))
                   (arguments (alist-get 'arguments function)))
              (when (stringp id) (setf (eddi-agent-call-id call) id))
              (when (stringp name) (setf (eddi-agent-call-name call) name))
              (when (stringp arguments)
                (setf (eddi-agent-call-arguments call)
                      (concat (eddi-agent-call-arguments call) arguments)))))))
      (let ((reason (alist-get 'finish_reason choice)))
        (when (stringp reason)
          (setf (eddi-agent-turn-stop-reason turn) reason))))))

(defun eddi-agent-backend--decode-whole (backend turn body)
  "Fill TURN from BODY, a response of BACKEND that was not streamed."
  (let ((response (eddi-agent-backend-json-parse body)))
    (pcase backend
      ('anthropic
       (let ((usage (alist-get 'usage response)))
         (setf (eddi-agent-turn-input-tokens turn) (or (alist-get 'input_tokens usage) 0)
               (eddi-agent-turn-output-tokens turn) (or (alist-get 'output_tokens usage) 0)
               (eddi-agent-turn-stop-reason turn) (alist-get 'stop_reason response)))
       (seq-doseq (block (alist-get 'content response))
         (pcase (alist-get 'type block)
           ("text" (setf (eddi-agent-turn-text turn)
                         (concat (eddi-agent-turn-text turn) (alist-get 'text block))))
           ("tool_use" (push (eddi-agent-call-create
                              :id (alist-get 'id block) :name (alist-get 'name block)
                              :arguments (eddi-agent-backend-json-encode
                                          (or (alist-get 'input block) #s(hash-table))))
                             (eddi-agent-turn-calls turn))))))
      ('openai
       (let* ((usage (alist-get 'usage response))
              (choice (aref (alist-get 'choices response) 0))
              (message (alist-get 'message choice))
              (text (alist-get 'content message)))
         (setf (eddi-agent-turn-input-tokens turn) (or (alist-get 'prompt_tokens usage) 0)
               (eddi-agent-turn-output-tokens turn) (or (alist-get 'completion_tokens usage) 0)
               (eddi-agent-turn-stop-reason turn) (alist-get 'finish_reason choice)
               (eddi-agent-turn-text turn) (if (stringp text) text ""))
         (seq-doseq (call (or (alist-get 'tool_calls message) []))
           (let ((function (alist-get 'function call)))
             (push (eddi-agent-call-create :id (alist-get 'id call)
                                           :name (alist-get 'name function)
                                           :arguments (alist-get 'arguments function))
                   (eddi-agent-turn-calls turn)))))))
    (setf (eddi-agent-turn-complete turn) t)))

;;;; Requests

(cl-defstruct (eddi-agent-request (:constructor eddi-agent-request--create) (:copier nil))
  "A streaming request in flight."
  (backend nil :documentation "The wire format.")
  (process nil :documentation "The curl process.")
  (stderr nil :documentation "The buffer collecting curl's messages.")
  (head "" :documentation "Response bytes before the body.")
  (status nil :documentation "The HTTP status, once the headers are read.")
  (streaming nil :documentation "Non-nil when the body is an event stream.")
  (body nil :documentation "The body when it is not an event stream, newest chunk first.")
  (sse nil :documentation "The event-stream parser.")
  (turn nil :documentation "The turn being decoded.")
  (failure nil :documentation "Why the request failed, once known.")
  (on-text nil :documentation "Called with each text delta.")
  (on-done nil :documentation "Called once with TURN and ERROR.")
  (on-retry nil :documentation "Called with the delay, the HTTP status and the attempt before a retry.")
  (finished nil :documentation "Non-nil once ON-DONE ran or the request was cancelled.")
  (headers nil :documentation "The response head, for retry-after.")
  (config nil :documentation "The curl config of the request (URL, headers, body).")
  (attempt 1 :documentation "Which sending of the request this is.")
  (idle-timer nil :documentation "Fires when the response has been silent too long.")
  (retry-timer nil :documentation "Sends the request again."))

(defun eddi-agent-backend--curl-string (text)
  "TEXT quoted for a curl config file."
  (concat "\"" (replace-regexp-in-string "[\"\\\\]" "\\\\\\&" text) "\""))

(defun eddi-agent-backend--curl-config (url headers body)
  "A curl config that POSTs BODY to URL with HEADERS."
  (concat "url = " (eddi-agent-backend--curl-string url) "\n"
          (mapconcat (lambda (header)
                       (concat "header = " (eddi-agent-backend--curl-string header) "\n"))
                     headers "")
          ;; json-serialize escapes control characters: BODY is one line.
          "data-binary = " (eddi-agent-backend--curl-string body) "\n"))

(defun eddi-agent-backend--header-block (request)
  "Take the response head out of REQUEST's pending bytes, if complete.
Return the rest of the bytes (the start of the body), or nil while the
head is incomplete."
  (let ((head (eddi-agent-request-head request)))
    (when (string-match "\r?\n\r?\n" head)
      (let ((block (substring head 0 (match-beginning 0)))
            (rest (substring head (match-end 0))))
        (setf (eddi-agent-request-head request) "")
        (if (not (string-match "\\`HTTP/[0-9.]+ \\([0-9]+\\)\\(.*\\)" block))
            (progn (setf (eddi-agent-request-failure request)
                         (format "Not an HTTP response: %s" (truncate-string-to-width block 200)))
                   nil)
          (let ((status (string-to-number (match-string 1 block)))
                (reason (match-string 2 block)))
            (if (or (< status 200)
                    ;; The answer of a proxy to CONNECT precedes the real one.
                    (string-match-p "connection established" reason))
                (progn (setf (eddi-agent-request-head request) rest)
                       (eddi-agent-backend--header-block request))
              (setf (eddi-agent-request-status request) status
                    (eddi-agent-request-headers request) block
                    (eddi-agent-request-streaming request)
                    (and (< status 300)
                         (string-match-p "^content-type:[ \t]*text/event-stream"
                                         (downcase block))))
              rest)))))))

(defun eddi-agent-backend--feed (request chunk)
  "Feed CHUNK of curl's output to REQUEST."
  (let ((body chunk))
    (unless (eddi-agent-request-status request)
      (setf (eddi-agent-request-head request) (concat (eddi-agent-request-head request) chunk))
      (setq body (eddi-agent-backend--header-block request)))
    (when (and body (eddi-agent-request-status request))
      (if (not (eddi-agent-request-streaming request))
          (push body (eddi-agent-request-body request))
        (let ((turn (eddi-agent-request-turn request))
              (decode (pcase (eddi-agent-request-backend request)
                        ('anthropic #'eddi-agent-backend--anthropic-event)
                        ('openai #'eddi-agent-backend--openai-event))))
          (eddi-agent-sse-feed
           (eddi-agent-request-sse request) body
           (lambda (type data)
             (condition-case err
                 (funcall decode turn type data (eddi-agent-request-on-text request))
               (json-error
                (signal 'error (list (format "Malformed stream event (%s): %s" (car err)
                                             (truncate-string-to-width data 200)))))))))))))

(defun eddi-agent-backend--filter (request)
  "The process filter of REQUEST."
  (lambda (_process chunk)
    (eddi-agent-backend--idle-reset request)
    (unless (or (eddi-agent-request-finished request) (eddi-agent-request-failure request))
      (condition-case err
          (eddi-agent-backend--feed request chunk)
        (error (setf (eddi-agent-request-failure request) (error-message-string err))
               ;; Nothing more from this stream can be trusted.
               (delete-process (eddi-agent-request-process request)))))))

(defun eddi-agent-backend--curl-message (request)
  "The last message curl wrote for REQUEST, or nil."
  (let ((buffer (eddi-agent-request-stderr request)))
    (when (buffer-live-p buffer)
      (let ((text (string-trim (with-current-buffer buffer (buffer-string)))))
        (unless (string-empty-p text) text)))))

(defun eddi-agent-backend--outcome (request exit)
  "The error of REQUEST after curl exited with EXIT, or nil for success."
  (let ((turn (eddi-agent-request-turn request))
        (status (eddi-agent-request-status request)))
    (cond
     ((eddi-agent-request-failure request))
     ((eddi-agent-turn-error turn) (format "Model API error: %s" (eddi-agent-turn-error turn)))
     ((null status)
      (format "No response from the model API (curl exit %s%s)" exit
              (if-let ((message (eddi-agent-backend--curl-message request)))
                  (concat ": " message) "")))
     ((>= status 300)
      (format "HTTP %d: %s" status
              (string-trim (apply #'concat (reverse (eddi-agent-request-body request))))))
     ((not (eddi-agent-request-streaming request))
      (condition-case err
          (progn (eddi-agent-backend--decode-whole
                  (eddi-agent-request-backend request) turn
                  (apply #'concat (reverse (eddi-agent-request-body request))))
                 nil)
        (error (format "Malformed response: %s" (error-message-string err)))))
     ((or (eddi-agent-turn-complete turn)
          ;; Some OpenAI-compatible servers close without [DONE].
          (and (eq (eddi-agent-request-backend request) 'openai)
               (eddi-agent-turn-stop-reason turn) (eql exit 0)))
      nil)
     (t (format "Stream interrupted before its end (curl exit %s%s)" exit
                (if-let ((message (eddi-agent-backend--curl-message request)))
                    (concat ": " message) ""))))))

(defun eddi-agent-backend--cleanup (request)
  "Free REQUEST's process and buffers."
  (let ((process (eddi-agent-request-process request))
        (stderr (eddi-agent-request-stderr request)))
    (dolist (timer (list (eddi-agent-request-idle-timer request)
                         (eddi-agent-request-retry-timer request)))
      (when timer (cancel-timer timer)))
    (when (process-live-p process) (delete-process process))
    (when (buffer-live-p stderr)
      (when-let ((pipe (get-buffer-process stderr))) (delete-process pipe))
      (kill-buffer stderr))))

(defun eddi-agent-backend--sentinel (request)
  "The process sentinel of REQUEST."
  (lambda (process _event)
    (unless (or (process-live-p process) (eddi-agent-request-finished request))
      (setf (eddi-agent-request-finished request) t)
      ;; Let the stderr pipe deliver curl's last words.
      (when-let* ((stderr (eddi-agent-request-stderr request))
                  (pipe (and (buffer-live-p stderr) (get-buffer-process stderr))))
        (while (accept-process-output pipe 0.05)))
      (let ((failure (eddi-agent-backend--outcome request (process-exit-status process)))
            (turn (eddi-agent-request-turn request))
            (delay (eddi-agent-backend--retry-delay request)))
        (eddi-agent-backend--cleanup request)
        (if (and failure delay)
            (eddi-agent-backend--retry request delay)
          (funcall (eddi-agent-request-on-done request)
                   (unless failure (eddi-agent-backend--finish-turn turn))
                   failure))))))

(defun eddi-agent-backend--retry-after (head)
  "The seconds a retry-after header in the response HEAD asks for, or nil."
  (when (and head (string-match "^retry-after:[ \t]*\\([^\r\n]*\\)" (downcase head)))
    (let ((value (string-trim (match-string 1 (downcase head)))))
      (if (string-match-p "\\`[0-9]+\\(?:\\.[0-9]*\\)?\\'" value)
          (string-to-number value)
        ;; An HTTP date.
        (ignore-errors (max 0 (float-time (time-subtract (date-to-time value) nil))))))))

(defun eddi-agent-backend--retry-delay (request)
  "Seconds to wait before sending REQUEST again, or nil when it must not be."
  (let ((status (eddi-agent-request-status request)))
    (when (and status (or (= status 429) (>= status 500))
               (<= (eddi-agent-request-attempt request) eddi-agent-max-retries))
      (min eddi-agent-retry-max-delay
           (or (eddi-agent-backend--retry-after (eddi-agent-request-headers request))
               (* eddi-agent-retry-base-delay
                  (expt 2 (1- (eddi-agent-request-attempt request)))))))))

(defun eddi-agent-backend--retry (request delay)
  "Send REQUEST again after DELAY seconds."
  (let ((status (eddi-agent-request-status request)))
    (setf (eddi-agent-request-head request) ""
          (eddi-agent-request-status request) nil
          (eddi-agent-request-headers request) nil
          (eddi-agent-request-streaming request) nil
          (eddi-agent-request-body request) nil
          (eddi-agent-request-sse request) (eddi-agent-sse-create)
          (eddi-agent-request-turn request) (eddi-agent-turn-create)
          (eddi-agent-request-failure request) nil
          (eddi-agent-request-finished request) nil)
    (cl-incf (eddi-agent-request-attempt request))
    (when-let ((on-retry (eddi-agent-request-on-retry request)))
      (funcall on-retry delay status (eddi-agent-request-attempt request)))
    (setf (eddi-agent-request-retry-timer request)
          (run-at-time delay nil #'eddi-agent-backend--launch request))))

(defun eddi-agent-backend--idle-reset (request)
  "Start REQUEST's idle clock again: bytes arrived."
  (when-let ((timer (eddi-agent-request-idle-timer request)))
    (cancel-timer timer))
  (when eddi-agent-idle-timeout
    (setf (eddi-agent-request-idle-timer request)
          (run-at-time eddi-agent-idle-timeout nil
                       (lambda ()
                         (let ((process (eddi-agent-request-process request)))
                           (when (and (process-live-p process)
                                      (not (eddi-agent-request-finished request)))
                             (setf (eddi-agent-request-failure request)
                                   (format "No data from the model API for %s s (eddi-agent-idle-timeout)"
                                           eddi-agent-idle-timeout))
                             (delete-process process))))))))

(cl-defun eddi-agent-backend-request (&key backend url key model system messages tools
                                           on-text on-done on-retry)
  "Send one streaming request and return it; never wait for the answer.
BACKEND is `anthropic' or `openai', URL the endpoint, KEY the API key
or nil, MODEL the model name, SYSTEM the system prompt, MESSAGES the
neutral conversation, TOOLS a list of (NAME DESCRIPTION SCHEMA).
ON-TEXT is called with each text delta as it arrives.  ON-DONE is
called once, with an `eddi-agent-turn' and nil, or nil and an error
string.  After HTTP 429 or 5xx the request is sent again (up to
`eddi-agent-max-retries' times, waiting as retry-after says or
longer each time); ON-RETRY, when given, is called with the delay in
seconds, the HTTP status and the coming attempt's number."
  (let* ((body (eddi-agent-backend-json-encode
                (eddi-agent-backend-body backend model system messages tools)))
         (request (eddi-agent-request--create
                   :backend backend :sse (eddi-agent-sse-create)
                   :turn (eddi-agent-turn-create)
                   :on-text (or on-text #'ignore) :on-done on-done :on-retry on-retry
                   :config (eddi-agent-backend--curl-config
                            url (eddi-agent-backend-headers backend key) body))))
    (eddi-agent-backend--launch request)
    request))

(defun eddi-agent-backend--launch (request)
  "Start curl for REQUEST."
  (let* ((stderr (generate-new-buffer " *eddi-agent-curl*"))
         (process-connection-type nil)
         (process (make-process
                   :name "eddi-agent-request"
                   :command (list eddi-agent-curl-program "--silent" "--show-error"
                                  "--no-buffer" "--include" "--request" "POST"
                                  "--connect-timeout" (number-to-string eddi-agent-connect-timeout)
                                  "--config" "-")
                   :coding '(utf-8-unix . utf-8-unix)
                   :noquery t
                   :stderr stderr
                   :filter #'ignore
                   :sentinel #'ignore)))
    (setf (eddi-agent-request-process request) process
          (eddi-agent-request-stderr request) stderr
          (eddi-agent-request-retry-timer request) nil)
    (when-let ((pipe (get-buffer-process stderr)))
      (set-process-query-on-exit-flag pipe nil))
    (set-process-filter process (eddi-agent-backend--filter request))
    (set-process-sentinel process (eddi-agent-backend--sentinel request))
    (eddi-agent-backend--idle-reset request)
    (process-send-string process (eddi-agent-request-config request))
    (process-send-eof process)))

(defun eddi-agent-backend-cancel (request)
  "Stop REQUEST without calling its ON-DONE."
  (when (and request (not (eddi-agent-request-finished request)))
    (setf (eddi-agent-request-finished request) t)
    (eddi-agent-backend--cleanup request)))

(provide 'eddi-agent-backend)

;;; eddi-agent-backend.el ends here
