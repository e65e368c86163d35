// Two eddi processes and other writers on one file (issue 31, items 1 and
// 2, and its soak test): every save that answered Ok is on disk, every
// line another process appended is there once, and a save that answered
// Fail left the disk as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempWorkspace, sleep } from "./helpers.mjs";
import { stdioServer } from "./journal_helpers.mjs";

function fixture(t) {
  const workspace = tempWorkspace();
  const state = mkdtempSync(join(tmpdir(), "eddi-save-race-state-"));
  t.after(() => {
    workspace.remove();
    rmSync(state, { recursive: true, force: true });
  });
  return { root: workspace.dir, state };
}

const read = (root, name) => readFileSync(join(root, name), "utf8");

// How long strace holds the delayed process's rename; how long a test
// waits for it to begin, and how long eddi takes at most from writing its
// temporary file to its rename.
const RENAME_DELAY_US = 2000000;
const REACH_RENAME_MS = 10000;
const TEMP_TO_RENAME_MS = 300;

// eddi-server under strace, its every rename held RENAME_DELAY_US before it
// runs.
const delayedRenames = (root, state) =>
  stdioServer(root, state, [], ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                                "-e", `inject=rename,renameat,renameat2:delay_enter=${RENAME_DELAY_US}`]);

// Resolves once eddi's temporary file for name is in root and the rename
// has had the time to begin.
async function renaming(root, name) {
  for (let waited = 0; waited < REACH_RENAME_MS; waited += 10) {
    if (readdirSync(root).some((entry) => entry.startsWith(`.${name}.eddi-`))) return sleep(TEMP_TO_RENAME_MS);
    await sleep(10);
  }
  throw new Error(`eddi never wrote a temporary file for ${name}`);
}

// Item 2: one process's rename held back while the other opens, edits and
// saves. Before, both answered Ok and the later rename took the other's
// edit away; now the second to write sees the first's file and rebases.
test("two eddi processes saving one file: both saves answer Ok and both edits stay", async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "a.txt"), "one\ntwo\n");
  for (const name of ["slow", "quick"]) mkdirSync(join(state, name));
  const slow = await delayedRenames(root, join(state, "slow"));
  const quick = await stdioServer(root, join(state, "quick"));
  t.after(() => Promise.all([slow.kill(), quick.kill()]));
  assert.equal(await slow.send('Start a\nOpen a.txt\nInsert Line "from a"'),
               "Ok\nOk, At 0:0, Length 2\nOk, Inserted 1 line at 0, At 1:0");
  const slowSave = slow.send("Save");
  await renaming(root, "a.txt");
  assert.equal(await quick.send('Start b\nOpen a.txt\nGoto 2:0\nInsert Line "from b"'),
               "Ok\nOk, At 0:0, Length 2\nOk, At 2:0\nOk, Inserted 1 line at 2, At 3:0");
  const quickSave = await quick.send("Save");
  const slowSaved = await slowSave;
  assert.equal(read(root, "a.txt"), "from a\none\ntwo\nfrom b\n");
  assert.equal(slowSaved, "Ok, Bytes 15");
  assert.equal(quickSave, "Ok, Bytes 22, Rebased onto a change on disk");
});

// The soak test: two eddi processes and a plain appender (a shell's
// `echo >>`) on one file, SOAK_RUNS times. Each eddi reads the file again,
// adds a line of its own and saves, SOAK_SAVES times; meanwhile the
// appender adds SOAK_APPENDS lines. At the end every line of a save that
// answered Ok is in the file once, no line of a save that answered Fail is
// in it, and every appended line is in it once.
const SOAK_RUNS = 20;
const SOAK_SAVES = 12;
const SOAK_APPENDS = 40;
const SOAK_APPEND_PAUSE_S = "0.005";

function appender(path) {
  const script = `i=0; while [ $i -lt ${SOAK_APPENDS} ]; do echo "append $i" >> '${path}'; ` +
                 `i=$((i+1)); sleep ${SOAK_APPEND_PAUSE_S}; done`;
  const child = spawn("/bin/sh", ["-c", script], { stdio: "ignore" });
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

// name's saves: each reads the file again and adds its line at at (a
// Goto position); the lines of the saves that answered Ok and Fail.
async function saves(eddi, name, at) {
  const saved = [], refused = [];
  assert.equal(await eddi.send(`Start ${name}`), "Ok");
  for (let i = 0; i < SOAK_SAVES; i++) {
    const line = `${name} ${i}`;
    const reply = await eddi.send(`Open Reload log.txt\nGoto ${at}\nInsert Line "${line}"\nSave`);
    const answer = reply.split("\n").pop();
    if (/^Ok, Bytes \d+/.test(answer)) saved.push(line);
    else if (/^Fail /.test(answer)) refused.push(line);
    else assert.fail(`${line}: ${reply}`);
  }
  return { saved, refused };
}

test(`soak: two eddi processes and an appender on one file, ${SOAK_RUNS} runs: nothing lost, nothing twice`, async (t) => {
  const { root, state } = fixture(t);
  const totals = { saved: 0, refused: 0 };
  for (let run = 0; run < SOAK_RUNS; run++) {
    const path = join(root, "log.txt");
    writeFileSync(path, "first\nsecond\n");
    const folders = ["a", "b"].map((name) => join(state, `${run}${name}`));
    for (const folder of folders) mkdirSync(folder);
    const [a, b] = await Promise.all(folders.map((folder) => stdioServer(root, folder)));
    try {
      const [appended, ofA, ofB] = await Promise.all([appender(path), saves(a, "a", "0:0"), saves(b, "b", "1:0")]);
      assert.equal(appended, 0);
      const lines = read(root, "log.txt").split("\n").slice(0, -1);
      const count = (line) => lines.filter((l) => l === line).length;
      const expected = ["first", "second", ...ofA.saved, ...ofB.saved];
      for (let i = 0; i < SOAK_APPENDS; i++) expected.push(`append ${i}`);
      for (const line of expected) assert.equal(count(line), 1, `run ${run}: "${line}" in ${JSON.stringify(lines)}`);
      for (const line of [...ofA.refused, ...ofB.refused])
        assert.equal(count(line), 0, `run ${run}: refused "${line}" in ${JSON.stringify(lines)}`);
      assert.equal(lines.length, expected.length, `run ${run}: ${JSON.stringify(lines)}`);
      assert.deepEqual(readdirSync(root).filter((name) => name !== "log.txt"), [], `run ${run}: leftovers`);
      totals.saved += ofA.saved.length + ofB.saved.length;
      totals.refused += ofA.refused.length + ofB.refused.length;
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }
  // Most saves land: the two processes' lines are apart, the appends at the end.
  t.diagnostic(`${totals.saved} saves answered Ok, ${totals.refused} Fail`);
  assert.ok(totals.saved >= SOAK_RUNS * SOAK_SAVES, `${totals.saved} saves answered Ok`);
});
