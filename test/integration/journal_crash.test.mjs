// kill -9 of eddi-server at random moments during a 30-file Patch, the same
// Patch with one of its files open (and unmodified) in the session, and a
// Refactor RenameSymbol across 20 Python files: after a restart each group
// of files is all old or all new, and no temporary file of eddi's is left.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sleep, tempWorkspace } from "./helpers.mjs";
import { stdioServer } from "./journal_helpers.mjs";

const TRIES = 30;
const PATCH_FILES = 30;
const REFACTOR_FILES = 20;
// Lines of padding per file, so that writing the group takes a while.
const PADDING_LINES = 4000;

const padding = Array.from({ length: PADDING_LINES }, (_, i) => `# padding line ${i}`).join("\n");

function eddiLeftovers(dir) {
  return readdirSync(dir, { recursive: true }).filter((name) => /\.eddi-\d+-/.test(String(name)));
}

// Run a group change tries times, killing the server at a random moment
// in [0, spread) ms after sending it; check after each restart.
// opening: commands sent after Start, before the change (files to open).
async function crashTries(t, { prepare, change, classify, expectedReply, opening = [] }) {
  const workspace = tempWorkspace();
  const state = mkdtempSync(join(tmpdir(), "eddi-journal-state-"));
  t.after(() => {
    workspace.remove();
    rmSync(state, { recursive: true, force: true });
  });
  // One uninterrupted run says how long the change takes.
  prepare(workspace.dir, -1);
  let eddi = await stdioServer(workspace.dir, state);
  await eddi.send("Start s");
  for (const command of opening) assert.match(await eddi.send(command), /^Ok/);
  const began = Date.now();
  assert.match(await eddi.send(change(-1)), expectedReply);
  const spread = Math.max(5, (Date.now() - began) * 1.5);
  assert.deepEqual(classify(workspace.dir, -1), "new");
  await eddi.stop();

  const seen = { old: 0, new: 0 };
  for (let k = 0; k < TRIES; k++) {
    prepare(workspace.dir, k);
    eddi = await stdioServer(workspace.dir, state);
    await eddi.send("Start s");
    // A restored session may hold the file open already: either reply will do.
    for (const command of opening) await eddi.send(command);
    const reply = eddi.send(change(k)).catch(() => "killed");
    await sleep(Math.random() * spread);
    await eddi.kill();
    await reply.catch(() => {});
    // The restart settles what the kill interrupted.
    eddi = await stdioServer(workspace.dir, state);
    await eddi.send("Status");
    await eddi.stop();
    const outcome = classify(workspace.dir, k);
    assert.ok(outcome === "old" || outcome === "new", `try ${k}: mixed group (${outcome})`);
    seen[outcome]++;
    assert.deepEqual(eddiLeftovers(workspace.dir), [], `try ${k}: temporary files left`);
  }
  return seen;
}

const patchName = (i) => `f${String(i).padStart(2, "0")}.txt`;

// The 30-file Patch of marker k, with opening sent before it.
function patchCase(opening) {
  const name = patchName;
  return {
    opening,
    prepare(dir, k) {
      for (let i = 0; i < PATCH_FILES; i++)
        writeFileSync(join(dir, name(i)), `${padding}\nmarker ${k} old ${i}\n${padding}\n`);
    },
    change(k) {
      const hunks = [];
      for (let i = 0; i < PATCH_FILES; i++)
        hunks.push(`*** Update File: ${name(i)}\n@@\n-marker ${k} old ${i}\n+marker ${k} new ${i}`);
      return `Patch\n*** Begin Patch\n${hunks.join("\n")}\n*** End Patch`;
    },
    classify(dir, k) {
      const states = new Set();
      for (let i = 0; i < PATCH_FILES; i++) {
        const text = readFileSync(join(dir, name(i)), "utf8");
        states.add(text.includes(`marker ${k} new ${i}\n`) ? "new" : text.includes(`marker ${k} old ${i}\n`) ? "old" : "neither");
      }
      return states.size === 1 ? [...states][0] : [...states].join("+");
    },
    expectedReply: /^Ok/,
  };
}

test("kill -9 during a 30-file Patch leaves all old or all new", async (t) => {
  const seen = await crashTries(t, patchCase([]));
  t.diagnostic(`patch: ${seen.old} all old, ${seen.new} all new`);
});

test("kill -9 during a 30-file Patch with a file open leaves all old or all new", async (t) => {
  // The open document's new bytes are in the same intent as the others'.
  const seen = await crashTries(t, patchCase([`Open ${patchName(7)}`]));
  t.diagnostic(`patch with ${patchName(7)} open: ${seen.old} all old, ${seen.new} all new`);
});

test("kill -9 during a Refactor RenameSymbol across 20 files leaves all old or all new", async (t) => {
  const fn = (k) => `helper_${k < 0 ? "m" : k}`;
  const seen = await crashTries(t, {
    prepare(dir, k) {
      writeFileSync(join(dir, "lib.py"), `${padding}\ndef ${fn(k)}(x):\n    return x + 1\n`);
      for (let i = 1; i < REFACTOR_FILES; i++)
        writeFileSync(join(dir, `use${i}.py`), `from lib import ${fn(k)}\n${padding}\nprint(${fn(k)}(${i}))\n`);
    },
    change: (k) => `Refactor RenameSymbol lib.py:${fn(k)} ${fn(k)}_new`,
    classify(dir, k) {
      const states = new Set();
      const files = ["lib.py", ...Array.from({ length: REFACTOR_FILES - 1 }, (_, i) => `use${i + 1}.py`)];
      for (const file of files) {
        const text = readFileSync(join(dir, file), "utf8");
        states.add(text.includes(`${fn(k)}_new(`) ? "new" : text.includes(`${fn(k)}(`) ? "old" : "neither");
      }
      return states.size === 1 ? [...states][0] : [...states].join("+");
    },
    expectedReply: /^Ok/,
  });
  t.diagnostic(`refactor: ${seen.old} all old, ${seen.new} all new`);
});
