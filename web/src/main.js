// eddi's web page: watch a workspace's sessions, follow a file a session
// edits, and send EddiSpeak as the signed-in NATS user (doc/web.org).
//
// The page holds no rights of its own: it connects to nats-server's
// WebSocket with the user's own credentials, typed in here. It reads what
// eddi publishes for it (eddi.watch.sessions, eddi.watch.edits) and sends
// commands on the user's own subject, eddi.u.<user>.cmd, where eddi takes
// the sender from the subject; a viewer's nats-server refuses the publish.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { connect, StringCodec } from "nats.ws";

const SESSIONS_SUBJECT = "eddi.watch.sessions";
const EDITS_SUBJECT = "eddi.watch.edits";
// A command's reply comes within this, or the console says it did not.
const COMMAND_TIMEOUT_MS = 10000;
// The console keeps this many past exchanges.
const CONSOLE_LOG_MAX = 50;

const sc = StringCodec();
const $ = (id) => document.getElementById(id);

const state = {
  nc: null,
  user: null,
  websocket: null,
  sessions: [],          // the last eddi.watch.sessions list
  latest: new Map(),     // session -> its last eddi.watch.edits message
  lastCommand: new Map(), // session -> {request, reply, ok, via, sender}
  selected: null,        // the session watched
  file: null,            // the file shown
};

const live = new EditorView({
  parent: $("live"),
  state: EditorState.create({
    doc: "",
    extensions: [basicSetup, EditorState.readOnly.of(true), EditorView.editable.of(false)],
  }),
});

function setStatus(text, failed = false) {
  $("status").textContent = text;
  $("status").className = failed ? "fail" : "";
}

// ------------------------------------------------------------ sessions

function renderSessions() {
  const body = $("sessions").tBodies[0];
  body.replaceChildren();
  for (const entry of state.sessions) {
    const row = body.insertRow();
    row.dataset.session = entry.session;
    if (entry.session === state.selected) row.className = "selected";
    const files = entry.files.map((f) => f.path + (f.modified ? " *" : "")).join(", ");
    for (const text of [entry.session, entry.sender, files, entry.since]) row.insertCell().textContent = text;
    row.addEventListener("click", () => select(entry.session));
  }
  $("no-sessions").hidden = state.sessions.length > 0;
}

function select(session) {
  state.selected = session;
  state.file = null;
  $("live-title").textContent = `of session ${session}`;
  renderSessions();
  renderLive();
}

// ------------------------------------------------------------ live view

function showText(text) {
  const now = live.state.doc.toString();
  if (now === text) return;
  live.dispatch({ changes: { from: 0, to: now.length, insert: text } });
}

function renderFiles(files) {
  const select = $("live-file");
  const paths = files.map((f) => f.path);
  if (!paths.includes(state.file)) state.file = paths.length ? paths[paths.length - 1] : null;
  const options = [...select.options].map((o) => o.value);
  if (options.join("\n") !== paths.join("\n")) {
    select.replaceChildren(...paths.map((p) => new Option(p, p)));
  }
  select.value = state.file ?? "";
}

function renderLive() {
  const message = state.latest.get(state.selected);
  const files = message ? message.files : [];
  renderFiles(files);
  const file = files.find((f) => f.path === state.file);
  showText(file && typeof file.text === "string" ? file.text : "");
  const last = state.lastCommand.get(state.selected);
  $("last-sender").textContent = last ? `by ${last.sender} via ${last.via}` : "";
  $("last-request").textContent = last ? last.request : "";
  $("last-reply").textContent = last ? last.reply : "";
  $("last-reply").className = last && !last.ok ? "fail" : "";
}

function onEdit(message) {
  if (!message.session) return;
  state.latest.set(message.session, message);
  if (typeof message.request === "string")
    state.lastCommand.set(message.session, {
      request: message.request, reply: message.reply, ok: message.ok, via: message.via, sender: message.sender,
    });
  if (message.session === state.selected) renderLive();
}

async function follow(subject, visit) {
  const subscription = state.nc.subscribe(subject);
  for await (const m of subscription) {
    try {
      visit(JSON.parse(sc.decode(m.data)));
    } catch (error) {
      console.error(`${subject}: ${error.message}`);
    }
  }
}

// ------------------------------------------------------------ console

// Send text as the signed-in user; returns what the console shows.
async function send(text) {
  let shown;
  try {
    const reply = await state.nc.request(`eddi.u.${state.user}.cmd`, sc.encode(text), { timeout: COMMAND_TIMEOUT_MS });
    shown = sc.decode(reply.data);
  } catch (error) {
    shown = `Refused: ${error.code || error.message}`;
  }
  $("console-reply").textContent = shown;
  const entry = document.createElement("li");
  entry.textContent = `${text.split("\n").join(" / ")} -> ${shown.split("\n").join(" / ")}`;
  $("console-log").prepend(entry);
  while ($("console-log").children.length > CONSOLE_LOG_MAX) $("console-log").lastChild.remove();
  return shown;
}

// ------------------------------------------------------------ connecting

async function signIn(event) {
  event.preventDefault();
  const user = $("user").value.trim();
  const pass = $("password").value;
  setStatus("Connecting...");
  try {
    // Replies come to the user's own inbox prefix, which only it may read.
    state.nc = await connect({ servers: state.websocket, user, pass, inboxPrefix: `_INBOX_${user}`, name: `eddi-web ${user}` });
  } catch (error) {
    setStatus(`Fail "Cannot connect as ${user}: ${error.code || error.message}"`, true);
    return;
  }
  state.user = user;
  $("password").value = "";
  $("login").hidden = true;
  $("workspace").hidden = false;
  $("console-user").textContent = `as ${user}`;
  setStatus(`Connected as ${user}`);
  follow(SESSIONS_SUBJECT, (message) => {
    state.sessions = message.sessions;
    renderSessions();
  });
  follow(EDITS_SUBJECT, onEdit);
  state.nc.closed().then((error) => setStatus(`Disconnected${error ? `: ${error.message}` : ""}`, true));
}

async function start() {
  try {
    const config = await (await fetch("eddi-web.json", { cache: "no-store" })).json();
    state.websocket = config.websocket;
    $("instance").textContent = config.instance;
  } catch (error) {
    setStatus(`Fail "No eddi-web.json: ${error.message}"`, true);
    return;
  }
  $("login").addEventListener("submit", signIn);
  $("send").addEventListener("click", () => send($("command").value));
  $("live-file").addEventListener("change", (event) => {
    state.file = event.target.value;
    renderLive();
  });
}

// For the browser tests and the curious: the page's state and its console.
window.eddiWeb = { state, send, live };
start();
