// Shared by the integration tests: start real nats-server and eddi-server
// processes on 127.0.0.1, wait for them, and clean up.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const EDDI_SERVER = process.env.EDDI_SERVER;
if (!EDDI_SERVER) throw new Error("EDDI_SERVER must name the eddi-server binary");

const START_TIMEOUT_MS = 10000;

export function tempWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), "eddi-it-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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
// --stdio only). stderr is kept for assertions.
export async function startEddiServer(args, { waitNats = true } = {}) {
  const child = spawn(EDDI_SERVER, args, { stdio: ["pipe", "pipe", "pipe"] });
  const log = { text: "" };
  child.stderr.on("data", (chunk) => {
    log.text += chunk.toString();
    if (process.env.EDDI_TEST_VERBOSE) process.stderr.write(chunk);
  });
  if (waitNats) await waitForLine(child.stderr, /serving eddi\.cmd/, "eddi-server to subscribe");
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
