// Recovery leaves the session as consistent as the files (issue 31, item
// 3): eddi-server killed with -9 at each moment of a multi-file change
// (EDDI_TEST_STOP_AT makes it kill itself there: the intent recorded and
// no file renamed yet, every file renamed and the intent not forgotten,
// the change complete and the session's record not yet written). After
// the restart the change is all new, Undo takes it back; a changeset
// killed in the middle of its apply is applied (rollback works, then
// apply again), one killed in the middle of its rollback is rolled back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempWorkspace } from "./helpers.mjs";
import { stdioServer } from "./journal_helpers.mjs";

const POINTS = ["intent-recorded", "intent-done", "session-sync"];

function fixture(t) {
  const workspace = tempWorkspace();
  const state = mkdtempSync(join(tmpdir(), "eddi-journal-state-"));
  t.after(() => {
    workspace.remove();
    rmSync(state, { recursive: true, force: true });
  });
  return { root: workspace.dir, state };
}

// An eddi-server that kills itself at point (the n-th time).
async function stoppingServer(root, state, point) {
  process.env.EDDI_TEST_STOP_AT = point;
  try {
    return await stdioServer(root, state);
  } finally {
    delete process.env.EDDI_TEST_STOP_AT;
  }
}

const read = (root, name) => readFileSync(join(root, name), "utf8");
const leftovers = (root) => readdirSync(root).filter((name) => /\.eddi-\d+-/.test(name));

const OLD = { "a.txt": "one\ntwo\nthree\n", "b.txt": "bee\r\nsee\r\n" };
const PATCH =
  "Patch\n*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** Update File: b.txt\n@@\n-see\n+sea\n" +
  "*** Add File: c.txt\n+new\n*** End Patch";

for (const point of POINTS) {
  test(`a multi-file Patch killed at ${point}: rolled forward, and Undo takes it back`, async (t) => {
    const { root, state } = fixture(t);
    for (const [name, text] of Object.entries(OLD)) writeFileSync(join(root, name), text);
    let eddi = await stoppingServer(root, state, point);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.equal(await eddi.send(PATCH), "exited");
    await eddi.kill();
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 0 files open");
    assert.equal(read(root, "a.txt"), "one\nTWO\nthree\n");
    assert.equal(read(root, "b.txt"), "bee\r\nsea\r\n");
    assert.equal(read(root, "c.txt"), "new\n");
    assert.equal(await eddi.send("Undo"), "Ok, Undid 1 step, 3 files: a.txt, b.txt, c.txt");
    assert.equal(read(root, "a.txt"), OLD["a.txt"]);
    assert.equal(read(root, "b.txt"), OLD["b.txt"]);
    assert.equal(existsSync(join(root, "c.txt")), false);
    assert.equal(await eddi.send("Redo"), "Ok, Redid 1 step, 3 files: a.txt, b.txt, c.txt");
    assert.equal(read(root, "c.txt"), "new\n");
    await eddi.stop();
    assert.deepEqual(leftovers(root), []);
  });
}

// A file of the change open in the session with an unsaved edit: the
// change wrote it with the edit; after the restart the file is open,
// saved, and Undo takes the change back to the text with the edit.
for (const point of POINTS) {
  test(`a Patch over an open file with an unsaved edit, killed at ${point}`, async (t) => {
    const { root, state } = fixture(t);
    for (const [name, text] of Object.entries(OLD)) writeFileSync(join(root, name), text);
    let eddi = await stoppingServer(root, state, point);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.match(await eddi.send('Open a.txt\nInsert Line "zero"'), /^Ok/);
    assert.equal(await eddi.send(PATCH), "exited");
    await eddi.kill();
    assert.equal(read(root, "a.txt"), point === "intent-recorded" ? OLD["a.txt"] : "zero\none\nTWO\nthree\n");
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 1 file open");
    assert.equal(read(root, "a.txt"), "zero\none\nTWO\nthree\n");
    assert.equal(await eddi.send("Status"), "Ok: Session s, File a.txt, At 1:0, Length 4");
    assert.equal(await eddi.send("Undo"), "Ok, Undid 1 step, 3 files: a.txt, b.txt, c.txt, At 2:3");
    assert.equal(read(root, "a.txt"), "zero\none\ntwo\nthree\n");
    assert.equal(existsSync(join(root, "c.txt")), false);
    await eddi.stop();
  });
}

const BEFORE = { "m1.py": "old = 1\n", "m2.py": "import old\r\nold.run()\r\n", "m3.py": "old = 3\nprint(old)\n" };
const AFTER = { "m1.py": "new = 1\n", "m2.py": "import new\r\nnew.run()\r\n", "m3.py": "new = 3\nprint(new)\n" };
const COLLECT = '{ foreach file matching "*.py" replace "old" with "new" collect changes as "c1" }';

function assertFiles(root, expected) {
  for (const [name, text] of Object.entries(expected)) assert.equal(read(root, name), text, name);
}

for (const point of POINTS) {
  test(`a changeset killed in its apply at ${point} is applied: rollback, then apply again`, async (t) => {
    const { root, state } = fixture(t);
    for (const [name, text] of Object.entries(BEFORE)) writeFileSync(join(root, name), text);
    let eddi = await stoppingServer(root, state, point);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.equal(await eddi.send(COLLECT), "Ok, Migration prepared: 3 files affected, use 'apply changeset c1'");
    assert.equal(await eddi.send("apply changeset c1"), "exited");
    await eddi.kill();
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"),
                 "Ok, Session s resumed, 0 files open, 1 changeset; changeset c1 was being applied when eddi stopped: now applied");
    assertFiles(root, AFTER);
    assert.equal(await eddi.send("Preview changeset c1"), "Ok, Changeset c1 (applied): 3 files: m1.py +1 -1, m2.py +2 -2, m3.py +2 -2");
    assert.equal(await eddi.send("rollback changeset c1"), "Ok, Rolled back changeset c1: 3 files");
    assertFiles(root, BEFORE);
    assert.equal(await eddi.send("apply changeset c1"), "Ok, Applied changeset c1: 3 files");
    assertFiles(root, AFTER);
    await eddi.stop();
  });

  test(`a changeset killed in its rollback at ${point} is rolled back: apply works again`, async (t) => {
    const { root, state } = fixture(t);
    for (const [name, text] of Object.entries(BEFORE)) writeFileSync(join(root, name), text);
    let eddi = await stoppingServer(root, state, `${point}:2`);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.equal(await eddi.send(COLLECT), "Ok, Migration prepared: 3 files affected, use 'apply changeset c1'");
    assert.equal(await eddi.send("apply changeset c1"), "Ok, Applied changeset c1: 3 files");
    assert.equal(await eddi.send("rollback changeset c1"), "exited");
    await eddi.kill();
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"),
                 "Ok, Session s resumed, 0 files open, 1 changeset; changeset c1 was being rolled back when eddi stopped: now rolled back");
    assertFiles(root, BEFORE);
    assert.equal(await eddi.send("apply changeset c1"), "Ok, Applied changeset c1: 3 files");
    assertFiles(root, AFTER);
    assert.equal(await eddi.send("rollback changeset c1"), "Ok, Rolled back changeset c1: 3 files");
    assertFiles(root, BEFORE);
    await eddi.stop();
  });
}

// The eddi CLI, one process per tool call: the call killed in its Patch,
// the next call's Undo takes the Patch back (it answered "No file open").
test("the eddi CLI killed in a multi-file Patch: the next call undoes it", (t) => {
  const { root, state } = fixture(t);
  for (const [name, text] of Object.entries(OLD)) writeFileSync(join(root, name), text);
  const args = (...commands) => ["--root", root, "--state", state, ...commands.flatMap((c) => ["-c", c])];
  const killed = spawnSync(process.env.EDDI_CLI, args("Start s", PATCH), {
    encoding: "utf8",
    env: { ...process.env, EDDI_TEST_STOP_AT: "intent-done" },
  });
  assert.equal(killed.signal, "SIGKILL");
  const cli = (...commands) => execFileSync(process.env.EDDI_CLI, args(...commands), { encoding: "utf8" });
  assert.equal(cli("Undo"), "Ok, Undid 1 step, 3 files: a.txt, b.txt, c.txt\n");
  assert.equal(read(root, "b.txt"), OLD["b.txt"]);
  assert.equal(existsSync(join(root, "c.txt")), false);
});

// Two processes creating the journal at the same moment (issue 31, item
// 5): each migration step reads the schema under the write lock, so the
// second finds the first's work done. Many paired starts of the CLI and of
// eddi-server on fresh state folders: every one starts.
const PAIRS_CLI = 40;
const PAIRS_SERVER = 10;

function runCli(args) {
  return new Promise((resolve) => {
    const child = spawn(process.env.EDDI_CLI, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

test(`${PAIRS_CLI} paired CLI starts on fresh state folders all start`, async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "a.txt"), "one\n");
  for (let k = 0; k < PAIRS_CLI; k++) {
    const fresh = join(state, `s${k}`);
    const pair = await Promise.all(["x", "y"].map((name) =>
      runCli(["--root", root, "--state", fresh, "-c", `Start ${name}`, "-c", "Open a.txt", "-c", "Close", "-c", "End"])));
    for (const run of pair) {
      assert.doesNotMatch(run.err, /journal|migration|failed/i, `pair ${k}`);
      assert.equal(run.code, 0, `pair ${k}: ${run.out}`);
    }
  }
});

test(`${PAIRS_SERVER} paired eddi-server starts on fresh state folders all serve`, async (t) => {
  const { root, state } = fixture(t);
  for (let k = 0; k < PAIRS_SERVER; k++) {
    const fresh = join(state, `s${k}`);
    const servers = await Promise.all([0, 1].map(() => stdioServer(root, fresh)));
    try {
      const replies = await Promise.all(servers.map((eddi, i) => eddi.send(`Start s${i}`, `agent${i}`)));
      assert.deepEqual(replies, ["Ok", "Ok"], servers.map((eddi) => eddi.server.log.text).join("\n"));
    } finally {
      await Promise.all(servers.map((eddi) => eddi.stop()));
    }
  }
});
