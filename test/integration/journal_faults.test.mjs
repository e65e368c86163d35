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
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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

// A change that deletes a file, killed at each point: Undo brings the file
// back. The deleted file's backup went with the change (its folder may go
// too), and after intent-done or session-sync the recovery answered that
// the session cannot Undo it.
const DELETING = "Patch\n*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n" +
  "*** Delete File: old/gone.txt\n*** End Patch";

for (const point of POINTS) {
  test(`a Patch that deletes a file killed at ${point}: Undo brings the file back`, async (t) => {
    const { root, state } = fixture(t);
    writeFileSync(join(root, "a.txt"), OLD["a.txt"]);
    mkdirSync(join(root, "old"));
    writeFileSync(join(root, "old", "gone.txt"), "kept\r\n");
    let eddi = await stoppingServer(root, state, point);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.equal(await eddi.send(DELETING), "exited");
    await eddi.kill();
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 0 files open");
    assert.equal(read(root, "a.txt"), "one\nTWO\nthree\n");
    assert.equal(existsSync(join(root, "old", "gone.txt")), false);
    assert.equal(await eddi.send("Undo"), "Ok, Undid 1 step, 2 files: a.txt, old/gone.txt");
    assert.equal(read(root, "a.txt"), OLD["a.txt"]);
    assert.equal(read(root, "old/gone.txt"), "kept\r\n");
    await eddi.stop();
    assert.deepEqual(leftovers(root), []);
    assert.deepEqual(leftovers(join(root, "old")), []);
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

// The state folder's disk full (issue 31, item 6), on a real eddi-server:
// a file size limit set on the running process (prlimit, no root) stands
// for the full disk. Every command answers at once, stderr says once that
// the journal cannot keep up; with room again it says it caught up, and a
// kill -9 then loses nothing.
const FULL_COMMANDS = 10;
const FULL_COMMAND_MS = 2000;

function prlimit(pid, soft) {
  execFileSync("prlimit", ["--pid", String(pid), `--fsize=${soft}:unlimited`]);
}

test("a full state disk: commands answer at once, the journal says it cannot keep up, then catches up", async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "a.txt"), "one\n");
  // SIGXFSZ ignored (inherited through exec): a write past the limit fails
  // with EFBIG, as one on a full disk fails with ENOSPC.
  // The audit log shares the full disk: writes go on without it.
  const server = spawn("/bin/sh", ["-c", 'trap "" XFSZ; exec "$0" "$@"', process.env.EDDI_SERVER,
                                    "--stdio", "--root", root, "--state", state, "--quiet",
                                    "--audit-failure", "continue"],
                       { stdio: ["pipe", "pipe", "pipe"] });
  let log = "";
  server.stderr.on("data", (chunk) => (log += chunk));
  const waiting = new Map();
  let nextId = 1, buffered = "";
  server.stdout.on("data", (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const response = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      waiting.get(response.id)?.(response.result ? response.result.text : JSON.stringify(response.error));
    }
  });
  const send = (text) => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    server.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "eddi.exec", params: { sender: "agent", text } }) + "\n");
  });
  t.after(() => server.kill("SIGKILL"));
  assert.equal(await send("Start s\nOpen a.txt"), "Ok\nOk, At 0:0, Length 1");
  prlimit(server.pid, 1);
  for (let i = 0; i < FULL_COMMANDS; i++) {
    const began = Date.now();
    assert.match(await send(`Insert Line "line ${i}"`), /^Ok, Inserted 1 line/);
    assert.ok(Date.now() - began < FULL_COMMAND_MS, `command ${i} took ${Date.now() - began} ms`);
  }
  assert.match(log, /eddi: journal: cannot write to the state folder .*: the journal cannot keep up/);
  prlimit(server.pid, "unlimited");
  // The applier tries its queued records again every 50 ms; the next
  // command that writes is journaled, and its sessions with it.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.match(await send('Insert Line "after"'), /^Ok/);
  for (let waited = 0; !/caught up/.test(log) && waited < 2000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(log, /the journal has caught up/);
  assert.equal(log.match(/cannot keep up/g).length, 1);
  // Let the applier commit, then kill: nothing may be lost.
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.kill("SIGKILL");
  await new Promise((resolve) => server.once("exit", resolve));
  const eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Start s"), `Ok, Session s resumed, 1 file open, ${FULL_COMMANDS + 1} unsaved edits re-applied`);
  await eddi.stop();
});

// A sticky folder open to every user (/tmp) as --state (issue 31, item 12):
// refused like a world-writable one; nothing is made there.
test("a sticky, world-writable --state folder is refused", async (t) => {
  const { root, state } = fixture(t);
  const open = join(state, "open");
  mkdirSync(open);
  chmodSync(open, 0o1777);
  const server = spawnSync(process.env.EDDI_SERVER, ["--stdio", "--root", root, "--state", open],
                           { input: "", encoding: "utf8" });
  assert.notEqual(server.status, 0);
  assert.match(server.stderr, /State folder .*open: it .*open is writable by every user \(sticky, as \/tmp is\)/);
  const cli = spawnSync(process.env.EDDI_CLI, ["--root", root, "--state", open, "-c", "Start s"], { encoding: "utf8" });
  assert.notEqual(cli.status, 0);
  assert.match(cli.stderr, /writable by every user \(sticky/);
  assert.deepEqual(readdirSync(open), []);
});

// A link planted as audit.jsonl is not followed (the victim's file is not
// appended to), and journal.sqlite is made 0600.
test("the default audit log is not reached through a link; the journal is 0600", async (t) => {
  const { root, state } = fixture(t);
  const victim = join(state, "victim.txt");
  writeFileSync(victim, "private\n");
  symlinkSync(victim, join(state, "audit.jsonl"));
  const eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Start s"), "Ok");
  await eddi.stop();
  assert.equal(readFileSync(victim, "utf8"), "private\n");
  assert.match(eddi.server.log.text, /audit.jsonl: a symbolic link/);
  assert.equal(statSync(join(state, "journal.sqlite")).mode & 0o777, 0o600);
});

// The audit log on a full disk (issue 31, item 7), the file size limit
// standing for it again, set to the log's size: the next record cannot be
// written. Before, a Save answered Ok, wrote the file, and no record was
// written, with nothing on stderr.
const XFSZ_IGNORED = ["/bin/sh", "-c", 'trap "" XFSZ; exec "$0" "$@"'];
const auditRecords = (state) =>
  readFileSync(join(state, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const outcomes = (records) => records.map(({ commands, outcome, transport }) => ({ commands, outcome, transport }));

// eddi-server's stderr once it matches re (or after STDERR_WAIT_MS): what
// the server says there may come after its reply on stdout.
const STDERR_WAIT_MS = 2000;
async function stderrOnce(eddi, re) {
  for (let waited = 0; !re.test(eddi.server.log.text) && waited < STDERR_WAIT_MS; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return eddi.server.log.text;
}

test("an audit log that cannot be written: said on stderr, writes refused until it can, no record lost", async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "a.txt"), "one\n");
  const eddi = await stdioServer(root, state, [], XFSZ_IGNORED);
  t.after(() => eddi.kill());
  assert.equal(await eddi.send("Start s\nOpen a.txt"), "Ok\nOk, At 0:0, Length 1");
  const audit = join(state, "audit.jsonl");
  prlimit(eddi.server.child.pid, statSync(audit).size);
  assert.equal(await eddi.send('Insert Line "zero"\nSave'), "Ok, Inserted 1 line at 0, At 1:0\nOk, Bytes 9");
  assert.equal(read(root, "a.txt"), "zero\none\n");
  const refusing = new RegExp("eddi: audit: the audit log .*audit\\.jsonl \\(File too large\\): " +
    "cannot be written; eddi refuses every write until its records are written \\(--audit-failure continue lets writes go on\\)\n");
  assert.match(await stderrOnce(eddi, refusing), refusing);
  assert.equal(await eddi.send('Insert Line "more"'),
    `Fail "The audit log ${audit} cannot be written (File too large): eddi writes nothing until it can", ` +
    "Make room for the audit log, or start eddi-server with --audit-failure continue");
  assert.equal(await eddi.send("Status"), "Ok: Session s, File a.txt, At 1:0, Length 2");
  assert.equal(auditRecords(state).length, 1);
  prlimit(eddi.server.child.pid, "unlimited");
  assert.equal(await eddi.send('Insert Line "more"'), "Ok, Inserted 1 line at 1, At 2:0");
  assert.match(await stderrOnce(eddi, /written again/), /audit\.jsonl: all records are written again\n/);
  assert.equal(eddi.server.log.text.match(/eddi: audit:/g).length, 2);
  assert.deepEqual(outcomes(auditRecords(state)), [
    { commands: ["Start", "Open"], outcome: "ok", transport: "stdio" },
    { commands: ["Insert", "Save"], outcome: "ok", transport: "stdio" },
    { commands: ["Insert"], outcome: "refused", transport: "stdio" },
    { commands: ["Status"], outcome: "ok", transport: "stdio" },
    { commands: ["Insert"], outcome: "ok", transport: "stdio" },
  ]);
  assert.deepEqual(auditRecords(state)[1].files.map((file) => file.path), ["a.txt"]);
});

test("--audit-failure continue: writes go on, each record kept said on stderr, written once there is room", async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "a.txt"), "one\n");
  const eddi = await stdioServer(root, state, ["--audit-failure", "continue"], XFSZ_IGNORED);
  t.after(() => eddi.kill());
  assert.equal(await eddi.send("Start s\nOpen a.txt"), "Ok\nOk, At 0:0, Length 1");
  prlimit(eddi.server.child.pid, statSync(join(state, "audit.jsonl")).size);
  assert.equal(await eddi.send('Insert Line "zero"\nSave'), "Ok, Inserted 1 line at 0, At 1:0\nOk, Bytes 9");
  assert.equal(await eddi.send('Insert Line "more"\nSave'), "Ok, Inserted 1 line at 1, At 2:0\nOk, Bytes 14");
  assert.equal(read(root, "a.txt"), "zero\nmore\none\n");
  const kept = /\(File too large\): cannot be written; writes go on \(--audit-failure continue\), their records kept in memory until they can be written\n/g;
  await stderrOnce(eddi, /(kept in memory[^]*){2}/);
  assert.equal(eddi.server.log.text.match(kept).length, 2);
  assert.equal(auditRecords(state).length, 1);
  prlimit(eddi.server.child.pid, "unlimited");
  assert.equal(await eddi.send("Status"), "Ok: Session s, File a.txt, At 2:0, Length 3");
  assert.deepEqual(outcomes(auditRecords(state)).map((record) => record.commands),
                   [["Start", "Open"], ["Insert", "Save"], ["Insert", "Save"], ["Status"]]);
});

test("an --audit-failure that is neither refuse nor continue is refused", () => {
  const server = spawnSync(process.env.EDDI_SERVER, ["--stdio", "--audit-failure", "maybe"], { input: "", encoding: "utf8" });
  assert.notEqual(server.status, 0);
  assert.match(server.stderr, /--audit-failure is refuse or continue, not 'maybe'/);
});

// A change killed before its renames and rolled forward by the next
// process: the recovery writes the change's record (the killed process
// wrote none).
test("a change rolled forward by the recovery has its audit record", async (t) => {
  const { root, state } = fixture(t);
  for (const [name, text] of Object.entries(OLD)) writeFileSync(join(root, name), text);
  let eddi = await stoppingServer(root, state, "intent-recorded");
  assert.equal(await eddi.send("Start s"), "Ok");
  assert.equal(await eddi.send(PATCH), "exited");
  await eddi.kill();
  const before = auditRecords(state);
  assert.deepEqual(outcomes(before), [{ commands: ["Start"], outcome: "ok", transport: "stdio" }]);
  eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 0 files open");
  await eddi.stop();
  const records = auditRecords(state);
  const { time, files, ...recovered } = records[1];
  // The instance is the recovering process's, as in its own records.
  assert.deepEqual(recovered, { sender: null, session: "s", instance: records[2].instance, transport: "recovery", commands: [],
                                outcome: "rolled_forward" });
  assert.deepEqual(files.map((file) => file.path), ["a.txt", "b.txt", "c.txt"]);
  const hash = /^[0-9a-f]{16}$/;
  for (const file of files) {
    assert.match(file.after, hash);
    if (file.path === "c.txt") assert.equal(file.before, null);
    else assert.match(file.before, hash);
    assert.notEqual(file.before, file.after);
  }
  assert.deepEqual(outcomes(records.slice(2)), [{ commands: ["Start"], outcome: "ok", transport: "stdio" }]);
});
