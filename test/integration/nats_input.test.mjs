// Bad input on NATS: eddi-server on a real nats-server, driven by the npm
// nats client. Each case gets a clear Fail, changes no file, and the log
// names the sender the request ran (or was refused) as.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { natsAndEddi, sleep } from "./helpers.mjs";

const sc = StringCodec();
const REQUEST_TIMEOUT_MS = 3000;

let setup, eddi, workspace, nc;

before(async () => {
  setup = await natsAndEddi(["--name", "alpha"], connect);
  ({ eddi, workspace, nc } = setup);
});

after(() => setup.stop());

const ask = async (subject, body) =>
  sc.decode((await nc.request(subject, sc.encode(body), { timeout: REQUEST_TIMEOUT_MS })).data);

// json-c's default mode took these; stdio never did.
test("NATS JSON is strict: single quotes, trailing commas, leading zeros", async () => {
  assert.equal(await ask("eddi.cmd", "{'sender': 'ann', 'text': 'Start q'}"),
    'Fail "Invalid JSON: unexpected character"');
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "text": "Start q",}'),
    'Fail "Invalid JSON: unexpected character"');
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "n": 007, "text": "Start q"}'),
    'Fail "Invalid JSON: number expected"');
});

// A NUL cut the name short: "ann\u0000x" ran as ann.
test("a NUL inside sender or session is refused", async () => {
  assert.equal(await ask("eddi.cmd", '{"sender": "ann\\u0000x", "text": "Start n"}'),
    'Fail "\\"sender\\" must not contain a NUL byte"');
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "session": "n\\u0000", "text": "Start n"}'),
    'Fail "\\"session\\" must not contain a NUL byte"');
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "text": "Status"}'),
    'Fail "No session exists and this is not a session command", Start one with "Start <name>"');
});

test("a lone surrogate escape is refused and no file is written", async () => {
  const body = '{"sender": "sur", "text": "Start u\\nOpen Create u.txt\\nInsert Block \\"\\ud800\\"\\nSave"}';
  assert.equal(await ask("eddi.cmd", body), 'Fail "Invalid JSON: unpaired UTF-16 surrogate escape"');
  assert.equal(existsSync(join(workspace.dir, "u.txt")), false);
});

// The session-only request runs as the anonymous sender (the engine's
// rule): the log line must say so, not name the session's holder.
test("the log names the sender a refused request asked as", async () => {
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "text": "Start held"}'), "Ok, Instance alpha");
  assert.equal(await ask("eddi.alpha.cmd", '{"session": "held", "text": "Status"}'),
    'Fail "Session held belongs to another sender"');
  await sleep(100);
  const lines = eddi.log.text.split("\n").filter((line) => line.includes("request nats"));
  const last = lines[lines.length - 1];
  assert.match(last, /^eddi-server: request nats sender=anonymous command=Status [\d.]+ms fail$/);
});
