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
