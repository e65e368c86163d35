// Scripts that attack the server: eddi-server on a real nats-server, the
// npm nats client as a read-only sender. Deep scripts are refused with the
// limit named (they overflowed the stack and killed the server for every
// sender), and the server goes on answering another sender.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { natsAndEddi } from "./helpers.mjs";

const sc = StringCodec();
const REQUEST_TIMEOUT_MS = 10000;
const DEEP = "nested too deeply (more than 64 levels of blocks, statement bodies, not and brackets)";
const DEEP_HINT = "Write it flatter: statements one after another in one { block }, conditions joined with and/or";

let setup, eddi, nc;

before(async () => {
  setup = await natsAndEddi(["--name", "alpha", "--read-only", "reader"], connect);
  ({ eddi, nc } = setup);
  writeFileSync(join(setup.workspace.dir, "m00.py"), "def f():\n    return 1\n");
  writeFileSync(join(setup.workspace.dir, "a".repeat(40) + ".py"), "x = 1\n");
  assert.equal(await ask("reader", "Start r"), "Ok, Instance alpha");
  assert.equal(await ask("ann", "Start a"), "Ok, Instance alpha");
});

after(() => setup.stop());

async function ask(sender, text) {
  const body = JSON.stringify({ sender, text });
  const reply = await nc.request("eddi.cmd", sc.encode(body), { timeout: REQUEST_TIMEOUT_MS });
  return sc.decode(reply.data);
}

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
  assert.match(await ask("reader", stars), /^Ok, Script completed: 2 files flagged, Flagged: /);
  await stillServes();
});
