// --web with a nats-server of one's own (--nats, --web-websocket): its
// websocket block and users are the operator's; eddi-server serves the
// page and the watch subjects, in identity mode.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { EDDI_SERVER, OUTPUT, WAIT_MS, exited, launchBrowser, liveText, tempDir, waitForLine } from "./web_helpers.mjs";

let nats, eddi, browser, root, page, websocket;
let eddiLog = "";
const PASSWORDS = { eddi: "instances-secret", alice: "alice-secret", victor: "victor-secret" };

// A port free now, for a listener named before it starts.
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  const dir = tempDir("eddi-web-external-");
  root = tempDir("eddi-web-external-root-");
  const pagePort = await freePort();
  page = `http://127.0.0.1:${pagePort}/`;
  const config = join(dir, "nats.conf");
  writeFileSync(config, `
websocket { listen: "127.0.0.1:-1", no_tls: true, allowed_origins: ["http://127.0.0.1:${pagePort}"] }
authorization { users = [
  {user: "eddi", password: "${PASSWORDS.eddi}"}
  {user: "alice", password: "${PASSWORDS.alice}", permissions: {
    publish: {allow: ["eddi.u.alice.cmd", "eddi.u.alice.*.cmd"]}
    subscribe: {allow: ["eddi.watch.>", "_INBOX_alice.>"]}}}
  {user: "victor", password: "${PASSWORDS.victor}", permissions: {
    publish: {deny: [">"]}, subscribe: {allow: ["eddi.watch.>", "_INBOX_victor.>"]}}}
]}
`);
  nats = spawn("nats-server", ["-a", "127.0.0.1", "-p", "-1", "-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  const [, ws, port] = await waitForLine(nats.stderr,
    /websocket clients on (ws:\/\/127\.0\.0\.1:\d+)[\s\S]*client connections on 127\.0\.0\.1:(\d+)/, "nats-server");
  websocket = ws;
  eddi = spawn(EDDI_SERVER, ["--root", root, "--state", join(dir, "state"), "--quiet",
    "--nats", `nats://127.0.0.1:${port}`, "--user", "eddi", "--password", PASSWORDS.eddi,
    "--identity", "subject", "--web", `127.0.0.1:${pagePort}`, "--web-websocket", websocket],
  { stdio: ["ignore", "pipe", "pipe"] });
  eddi.stderr.on("data", (chunk) => (eddiLog += chunk.toString()));
  await waitForLine(eddi.stdout, /eddi-server: web interface at http:\/\/127\.0\.0\.1:\d+\/\n/, "the page's URL");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  eddi?.kill("SIGTERM");
  if (eddi) assert.equal((await exited(eddi)).code, 0);
  assert.doesNotMatch(eddiLog, /Sanitizer|runtime error/);
  nats?.kill("SIGTERM");
  if (nats) await exited(nats);
});

async function signIn(user) {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await tab.goto(page);
  await tab.fill("#user", user);
  await tab.fill("#password", PASSWORDS[user]);
  await tab.click("#connect");
  await tab.waitForSelector("#workspace:not([hidden])", { timeout: WAIT_MS });
  return tab;
}

test("the page names the operator's WebSocket; an editor's command shows in a viewer's live view", async () => {
  const config = await (await fetch(new URL("eddi-web.json", page))).json();
  assert.equal(config.websocket, websocket);
  const viewer = await signIn("victor");
  const alice = await signIn("alice");
  const reply = await alice.evaluate(() =>
    window.eddiWeb.send('Start ext\nOpen Create ext.txt\nInsert Block "over the operator\'s server\\n"\nSave'));
  assert.equal(reply, `Ok, Instance ${config.instance}\nOk, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 27`);
  assert.equal(readFileSync(join(root, "ext.txt"), "utf8"), "over the operator's server\n");
  const row = viewer.locator('#sessions tr[data-session="ext"]');
  await row.click({ timeout: WAIT_MS });
  await viewer.waitForFunction(() => document.querySelector("#last-reply").textContent.endsWith("Bytes 27"), null, { timeout: WAIT_MS });
  assert.equal(await liveText(viewer), "over the operator's server\n");
  assert.equal(await viewer.textContent("#last-sender"), "by alice via nats");
  assert.equal(await viewer.evaluate(() => window.eddiWeb.send("Start v")), "Refused: PERMISSIONS_VIOLATION");
  await viewer.screenshot({ path: join(OUTPUT, "external-viewer.png"), fullPage: true });
});
