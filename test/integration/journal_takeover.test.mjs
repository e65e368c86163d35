// --kv: two instances serving one checkout on a nats-server with
// JetStream; after kill -9 of the one holding a session, the other takes
// it over with its state (open file, unsaved edit) from the shared journal
// and says so on its first reply.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNatsServer, tempWorkspace, sleep } from "./helpers.mjs";
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
