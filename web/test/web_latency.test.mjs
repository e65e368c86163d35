// Edit -> DOM: an agent edits a file over its mizuki stream 500 times, one
// edit at a time; a viewer's page follows it. Each latency runs from just
// before the agent publishes the edit to the moment the live view's DOM
// shows it (a MutationObserver in the page; both clocks are this
// machine's wall clock). The figures go to the output folder and stdout.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { OUTPUT, WAIT_MS, launchBrowser, liveText, percentile, signIn, startAgent, startWebServer } from "./web_helpers.mjs";

const EDITS = Number(process.env.EDDI_WEB_EDITS || 500);
let server, agent, browser;

before(async () => {
  server = await startWebServer({ files: { "counter.txt": "count = 0\n" }, editors: [], viewers: ["victor"] });
  agent = await startAgent(server, "agent-1");
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await agent?.close();
  await server.stop();
});

const now = () => performance.timeOrigin + performance.now();

test(`edit -> DOM for one viewer over ${EDITS} edits`, async () => {
  assert.equal(await agent.run("Start s-count"), "Ok");
  assert.equal(await agent.run("Open counter.txt"), "Ok, At 0:0, Length 1");
  const page = await signIn(browser, server, "victor");
  await page.locator('#sessions tr[data-session="s-count"]').click({ timeout: WAIT_MS });
  // The page notes when its DOM first shows each count.
  await page.evaluate(() => {
    window.seen = {};
    const content = document.querySelector("#live .cm-content");
    new MutationObserver(() => {
      const match = /^count = (\d+)$/.exec(content.querySelector(".cm-line")?.textContent ?? "");
      if (match && !(match[1] in window.seen)) window.seen[match[1]] = performance.timeOrigin + performance.now();
    }).observe(content, { childList: true, subtree: true, characterData: true });
  });
  const latencies = [];
  for (let i = 1; i <= EDITS; i++) {
    const sent = now();
    agent.send(`Goto StartOfFile\nReplace /count = [0-9]+/ "count = ${i}"`);
    const reply = await agent.next();
    assert.match(reply.appended, /^Ok, At 0:0\nOk, Replaced 1 occurrence, At 0:\d+$/);
    const shown = await page.waitForFunction((i) => window.seen[i], i, { timeout: WAIT_MS, polling: "raf" });
    latencies.push((await shown.jsonValue()) - sent);
  }
  assert.equal(await liveText(page), `count = ${EDITS}\n`);
  await page.screenshot({ path: join(OUTPUT, "latency-final.png"), fullPage: true });
  const sorted = [...latencies].sort((a, b) => a - b);
  const figures = {
    edits: EDITS,
    p50_ms: +percentile(sorted, 50).toFixed(2),
    p99_ms: +percentile(sorted, 99).toFixed(2),
    max_ms: +sorted[sorted.length - 1].toFixed(2),
  };
  writeFileSync(join(OUTPUT, "latency.json"), JSON.stringify(figures, null, 2) + "\n");
  console.log(`edit -> DOM: ${JSON.stringify(figures)}`);
  assert.ok(sorted[0] > 0, "the clocks agree on order");
});
