// Scripts that attack the server: eddi-server on a real nats-server, the
// npm nats client as a read-only sender. Deep scripts are refused with the
// limit named (they overflowed the stack and killed the server for every
// sender), budgets bound bytes and time as well as steps, a sender cannot
// raise them past the server's ceilings, and the server goes on answering
// another sender.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "nats";
import { askNats, natsAndEddi } from "./helpers.mjs";

const REQUEST_TIMEOUT_MS = 10000;
// Under AddressSanitizer (scripts/test sets ASAN_OPTIONS) the server runs
// about twice as slow and its memory carries the sanitizer's shadow and
// quarantine: the time ceiling and the bounds are wider there.
const SANITIZED = Boolean(process.env.ASAN_OPTIONS);
const MAX_MS = SANITIZED ? 2000 : 1000;
const PEAK_KB = (SANITIZED ? 1024 : 400) * 1024;
const DEEP = "nested too deeply (more than 64 levels of blocks, statement bodies, not and brackets)";
const DEEP_HINT = "Write it flatter: statements one after another in one { block }, conditions joined with and/or";

let setup, eddi, nc;

before(async () => {
  setup = await natsAndEddi(["--name", "alpha", "--read-only", "reader", "--script-max-ms", String(MAX_MS)],
    connect);
  ({ eddi, nc } = setup);
  writeFileSync(join(setup.workspace.dir, "m00.py"), "def f():\n    return 1\n");
  mkdirSync(join(setup.workspace.dir, "many"));
  for (let i = 0; i < 20; i++) writeFileSync(join(setup.workspace.dir, "many", `n${i}.txt`), "x\n");
  writeFileSync(join(setup.workspace.dir, "a".repeat(40) + ".py"), "x = 1\n");
  assert.equal(await ask("reader", "Start r"), "Ok, Instance alpha");
  assert.equal(await ask("ann", "Start a"), "Ok, Instance alpha");
});

after(() => setup.stop());

const ask = (sender, text) => askNats(nc, sender, text, REQUEST_TIMEOUT_MS);

// The server still runs and serves another sender.
async function stillServes() {
  assert.equal(eddi.child.exitCode, null);
  assert.equal(eddi.child.signalCode, null);
  assert.equal(await ask("ann", "Status"), "Ok: Session a, No file");
}

const deepForms = [
  ["not 60,000 times",
    '{ foreach file matching "m00.py" where ' + "not ".repeat(60000) + 'unused { flag "x" } }', 288],
  ["foreach nested 10,000 deep",
    "{ " + 'foreach file matching "m00.py" '.repeat(10000) + 'flag "x" }', 1987],
  ["else if 10,000 times",
    '{ if unused flag "a" ' + 'else if unused flag "b" '.repeat(10000) + "}", 1506],
  ["use $x 60,000 times",
    '{ let $x = file matching "m00.py" ' + "use $x ".repeat(60000) + 'flag "x" }', 483],
];

for (const [name, script, column] of deepForms) {
  test(`a read-only sender's script: ${name} is refused`, async () => {
    assert.equal(await ask("reader", script), `Fail "Script line 1:${column}: ${DEEP}", ${DEEP_HINT}`);
    await stillServes();
  });
}

// A chain is built balanced: it runs, as deep as the logarithm of its length.
test("or 100,000 times runs", async () => {
  const script = '{ foreach file matching "m00.py" where unused' + " or unused".repeat(100000) +
    ' { flag "x" } }';
  assert.equal(await ask("reader", script), "Ok, Script completed: no changes");
  await stillServes();
});

// A glob matched by backtracking took time exponential in its stars.
test("a glob of many stars answers at once", async () => {
  const started = Date.now();
  const script = '{ foreach file matching "' + "*a".repeat(18) + '*b" { flag "x" } }';
  assert.equal(await ask("reader", script), "Ok, Script completed: no changes");
  assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  const stars = '{ foreach file matching "' + "*".repeat(500000) + '" { flag "x" } }';
  assert.match(await ask("reader", stars), /^Ok, Script completed: \d+ files flagged, Flagged: /);
  await stillServes();
});

// Five nested foreach of flag over 20 files: 3.2 million flags. With
// `limit steps 100000000` it took 1.96 GB and 43 s.
const NESTED = (inner, depth = 5) => "{ limit steps 10000000 " +
  'foreach file matching "many/*.txt" { '.repeat(depth) + inner + " }".repeat(depth) + " }";
const BYTES_SPENT = "byte budget spent (16777216 bytes of flags, notes, values and edits, script_max_bytes); " +
  "nothing written\", Flag fewer elements (narrow the set with where), or raise the server's --script-max-bytes";

// The server's resident peak, from the kernel.
const peakKb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${eddi.child.pid}/status`, "utf8"))[1]);

test("a sender cannot raise its budget past the server's ceilings", async () => {
  assert.equal(await ask("reader", '{ limit steps 100000000 foreach file matching "many/*.txt" flag "x" }'),
    "Fail \"Script line 1:3: limit steps 100000000 is above the server's ceiling of 10000000 steps " +
    "(script_max_steps); nothing written\", Ask for at most 10000000, or start eddi-server with --script-max-steps");
  assert.equal(await ask("reader", '{ try { limit time 5000 } catch { flag "caught" } }'),
    `Fail "Script line 1:9: limit time 5000 is above the server's ceiling of ${MAX_MS} ms ` +
    `(script_max_ms); nothing written", Ask for at most ${MAX_MS}, or start eddi-server with --script-max-ms`);
  await stillServes();
});

// Each flag here keeps a note of 1,000 bytes: the byte budget is spent after
// about 16,000 of the 3.2 million flags, well before the time ceiling even
// under AddressSanitizer on a loaded machine (a one-byte note took 420,000
// flags to get there, and ran out of time first there).
test("flags past the byte budget fail the script, in little memory and time", async () => {
  const started = Date.now();
  assert.equal(await ask("reader", NESTED(`flag "${"x".repeat(1000)}"`)), `Fail "Script line 1:207: ${BYTES_SPENT}`);
  assert.ok(Date.now() - started < 5 * MAX_MS, `took ${Date.now() - started} ms`);
  assert.ok(peakKb() < PEAK_KB, `peak ${peakKb()} kB`);
  await stillServes();
});

test("a value that doubles, and edits that grow a text, stop at the byte budget", async () => {
  const doubling = '{ let $a = "xxxxxxxx" ' + 'let $a = "" + $a + $a '.repeat(40) + "flag $a }";
  assert.equal(await ask("reader", doubling), `Fail "Script line 1:450: ${BYTES_SPENT}`);
  const growing = '{ let $a = "xxxxxxxx" ' + 'let $a = "" + $a + $a '.repeat(17) +
    'foreach file matching "many/*.txt" { '.repeat(3) + "add line $a" + " }".repeat(3) + " }";
  assert.equal(await ask("ann", growing), `Fail "Script line 1:506: ${BYTES_SPENT}`);
  assert.equal(readFileSync(join(setup.workspace.dir, "many", "n0.txt"), "utf8"), "x\n");
  assert.ok(peakKb() < PEAK_KB, `peak ${peakKb()} kB`);
  await stillServes();
});

test("a script past the server's time ceiling fails", async () => {
  const started = Date.now();
  // 64 million visits: the time ceiling ends it before the step budget.
  const reply = await ask("reader", NESTED('if contains "zzz" flag "x"', 6));
  assert.match(reply, new RegExp(`^Fail "Script line 1:\\d+: time budget spent \\(${MAX_MS} ms, ` +
    `script_max_ms\\); nothing written"$`));
  assert.ok(Date.now() - started < 4 * MAX_MS, `took ${Date.now() - started} ms`);
  await stillServes();
});
