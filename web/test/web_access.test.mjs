// The page never has more rights than its user: a viewer's 100 write
// attempts all fail (nats-server refuses the publish), an editor may send
// only on its own subject, a WebSocket from a foreign Origin is refused,
// and the HTTP side serves its files and nothing else.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { OUTPUT, WAIT_MS, launchBrowser, signIn, startAgent, startWebServer } from "./web_helpers.mjs";

let server, agent, browser;
const WRITE_ATTEMPTS = 100;

before(async () => {
  server = await startWebServer({ files: { "keep.txt": "unchanged\n" } });
  agent = await startAgent(server, "agent-1");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await agent?.close();
  await server.stop();
});

// Each attempt as the page's own connection makes it: a request on a
// subject that could change something, its outcome as the console words it.
async function attempts(page, subjects) {
  return page.evaluate(async (subjects) => {
    const { nc } = window.eddiWeb.state;
    const encoder = new TextEncoder();
    return Promise.all(subjects.map(async ([subject, text]) => {
      try {
        const reply = await nc.request(subject, encoder.encode(text), { timeout: 5000 });
        return `Reply: ${new TextDecoder().decode(reply.data)}`;
      } catch (error) {
        return `Refused: ${error.code || error.message}`;
      }
    }));
  }, subjects);
}

test("a viewer's 100 write attempts: none succeeds", async () => {
  const page = await signIn(browser, server, "victor");
  const subjects = [];
  for (let i = 0; i < WRITE_ATTEMPTS; i++) {
    const text = `Start v${i}\nOpen Create v${i}.txt\nInsert Block "x\\n"\nSave`;
    const subject = ["eddi.u.victor.cmd", "eddi.cmd", "eddi.u.alice.cmd", `eddi.${server.config.instance}.cmd`][i % 4];
    subjects.push([subject, text]);
  }
  const outcomes = await attempts(page, subjects);
  const refused = outcomes.filter((o) => o === "Refused: PERMISSIONS_VIOLATION");
  assert.deepEqual(outcomes.filter((o) => !o.startsWith("Refused: ")), [], "no attempt got a reply");
  assert.equal(refused.length, WRITE_ATTEMPTS, `all refused by nats-server: ${[...new Set(outcomes)]}`);
  // The console says so too.
  await page.fill("#command", "Start v-console");
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#console-reply").textContent !== "", null, { timeout: WAIT_MS });
  assert.equal(await page.textContent("#console-reply"), "Refused: PERMISSIONS_VIOLATION");
  await page.screenshot({ path: join(OUTPUT, "access-viewer-refused.png"), fullPage: true });

  // Nothing changed: no file, no session of the viewer's.
  assert.deepEqual(readdirSync(server.root).sort(), ["keep.txt"]);
  assert.equal(readFileSync(join(server.root, "keep.txt"), "utf8"), "unchanged\n");
  assert.equal(await agent.run("Start s-check"), "Ok");
  const row = page.locator('#sessions tr[data-session="s-check"]');
  await row.waitFor({ timeout: WAIT_MS });
  assert.deepEqual(await page.$$eval("#sessions tbody tr", (rows) => rows.map((r) => r.dataset.session)), ["s-check"]);
  await page.close();
});

test("an editor may send only on its own subject", async () => {
  const page = await signIn(browser, server, "alice");
  const outcomes = await attempts(page, [
    ["eddi.cmd", JSON.stringify({ sender: "alice", text: "Start a1" })],
    ["eddi.u.agent-1.cmd", "Start a2"],
    [`eddi.${server.config.instance}.cmd`, "Start a3"],
    ["mizuki.eddi.connection_request", "{}"],
    ["eddi.u.alice.cmd", "Start a4"],
  ]);
  assert.deepEqual(outcomes, [
    "Refused: PERMISSIONS_VIOLATION",
    "Refused: PERMISSIONS_VIOLATION",
    "Refused: PERMISSIONS_VIOLATION",
    "Refused: PERMISSIONS_VIOLATION",
    `Reply: Ok, Instance ${server.config.instance}`,
  ]);
  await page.close();
});

// An HTTP upgrade to nats-server's WebSocket with origin; resolves with
// the status code it answers.
function upgrade(websocket, origin) {
  const url = new URL(websocket);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: "/",
      headers: {
        Connection: "Upgrade", Upgrade: "websocket", Origin: origin,
        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
    req.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve(response.statusCode);
    });
    req.on("response", (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    req.on("error", reject);
    req.end();
  });
}

test("a WebSocket from a foreign Origin is refused, the page's own is not", async () => {
  const origin = new URL(server.page).origin;
  assert.equal(await upgrade(server.config.websocket, origin), 101);
  assert.equal(await upgrade(server.config.websocket, "http://evil.example"), 403);
  assert.equal(await upgrade(server.config.websocket, "http://127.0.0.1:1"), 403);

  // And a page of another origin cannot sign in through it.
  const page = await browser.newPage();
  await page.goto("about:blank");
  const outcome = await page.evaluate((websocket) => new Promise((resolve) => {
    const socket = new WebSocket(websocket);
    socket.onopen = () => resolve("open");
    socket.onerror = () => resolve("refused");
  }), server.config.websocket);
  assert.equal(outcome, "refused");
  await page.close();
});

test("the HTTP side serves the page's files and its JSON, nothing else", async () => {
  const get = async (path, options) => {
    const response = await fetch(new URL(path, server.page), options);
    return [response.status, await response.text()];
  };
  assert.deepEqual(await get("eddi-web.json"), [200, JSON.stringify({
    websocket: server.config.websocket, instance: server.config.instance,
  })]);
  assert.match(server.config.websocket, /^ws:\/\/127\.0\.0\.1:\d+$/);
  const [status, index] = await get("/");
  assert.equal(status, 200);
  assert.match(index, /<script src="app.js"><\/script>/);
  assert.ok(!index.includes(server.credentials("alice").password), "no secret in the page");
  assert.deepEqual(await get("/nope.js"), [404, 'Fail "Not found"\n']);
  assert.deepEqual(await get("/..%2F..%2Fetc%2Fpasswd"), [404, 'Fail "Not found"\n']);
  assert.deepEqual(await get("/.hidden"), [404, 'Fail "Not found"\n']);
  assert.deepEqual(await get("/", { method: "POST", body: "x" }), [405, 'Fail "Only GET is served"\n']);
  assert.equal(existsSync(join(server.state, "nats-server.conf")), false, "the users' config is gone");
});
