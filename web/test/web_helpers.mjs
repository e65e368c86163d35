// Shared by the web interface's browser tests: a real eddi-server with
// --web (its embedded nats-server gets the WebSocket and the web users),
// an agent on a mizuki stream through npm nats, and Chromium through
// playwright-core, all on 127.0.0.1 with no network beyond it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, createInbox, StringCodec } from "nats";
import { chromium } from "playwright-core";

export const EDDI_SERVER = process.env.EDDI_SERVER;
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const OUTPUT = process.env.EDDI_WEB_OUTPUT || join(process.cwd(), "output");
if (!EDDI_SERVER) throw new Error("EDDI_SERVER must name the eddi-server binary");
mkdirSync(OUTPUT, { recursive: true });

const START_TIMEOUT_MS = 15000;
export const WAIT_MS = 10000;
const sc = StringCodec();

// A folder of the test's own, removed at exit.
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function waitForLine(stream, re, what, timeoutMs = START_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => {
      stream.off("data", onData);
      reject(new Error(`timed out waiting for ${what}; saw: ${seen.slice(-500)}`));
    }, timeoutMs);
    function onData(chunk) {
      seen += chunk.toString();
      const match = seen.match(re);
      if (!match) return;
      clearTimeout(timer);
      stream.off("data", onData);
      resolve(match);
    }
    stream.on("data", onData);
  });
}

export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

// eddi-server with the web interface on a free port, over a workspace of
// files ({name: text}). Resolves once it prints the page's URL.
export async function startWebServer({ files = {}, editors = ["alice"], viewers = ["victor"] } = {}) {
  const root = tempDir("eddi-web-root-");
  const state = tempDir("eddi-web-state-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const args = ["--root", root, "--state", state, "--quiet", "--web", "127.0.0.1:0"];
  for (const user of editors) args.push("--web-editor", user);
  for (const user of viewers) args.push("--web-viewer", user);
  const child = spawn(EDDI_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stderr.on("data", (chunk) => (log += chunk.toString()));
  const [, natsUrl, clientCredentials, page] = await waitForLine(child.stdout,
    /eddi-server: NATS at (\S+)\neddi-server: credentials in (\S+)\neddi-server: web interface at (http:\/\/127\.0\.0\.1:\d+\/)\n/,
    "the start lines");
  const config = await (await fetch(new URL("eddi-web.json", page))).json();
  return {
    child, root, state, natsUrl, page, config,
    log: () => log,
    // A web user's credentials, as eddi-server left them for the person.
    credentials: (user) => JSON.parse(readFileSync(join(state, `web-${user}.json`), "utf8")),
    client: () => JSON.parse(readFileSync(clientCredentials, "utf8")),
    // Stop it; it must exit 0 with no sanitizer's report (ASan builds).
    async stop() {
      child.kill("SIGTERM");
      const { code } = await exited(child);
      if (code !== 0 || /Sanitizer|runtime error/.test(log))
        throw new Error(`eddi-server exited ${code}: ${log.slice(-2000)}`);
    },
  };
}

// An agent on a mizuki stream (the embedded default's client user): each
// run() sends EddiSpeak as one stream update and resolves with the reply.
export async function startAgent(server, id) {
  const { user, password } = server.client();
  const nc = await connect({ servers: server.natsUrl, user, pass: password });
  const inbox = createInbox();
  const replies = nc.subscribe(inbox);
  const iterator = replies[Symbol.asyncIterator]();
  const next = async () => JSON.parse(sc.decode((await iterator.next()).value.data));
  await nc.flush();
  nc.publish("mizuki.eddi.connection_request", sc.encode(JSON.stringify({
    message_type: "connection_request",
    sender: { id, type: "llm" },
    stream_name: `${id}.eddi.code_editing`,
    eddispeak_version: "2.0",
    connection_id: `conn-${id}`,
  })), { reply: inbox });
  const response = await next();
  if (response.status !== "accepted") throw new Error(`stream refused: ${response.reason}`);
  const key = response.stream_key;
  return {
    nc,
    send(text) {
      nc.publish("mizuki.stream.update", sc.encode(JSON.stringify({ appended: text, from: id, to: "eddi", stream_key: key })));
    },
    next,
    async run(text) {
      this.send(text);
      return (await next()).appended;
    },
    close: () => nc.close(),
  };
}

// Chromium, headless, with nothing but loopback to reach.
export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root (CI) Chromium needs --no-sandbox; small containers have a small /dev/shm.
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", "--disable-extensions"],
  });
}

// Open the page and sign in as user with its own credentials.
export async function signIn(browser, server, user) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(server.page);
  await page.fill("#user", user);
  await page.fill("#password", server.credentials(user).password);
  await page.click("#connect");
  await page.waitForSelector("#workspace:not([hidden])", { timeout: WAIT_MS });
  return page;
}

// The live view's text, as the DOM shows it: CodeMirror's lines.
export function liveText(page) {
  return page.$$eval("#live .cm-line", (lines) => lines.map((line) => line.textContent).join("\n"));
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
