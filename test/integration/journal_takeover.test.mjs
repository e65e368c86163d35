// --kv: two instances serving one checkout on a nats-server with
// JetStream; after kill -9 of the one holding a session, the other takes
// it over with its state (open file, unsaved edit) from the shared journal
// and says so on its first reply.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEddiServer, startNatsServer, tempWorkspace, sleep } from "./helpers.mjs";
import { alphaAndBeta, ask } from "./journal_helpers.mjs";

const LIVENESS_MS = 1000;

test("a live instance takes over a dead one's session with its state", async (t) => {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "a.txt"), "one\ntwo\n");
  const store = mkdtempSync(join(tmpdir(), "eddi-js-"));
  const nats = await startNatsServer(0, ["-js", "-sd", store]);
  const args = (name) => ["--nats", nats.url, "--root", workspace.dir, "--name", name, "--kv", "eddi-sessions",
                          "--liveness-ms", String(LIVENESS_MS)];
  const { alpha, nc } = await alphaAndBeta(t, nats, workspace, args,
                                          () => rmSync(store, { recursive: true, force: true }));
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Start s" }), "Ok, Instance alpha");
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: 'Open a.txt\nInsert Line "zero"' }),
               "Ok, At 0:0, Length 2\nOk, Inserted 1 line at 0, At 1:0");
  await alpha.stop("SIGKILL");
  const began = Date.now();
  let reply;
  while (Date.now() - began < LIVENESS_MS * 4) {
    reply = await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" });
    if (!reply.startsWith("Fail")) break;
    await sleep(50);
  }
  assert.equal(reply, "Ok, Session s taken over from alpha\nOk: Session s, File a.txt, At 1:0, Length 3, Modified");
  t.diagnostic(`taken over after ${Date.now() - began} ms`);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }),
               "Ok: Session s, File a.txt, At 1:0, Length 3, Modified");
  assert.equal(await ask(nc, "eddi.cmd", { sender: "ann", session: "s", text: "Save" }), "Ok, Bytes 13");
});

// Ask until the answer matches re (or the deadline passes); the answer.
async function askUntil(nc, subject, body, re, deadlineMs) {
  const began = Date.now();
  let reply;
  while (Date.now() - began < deadlineMs) {
    reply = await ask(nc, subject, body).catch((error) => `no answer: ${error.message}`);
    if (re.test(reply)) return reply;
    await sleep(50);
  }
  assert.fail(`still "${reply}" after ${deadlineMs} ms`);
}

// alpha and beta with a state folder each: the bucket alone carries the
// session's state from one to the other.
// natsConfig: lines of a nats-server configuration file, if any.
async function apartOnJetStream(t, natsConfig = null) {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "a.txt"), "one\ntwo\n");
  writeFileSync(join(workspace.dir, "b.py"), "old = 1\n");
  const store = mkdtempSync(join(tmpdir(), "eddi-js-"));
  const states = { alpha: mkdtempSync(join(tmpdir(), "eddi-kv-alpha-")), beta: mkdtempSync(join(tmpdir(), "eddi-kv-beta-")) };
  const configArgs = [];
  if (natsConfig) {
    writeFileSync(join(store, "nats.conf"), natsConfig + "\n");
    configArgs.push("-c", join(store, "nats.conf"));
  }
  const nats = await startNatsServer(0, ["-js", "-sd", store, ...configArgs]);
  const args = (name) => ["--nats", nats.url, "--root", workspace.dir, "--name", name, "--kv", "eddi-sessions",
                          "--state", states[name], "--liveness-ms", String(LIVENESS_MS)];
  const both = await alphaAndBeta(t, nats, workspace, args, () => {
    for (const dir of [store, states.alpha, states.beta]) rmSync(dir, { recursive: true, force: true });
  });
  return { ...both, workspace, args };
}

// The server's max payload in the test of a state too large to mirror.
const SMALL_MAX_PAYLOAD = 16384;

// A session with an unsaved edit, a bookmark and a collected changeset on alpha.
async function busySession(nc) {
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Start s" }), "Ok, Instance alpha");
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: '{ foreach file matching "b.py" replace "old" with "new" collect changes as "c" }' }),
               "Ok, Migration prepared: 1 file affected, use 'apply changeset c'");
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: 'Open a.txt\nInsert Line "zero"\nBookmark m 2:0' }),
               "Ok, At 0:0, Length 2\nOk, Inserted 1 line at 0, At 1:0\nOk, Bookmark m at 2:0");
}

// What beta must have of the session it took over.
async function expectTakenOverState(nc, workspace) {
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Goto Bookmark m" }), "Ok, At 2:0");
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Preview changeset c" }),
               "Ok, Changeset c (collected): 1 file: b.py +1 -1");
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "apply changeset c\nSave" }),
               "Ok, Applied changeset c: 1 file\nOk, Bytes 13");
  assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "zero\none\ntwo\n");
  assert.equal(readFileSync(join(workspace.dir, "b.py"), "utf8"), "new = 1\n");
}

test("with a state folder each, the bucket carries the session's state to the instance that takes over", async (t) => {
  const { alpha, nc, workspace } = await apartOnJetStream(t);
  await busySession(nc);
  await alpha.stop("SIGKILL");
  const reply = await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Ok/, LIVENESS_MS * 4);
  assert.equal(reply, "Ok, Session s taken over from alpha\nOk: Session s, File a.txt, At 1:0, Length 3, Modified");
  await expectTakenOverState(nc, workspace);
});

test("an instance silent past the timeout (SIGSTOP) is taken over; after SIGCONT it stands down", async (t) => {
  const { alpha, nc, workspace } = await apartOnJetStream(t);
  await busySession(nc);
  alpha.child.kill("SIGSTOP");
  const began = Date.now();
  const reply = await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Ok/, LIVENESS_MS * 5);
  t.diagnostic(`taken over after ${Date.now() - began} ms`);
  assert.equal(reply, "Ok, Session s taken over from alpha\nOk: Session s, File a.txt, At 1:0, Length 3, Modified");
  alpha.child.kill("SIGCONT");
  // alpha finds its session held by beta and drops its copy: one owner.
  await askUntil(nc, "eddi.alpha.cmd", { sender: "ann", text: "Status" }, /^Fail "Session s lives on beta"$/, LIVENESS_MS * 3);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }),
               "Ok: Session s, File a.txt, At 1:0, Length 3, Modified");
  await expectTakenOverState(nc, workspace);
  // alpha, asked to start it anew, is refused: it lives on beta.
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Status" }), 'Fail "Session s lives on beta"');
});

test("a state above the server's max payload is not mirrored: no stale state is taken over", async (t) => {
  const { alpha, nc, workspace } = await apartOnJetStream(t, `max_payload: ${SMALL_MAX_PAYLOAD}`);
  writeFileSync(join(workspace.dir, "big.txt"), "x".repeat(SMALL_MAX_PAYLOAD * 2) + "\n");
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Start s" }), "Ok, Instance alpha");
  // Small at first (mirrored), then the unsaved edit of a big file makes it too large.
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: 'Open big.txt\nInsert Line "zero"' }),
               "Ok, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0");
  const began = Date.now();
  while (!/state of s is \d+ bytes, above the \d+ the server takes: not mirrored/.test(alpha.log.text)) {
    assert.ok(Date.now() - began < 5000, `no warning in: ${alpha.log.text}`);
    await sleep(50);
  }
  await alpha.stop("SIGKILL");
  // beta finds alpha gone and the session held, but no state to take it with.
  await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Fail "No session exists/, LIVENESS_MS * 4);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Start s" }), "Ok, Instance beta");
});

test("with a shared state folder, a stopped instance is taken over and stands down after SIGCONT", async (t) => {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "a.txt"), "one\ntwo\n");
  writeFileSync(join(workspace.dir, "b.py"), "old = 1\n");
  const store = mkdtempSync(join(tmpdir(), "eddi-js-"));
  const state = mkdtempSync(join(tmpdir(), "eddi-kv-shared-"));
  const nats = await startNatsServer(0, ["-js", "-sd", store]);
  const args = (name) => ["--nats", nats.url, "--root", workspace.dir, "--name", name, "--kv", "eddi-sessions",
                          "--state", state, "--liveness-ms", String(LIVENESS_MS)];
  const { alpha, beta, nc } = await alphaAndBeta(t, nats, workspace, args, () => {
    for (const dir of [store, state]) rmSync(dir, { recursive: true, force: true });
  });
  await busySession(nc);
  alpha.child.kill("SIGSTOP");
  const reply = await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Ok/, LIVENESS_MS * 5);
  assert.equal(reply, "Ok, Session s taken over from alpha\nOk: Session s, File a.txt, At 1:0, Length 3, Modified");
  alpha.child.kill("SIGCONT");
  await askUntil(nc, "eddi.alpha.cmd", { sender: "ann", text: "Status" }, /^Fail "Session s lives on beta"$/, LIVENESS_MS * 3);
  await expectTakenOverState(nc, workspace);
  // The shared journal's rows are beta's (alpha's standing down left them):
  // when beta dies in turn, alpha takes the session back from them.
  await beta.stop("SIGKILL");
  assert.equal(await askUntil(nc, "eddi.alpha.cmd", { sender: "ann", text: "Status" }, /^Ok/, LIVENESS_MS * 5),
               "Ok, Session s taken over from beta\nOk: Session s, File a.txt, At 2:0, Length 3");
  assert.equal(await ask(nc, "eddi.alpha.cmd", { sender: "ann", text: "Preview changeset c" }),
               "Ok, Changeset c (applied): 1 file: b.py +1 -1");
});

test("restarted after its session was taken over, an instance stands its restored copy down", async (t) => {
  const { alpha, nc, workspace, args } = await apartOnJetStream(t);
  await busySession(nc);
  await alpha.stop("SIGKILL");
  await askUntil(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }, /^Ok, Session s taken over from alpha/, LIVENESS_MS * 4);
  // alpha's own journal still has s: it restores it, finds beta holding it, and stands down.
  const again = await startEddiServer(args("alpha"));
  t.after(() => again.stop("SIGKILL"));
  await askUntil(nc, "eddi.alpha.cmd", { sender: "ann", text: "Status" }, /^Fail "Session s lives on beta"$/, LIVENESS_MS * 3);
  assert.equal(await ask(nc, "eddi.beta.cmd", { sender: "ann", text: "Status" }),
               "Ok: Session s, File a.txt, At 1:0, Length 3, Modified");
  await expectTakenOverState(nc, workspace);
});

test("restarted under a new name, an instance keeps the sessions its journal gives back", async (t) => {
  const { alpha, beta, nc, args } = await apartOnJetStream(t);
  await busySession(nc);
  await beta.stop("SIGKILL");
  await alpha.stop("SIGTERM");
  const renamed = args("alpha").map((arg) => (arg === "alpha" ? "gamma" : arg));
  const gamma = await startEddiServer(renamed);
  t.after(() => gamma.stop("SIGKILL"));
  // The bucket names alpha, which does not answer: gamma holds s.
  assert.equal(await ask(nc, "eddi.gamma.cmd", { sender: "ann", text: "Status" }),
               "Ok: Session s, File a.txt, At 1:0, Length 3, Modified");
  await sleep(LIVENESS_MS);
  assert.equal(await ask(nc, "eddi.gamma.cmd", { sender: "ann", text: "Goto Bookmark m" }), "Ok, At 2:0");
});
