// Instances that die: two eddi-server instances on one nats-server; after
// kill -9 of the one holding a session, its sender gets answers from the
// other within the liveness timeout; a forged eddi.session.events message
// from an instance that does not exist locks nobody out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StringCodec } from "nats";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNatsServer, tempWorkspace, sleep } from "./helpers.mjs";
import { alphaAndBeta, ask } from "./journal_helpers.mjs";

const sc = StringCodec();
const LIVENESS_MS = 1000;
const json = (object) => JSON.stringify(object);

// Ask until the answer matches re (or the deadline passes); the time it took.
async function askUntil(nc, subject, body, re, deadlineMs) {
  const began = Date.now();
  let reply;
  while (Date.now() - began < deadlineMs) {
    reply = await ask(nc, subject, body);
    if (re.test(reply)) return Date.now() - began;
    await sleep(50);
  }
  assert.fail(`still "${reply}" after ${deadlineMs} ms`);
}

async function twoInstances(t) {
  const workspace = tempWorkspace();
  const nats = await startNatsServer();
  const states = [0, 1].map(() => mkdtempSync(join(tmpdir(), "eddi-live-state-")));
  const args = (name, state) => ["--nats", nats.url, "--root", workspace.dir, "--name", name, "--state", state,
                                 "--liveness-ms", String(LIVENESS_MS)];
  return alphaAndBeta(t, nats, workspace, (name) => args(name, states[name === "alpha" ? 0 : 1]),
                      () => states.forEach((state) => rmSync(state, { recursive: true, force: true })));
}

test("after kill -9 of an instance its sender is answered by the other within the timeout", async (t) => {
  const { alpha, nc } = await twoInstances(t);
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Start s2" }), "Ok, Instance alpha");
  await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Fail "Session s2 lives on alpha"$/, 2000);
  await alpha.stop("SIGKILL");
  const took = await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Fail "No session exists/,
                              LIVENESS_MS * 3);
  t.diagnostic(`answered again after ${took} ms`);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Start s2" }), "Ok, Instance beta");
});

test("a forged session event from an instance that does not answer is ignored", async (t) => {
  const { nc } = await twoInstances(t);
  nc.publish("eddi.session.events", sc.encode(json({ event: "started", session: "s9", sender: "victim", instance: "ghost" })));
  await nc.flush();
  await askUntil(nc, "eddi.beta.cmd", { sender: "victim", text: "Status" }, /^Fail "No session exists/, LIVENESS_MS);
  // Still ignored later: the ghost was found gone.
  nc.publish("eddi.session.events", sc.encode(json({ event: "started", session: "s9", sender: "victim", instance: "ghost" })));
  await nc.flush();
  await sleep(100);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "victim", text: "Start s9" }), "Ok, Instance beta");
});
