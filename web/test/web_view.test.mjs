// The page shows a workspace's sessions, follows the file an agent edits
// over a mizuki stream, and its console sends EddiSpeak as the signed-in
// editor. Screenshots of the views go to the output folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT, WAIT_MS, launchBrowser, liveText, signIn, startAgent, startWebServer } from "./web_helpers.mjs";

let server, agent, browser;

before(async () => {
  server = await startWebServer({ files: { "notes.txt": "first line\n" } });
  agent = await startAgent(server, "agent-1");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await agent?.close();
  await server.stop();
});

test("the page lists the agent's session and shows its edit of the file", async () => {
  assert.equal(await agent.run("Start s-agent"), "Ok");
  assert.equal(await agent.run("Open notes.txt"), "Ok, At 0:0, Length 1");
  const page = await signIn(browser, server, "victor");
  const row = page.locator('#sessions tr[data-session="s-agent"]');
  await row.waitFor({ timeout: WAIT_MS });
  const cells = await row.locator("td").allTextContents();
  assert.deepEqual(cells.slice(0, 3), ["s-agent", "agent-1", "notes.txt"]);
  assert.match(cells[3], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await row.click();

  const reply = await agent.run('Goto EndOfFile\nInsert Block "agent was here\\n"');
  assert.equal(reply, "Ok, At 1:0\nOk, Inserted 1 line at 1, At 2:0");
  await page.waitForFunction(() => document.querySelector("#last-reply").textContent.startsWith("Ok, At 1:0"),
    null, { timeout: WAIT_MS });
  assert.equal(await liveText(page), "first line\nagent was here\n");
  assert.equal(await page.textContent("#last-request"), 'Goto EndOfFile\nInsert Block "agent was here\\n"');
  assert.equal(await page.textContent("#last-reply"), reply);
  assert.equal(await page.textContent("#last-sender"), "by agent-1 via stream");
  await page.waitForFunction(() => document.querySelector('#sessions tr[data-session="s-agent"] td:nth-child(3)')
    .textContent === "notes.txt *", null, { timeout: WAIT_MS });
  await page.screenshot({ path: join(OUTPUT, "view-sessions-and-live.png"), fullPage: true });
  await page.close();
});

test("an editor's console command changes the file and its reply is shown exactly", async () => {
  const page = await signIn(browser, server, "alice");
  await page.fill("#command", 'Start s-alice\nOpen Create alice.txt\nInsert Block "from the browser\\n"\nSave');
  await page.click("#send");
  await page.waitForFunction(() => document.querySelector("#console-reply").textContent !== "", null, { timeout: WAIT_MS });
  const expected = `Ok, Instance ${server.config.instance}\nOk, At 0:0, Length 0\n` +
    "Ok, Inserted 1 line at 0, At 1:0\nOk, Bytes 17";
  assert.equal(await page.textContent("#console-reply"), expected);
  assert.equal(readFileSync(join(server.root, "alice.txt"), "utf8"), "from the browser\n");

  // The sender is the signed-in user, taken from the subject.
  const row = page.locator('#sessions tr[data-session="s-alice"]');
  await row.waitFor({ timeout: WAIT_MS });
  assert.deepEqual((await row.locator("td").allTextContents()).slice(0, 3), ["s-alice", "alice", "alice.txt"]);
  await row.click();
  await page.waitForFunction(() => document.querySelector("#last-reply").textContent.endsWith("Bytes 17"), null, { timeout: WAIT_MS });
  assert.equal(await liveText(page), "from the browser\n");
  assert.equal(await page.textContent("#last-sender"), "by alice via nats");

  // A body naming another sender still runs as alice: her session's Status.
  const status = await page.evaluate(() => window.eddiWeb.send(JSON.stringify({ sender: "agent-1", text: "Status" })));
  assert.equal(status, "Ok: Session s-alice, File alice.txt, At 1:0, Length 1");
  await page.screenshot({ path: join(OUTPUT, "view-console.png"), fullPage: true });
  await page.close();
});
