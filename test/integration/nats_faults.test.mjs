// Scaling out and faults: two eddi-server instances in one queue group keep
// each session on its instance; a nats-server restart does not lose the
// service or the sessions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, StringCodec } from "nats";
import { startNatsServer, startEddiServer, tempWorkspace, sleep, waitForLine } from "./helpers.mjs";

const sc = StringCodec();
const REQUEST_TIMEOUT_MS = 3000;
const json = (object) => JSON.stringify(object);

async function ask(nc, subject, text) {
  const reply = await nc.request(subject, sc.encode(text), { timeout: REQUEST_TIMEOUT_MS });
  return sc.decode(reply.data);
}

test("a session lives on the instance that started it", async () => {
  const workspace = tempWorkspace();
  const nats = await startNatsServer();
  const one = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "one"]);
  const two = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "two"]);
  const nc = await connect({ servers: nats.url });
  try {
    const started = await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Start s" }));
    const holder = started.match(/^Ok, Instance (one|two)$/)?.[1];
    assert.ok(holder, started);
    const other = holder === "one" ? "two" : "one";
    assert.equal(await ask(nc, `eddi.${holder}.cmd`, json({ sender: "ann", session: "s", text: "Status" })),
      "Ok: Session s, No file");
    assert.equal(await ask(nc, `eddi.${other}.cmd`, json({ sender: "ann", session: "s", text: "Status" })),
      `Fail "Session s lives on ${holder}"`);
    assert.equal(await ask(nc, `eddi.${other}.cmd`, json({ sender: "ann", text: "Status" })),
      `Fail "Session s lives on ${holder}"`);
    assert.equal(await ask(nc, `eddi.${other}.cmd`, json({ sender: "bob", text: "Start s" })),
      `Fail "Session s lives on ${holder}"`);
    // Through the queue group every answer is the holder's or a pointer to it.
    for (let i = 0; i < 10; i++) {
      const reply = await ask(nc, "eddi.cmd", json({ sender: "ann", session: "s", text: "Status" }));
      assert.ok(reply === "Ok: Session s, No file" || reply === `Fail "Session s lives on ${holder}"`, reply);
    }
    // Once ended, the name is free everywhere.
    assert.equal(await ask(nc, `eddi.${holder}.cmd`, json({ sender: "ann", session: "s", text: "End" })), "Ok, Session ended");
    await sleep(100);
    assert.equal(await ask(nc, `eddi.${other}.cmd`, json({ sender: "ann", session: "s", text: "Status" })),
      'Fail "Session s not found"');
    assert.equal(await ask(nc, `eddi.${other}.cmd`, json({ sender: "ann", text: "Start s" })),
      `Ok, Instance ${other}`);
  } finally {
    await nc.close();
    await one.stop();
    await two.stop();
    await nats.stop();
    workspace.remove();
  }
});

test("an instance that joins later learns the sessions already held", async () => {
  const workspace = tempWorkspace();
  const nats = await startNatsServer();
  const one = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "one"]);
  const nc = await connect({ servers: nats.url });
  let two;
  try {
    assert.equal(await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Start s" })),
      "Ok, Instance one");
    two = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "two"]);
    // The answers to its sync request arrive in the background: within a
    // round trip, but a loaded machine may take longer.
    let reply;
    for (let tries = 0; tries < 50; tries++) {
      reply = await ask(nc, "eddi.two.cmd", json({ sender: "ann", session: "s", text: "Status" }));
      if (reply !== 'Fail "Session s not found"') break;
      await sleep(50);
    }
    assert.equal(reply, 'Fail "Session s lives on one"');
    assert.equal(await ask(nc, "eddi.two.cmd", json({ sender: "ann", text: "Status" })),
      'Fail "Session s lives on one"');
  } finally {
    await nc.close();
    await one.stop();
    if (two) await two.stop();
    await nats.stop();
    workspace.remove();
  }
});

test("eddi-server reconnects after nats-server restarts, sessions intact", async () => {
  const workspace = tempWorkspace();
  let nats = await startNatsServer();
  const port = nats.port;
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "solo"]);
  let nc = await connect({ servers: nats.url });
  try {
    assert.equal(await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Start s" })), "Ok, Instance solo");
    await nc.close();
    const disconnected = waitForLine(eddi.child.stderr, /disconnected; reconnecting/, "the disconnect log");
    await nats.stop();
    await disconnected;
    await sleep(300); // eddi-server retries meanwhile
    const reconnected = waitForLine(eddi.child.stderr, /reconnected to/, "the reconnect log");
    nats = await startNatsServer(port);
    await reconnected;
    nc = await connect({ servers: nats.url });
    assert.equal(await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Status" })), "Ok: Session s, No file");
    assert.equal(await ask(nc, "eddi.solo.cmd", json({ sender: "ann", session: "s", text: "Status" })), "Ok: Session s, No file");
  } finally {
    await nc.close();
    const { code } = await eddi.stop();
    assert.equal(code, 0);
    await nats.stop();
    workspace.remove();
  }
});

test("a full queue answers Busy, retry and the server goes on", async () => {
  const workspace = tempWorkspace();
  const nats = await startNatsServer();
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "busy",
    "--max-queue", "1", "--quiet"]);
  const nc = await connect({ servers: nats.url });
  try {
    assert.equal(await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Start s\nOpen Create big.txt" })),
      "Ok, Instance busy\nOk, At 0:0, Length 0");
    // A slow command (a large insert) keeps the engine busy while a burst
    // arrives: one waits in the queue, the rest are refused at once.
    const big = "y".repeat(60).concat("\\n").repeat(12000);
    const slow = ask(nc, "eddi.cmd", json({ sender: "ann", text: `Insert Block "${big}"` }));
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => ask(nc, "eddi.cmd", json({ sender: `s${i}`, text: "Help Start" }))));
    assert.match(await slow, /^Ok, Inserted 12000 lines at 0, At 12000:0$/);
    const busy = burst.filter((reply) => reply === 'Fail "Busy, retry"').length;
    assert.ok(busy > 0, "some requests were refused");
    assert.ok(burst.every((reply) => reply === 'Fail "Busy, retry"' || reply.startsWith("Ok")), burst.join(" | "));
    assert.equal(await ask(nc, "eddi.cmd", json({ sender: "ann", text: "Status" })),
      "Ok: Session s, File big.txt, At 12000:0, Length 12000, Modified");
  } finally {
    await nc.close();
    await eddi.stop();
    await nats.stop();
    workspace.remove();
  }
});

test("token authentication: eddi-server logs in with --token", async () => {
  const workspace = tempWorkspace();
  const nats = await startNatsServer(0, ["--auth", "s3cret"]);
  const eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "auth",
    "--token", "s3cret", "--quiet"]);
  const nc = await connect({ servers: nats.url, token: "s3cret" });
  try {
    assert.equal(await ask(nc, "eddi.auth.cmd", "Start a"), "Ok, Instance auth");
  } finally {
    await nc.close();
    await eddi.stop();
    await nats.stop();
    workspace.remove();
  }
});
