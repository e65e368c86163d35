// Shared by the integration tests: start real nats-server and eddi-server
// processes on 127.0.0.1, wait for them, and clean up.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const EDDI_SERVER = process.env.EDDI_SERVER;
if (!EDDI_SERVER) throw new Error("EDDI_SERVER must name the eddi-server binary");

const START_TIMEOUT_MS = 10000;

// eddi keeps its state (credentials of the embedded default, the audit
// log) in $XDG_STATE_HOME/eddi/<workspace id>/: in the tests, under the
// system's temporary folder, never the user's home. Children inherit it.
if (!process.env.EDDI_TEST_STATE_HOME) {
  process.env.EDDI_TEST_STATE_HOME = mkdtempSync(join(tmpdir(), "eddi-it-state-"));
  process.on("exit", () => rmSync(process.env.EDDI_TEST_STATE_HOME, { recursive: true, force: true }));
}
process.env.XDG_STATE_HOME = process.env.EDDI_TEST_STATE_HOME;

export function tempWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), "eddi-it-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// A workspace holding a package whose function compute_total is called
// from files modules of usesPerFile calls each: a rename long enough to
// cancel (pkg/core.py defines it, pkg/m0.py ... import it).
export function callersWorkspace(files, usesPerFile) {
  const workspace = tempWorkspace();
  mkdirSync(join(workspace.dir, "pkg"));
  writeFileSync(join(workspace.dir, "pkg/__init__.py"), "");
  writeFileSync(join(workspace.dir, "pkg/core.py"), "def compute_total(x):\n    return x + 1\n");
  for (let i = 0; i < files; i++) {
    let text = "from pkg.core import compute_total\n\n";
    for (let j = 0; j < usesPerFile; j++) text += `def f${j}(v):\n    return compute_total(v) + ${j}\n\n`;
    writeFileSync(join(workspace.dir, `pkg/m${i}.py`), text);
  }
  return workspace;
}

// Resolve when a line of the stream matches re (returns the match).
export function waitForLine(stream, re, what, timeoutMs = START_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      stream.off("data", onData);
      reject(new Error(`timed out waiting for ${what}; saw: ${buffered.slice(-500)}`));
    }, timeoutMs);
    function onData(chunk) {
      buffered += chunk.toString();
      const match = buffered.match(re);
      if (match) {
        clearTimeout(timer);
        stream.off("data", onData);
        resolve(match);
      }
    }
    stream.on("data", onData);
  });
}

export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

// A nats-server on 127.0.0.1; port 0 means a free one (-p -1).
export async function startNatsServer(port = 0, extraArgs = []) {
  const child = spawn("nats-server", ["-a", "127.0.0.1", "-p", port ? String(port) : "-1", ...extraArgs], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const match = await waitForLine(
    child.stderr,
    /Listening for client connections on [^\s]*:(\d+)/,
    "nats-server to listen",
  );
  child.stderr.resume();
  const actual = Number(match[1]);
  return {
    child,
    port: actual,
    url: `nats://127.0.0.1:${actual}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited(child);
    },
  };
}

// An eddi-server with args; resolves once it serves NATS (or at once for
// --stdio only). stderr is kept for assertions. runner: a command that runs
// eddi-server (its words before the binary's path), such as strace.
export async function startEddiServer(args, { waitNats = true, runner = [] } = {}) {
  const [command, ...rest] = [...runner, EDDI_SERVER, ...args];
  const child = spawn(command, rest, { stdio: ["pipe", "pipe", "pipe"] });
  const log = { text: "" };
  child.stderr.on("data", (chunk) => {
    log.text += chunk.toString();
    if (process.env.EDDI_TEST_VERBOSE) process.stderr.write(chunk);
  });
  if (waitNats) await waitForLine(child.stderr, /serving eddi\.(u\.\*\.)?cmd /, "eddi-server to subscribe");
  return {
    child,
    log,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited(child);
    },
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// eddi-server --stdio fed raw lines (strings, written as they are, each
// with a newline): resolves with the first `expected` responses, parsed,
// once its input has ended and it has exited 0.
// Each line of stream, parsed as JSON, to visit.
export function readJsonLines(stream, visit) {
  let buffered = "";
  stream.on("data", (chunk) => {
    buffered += chunk.toString();
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      visit(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
    }
  });
}

const RAW_STDIO_TIMEOUT_MS = 5000;
export async function rawStdio(lines, expected, extraArgs = []) {
  const workspace = tempWorkspace();
  const server = await startEddiServer(["--stdio", "--root", workspace.dir, "--quiet", ...extraArgs], {
    waitNats: false,
  });
  const responses = [];
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.child.kill("SIGKILL");
      reject(new Error(`${responses.length} of ${expected} responses: ${JSON.stringify(responses)}`));
    }, RAW_STDIO_TIMEOUT_MS);
    if (expected === 0) resolve();
    server.child.stdout.on("close", () => clearTimeout(timer));
    readJsonLines(server.child.stdout, (response) => {
      responses.push(response);
      if (responses.length === expected) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  for (const line of lines) server.child.stdin.write(line + "\n");
  await done;
  server.child.stdin.end();
  const { code } = await exited(server.child);
  if (code !== 0) throw new Error(`eddi-server exited ${code}: ${server.log.text}`);
  return { responses, workspace, log: server.log.text };
}

const INBOX_WAIT_MS = 3000;

// Messages of subject on connection, parsed as JSON, taken one at a time
// with next() (which fails after a while rather than hang).
export function jsonInbox(connection, subject) {
  const waiting = [], queued = [];
  const subscription = connection.subscribe(subject, {
    callback: (error, message) => {
      const value = JSON.parse(new TextDecoder().decode(message.data));
      if (waiting.length) waiting.shift()(value);
      else queued.push(value);
    },
  });
  return {
    subject,
    next: () => {
      if (queued.length) return Promise.resolve(queued.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing on ${subject}`)), INBOX_WAIT_MS);
        waiting.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
    },
    pending: () => queued.length,
    close: () => subscription.unsubscribe(),
  };
}

// A nats-server, an eddi-server on it over a fresh workspace (eddiArgs
// after --nats and --root), and a client connection; stop() ends all three.
export async function natsAndEddi(eddiArgs, connectNats) {
  const workspace = tempWorkspace();
  const nats = await startNatsServer();
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, ...eddiArgs]);
  const nc = await connectNats({ servers: nats.url });
  return {
    workspace, nats, eddi, nc,
    async stop() {
      await nc.close();
      const result = await eddi.stop("SIGTERM");
      await nats.stop();
      workspace.remove();
      return result;
    },
  };
}

// One EddiSpeak request from sender over NATS (eddi.cmd): the reply's text.
export async function askNats(nc, sender, text, timeoutMs = 10000) {
  const body = new TextEncoder().encode(JSON.stringify({ sender, text }));
  const reply = await nc.request("eddi.cmd", body, { timeout: timeoutMs });
  return new TextDecoder().decode(reply.data);
}
