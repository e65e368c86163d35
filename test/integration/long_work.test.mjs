// Long work does not hold eddi-server's owner thread: while one sender's
// Format runs its formatter (here a slow stand-in for black on PATH), another
// sender is answered at once, and the first one's reply comes when the
// formatter is done.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { startNatsServer, startEddiServer, tempWorkspace, rawStdio } from "./helpers.mjs";

const sc = StringCodec();
const FORMATTER_SECONDS = 3;
// Without long work off the owner thread the other sender would wait for the
// whole formatter; half of it leaves room for a loaded or sanitized build.
const OTHER_SENDER_MAX_MS = FORMATTER_SECONDS * 1000 / 2;

let nats, eddi, workspace, nc;

before(async () => {
  // The stand-in formatter: waits, then writes its input back uppercased.
  const bin = mkdtempSync(join(tmpdir(), "eddi-fake-black-"));
  writeFileSync(join(bin, "black"), `#!/bin/sh\nsleep ${FORMATTER_SECONDS}\ntr a-z A-Z\n`);
  chmodSync(join(bin, "black"), 0o755);
  process.env.PATH = `${bin}:${process.env.PATH}`;
  workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "slow.py"), "x = 1\n");
  nats = await startNatsServer();
  eddi = await startEddiServer(["--nats", nats.url, "--root", workspace.dir, "--name", "solo"]);
  nc = await connect({ servers: nats.url });
});

after(async () => {
  await nc?.close();
  await eddi?.stop();
  await nats?.stop();
});

const ask = async (sender, text, timeout = 10000) =>
  sc.decode((await nc.request("eddi.solo.cmd", sc.encode(JSON.stringify({ sender, text })),
                              { timeout })).data);

test("another sender is answered while a formatter runs", async () => {
  assert.equal(await ask("ann", "Start a\nOpen slow.py"), "Ok, Instance solo\nOk, At 0:0, Length 1");
  assert.equal(await ask("bob", "Start b"), "Ok, Instance solo");
  const started = Date.now();
  let formatDoneAt = 0;
  const formatting = ask("ann", "Format\nSave").then((reply) => {
    formatDoneAt = Date.now();
    return reply;
  });
  // Give the Format time to reach its worker thread.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const asked = Date.now();
  assert.equal(await ask("bob", "Status"), "Ok: Session b, No file");
  const answeredIn = Date.now() - asked;
  assert.equal(formatDoneAt, 0, "the Format was answered before the other sender");
  assert.ok(answeredIn < OTHER_SENDER_MAX_MS, `Status took ${answeredIn} ms`);
  assert.equal(await formatting, "Ok, Formatted, Lines 1, At 0:0\nOk, Bytes 6");
  assert.ok(Date.now() - started >= FORMATTER_SECONDS * 1000);
  assert.equal(readFileSync(join(workspace.dir, "slow.py"), "utf8"), "X = 1\n");
  // The sender's next message waited behind its own long work, in order.
  assert.equal(await ask("ann", "Status"), "Ok: Session a, File slow.py, At 0:0, Length 1");
});

test("over stdio too: the other sender's response comes first", async () => {
  const rpc = (id, params) => JSON.stringify({ jsonrpc: "2.0", id, method: "eddi.exec", params });
  const { responses, workspace: dir } = await rawStdio([
    rpc(1, { sender: "ann", text: 'Start a\nOpen Create slow.py\nInsert Line "x = 1"\nFormat' }),
    rpc(2, { sender: "bob", text: "Start b" }),
  ], 2);
  assert.deepEqual(responses.map((r) => r.id), [2, 1]);
  assert.equal(responses[1].result.text,
    "Ok\nOk, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0\nOk, Formatted, Lines 1, At 1:0");
  assert.ok(dir.dir);
});

// A refactoring scans and analyses the workspace on a worker: while one
// sender's rename over a 100K-line tree is computed, another sender's Status
// is answered in the time of a plain round trip.
const TREE_FILES = 400;
const TREE_FILE_LINES = 250;
const STATUS_MEDIAN_MAX_MS = 10;

test("another sender is answered while a refactoring is computed", async () => {
  const tree = tempWorkspace();
  writeFileSync(join(tree.dir, "core.py"), "def shared(x):\n    return x\n");
  for (let i = 0; i < TREE_FILES; i++) {
    const lines = ["from core import shared", ""];
    while (lines.length < TREE_FILE_LINES - 4)
      lines.push(`def f${lines.length}(a, b):`, `    c = shared(a) + b * ${i}`, "    return c", "");
    lines.push(`class K${i}:`, "    def shared(self):", "        return shared(1)", "");
    writeFileSync(join(tree.dir, `m${String(i).padStart(3, "0")}.py`), lines.join("\n"));
  }
  const server = await startEddiServer(["--nats", nats.url, "--root", tree.dir, "--name", "big"]);
  const askBig = async (sender, text) =>
    sc.decode((await nc.request("eddi.big.cmd", sc.encode(JSON.stringify({ sender, text })),
                                { timeout: 60000 })).data);
  try {
    assert.equal(await askBig("cyd", "Start c"), "Ok, Instance big");
    assert.equal(await askBig("dee", "Start d"), "Ok, Instance big");
    let renamedAt = 0;
    const renaming = askBig("cyd", "Refactor RenameSymbol core.py:shared common").then((reply) => {
      renamedAt = Date.now();
      return reply;
    });
    const latencies = [];
    while (!renamedAt && latencies.length < 100000) {
      const asked = performance.now();
      assert.equal(await askBig("dee", "Status"), "Ok: Session d, No file");
      if (!renamedAt) latencies.push(performance.now() - asked);
    }
    const reply = await renaming;
    const calls = (TREE_FILE_LINES - 4 - 2) / 4;
    assert.equal(reply, `Ok, Renamed in ${TREE_FILES + 1} files, ` +
                        `${1 + TREE_FILES * (2 + calls)} references updated`);
    assert.ok(latencies.length >= 5, `only ${latencies.length} Status answered during the rename`);
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)];
    console.log(`Status during the rename: ${latencies.length} answered, median ` +
                `${median.toFixed(2)} ms, max ${latencies[latencies.length - 1].toFixed(2)} ms`);
    assert.ok(median < STATUS_MEDIAN_MAX_MS, `median Status ${median} ms`);
    assert.match(readFileSync(join(tree.dir, "m007.py"), "utf8"), /^from core import common\n/);
  } finally {
    await server.stop();
  }
});
