// The audit log of eddi-server: one JSON line per request, refused ones
// too, written to <state>/audit.jsonl and published with --audit-subject;
// asserted exactly, but for the time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { startNatsServer, startEddiServer, tempWorkspace, sleep } from "./helpers.mjs";
import { stdioServer } from "./journal_helpers.mjs";

const sc = StringCodec();
const AUDIT_SUBJECT = "eddi.audit";
// XXH3-64 of "x\n", as the engine stamps files.
const A_TXT_HASH = "1bf67208bddf1edb";

let nats, eddi, workspace, state, nc, published;

before(async () => {
  workspace = tempWorkspace();
  state = mkdtempSync(join(tmpdir(), "eddi-it-audit-"));
  nats = await startNatsServer();
  eddi = await startEddiServer([
    "--nats", nats.url, "--root", workspace.dir, "--name", "alpha", "--state", state,
    "--audit-subject", AUDIT_SUBJECT, "--allow", "ann", "--read-only", "reader",
  ]);
  nc = await connect({ servers: nats.url });
  published = [];
  nc.subscribe(AUDIT_SUBJECT, { callback: (error, message) => published.push(sc.decode(message.data)) });
  await nc.flush();
});

after(async () => {
  await nc?.close();
  await eddi.stop("SIGTERM");
  await nats.stop();
  workspace.remove();
  rmSync(state, { recursive: true, force: true });
});

const ask = async (subject, body) =>
  sc.decode((await nc.request(subject, sc.encode(JSON.stringify(body)), { timeout: 3000 })).data);

// A line without its time, which is checked for shape instead.
function timeless(line) {
  const record = JSON.parse(line);
  assert.match(record.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/, line);
  delete record.time;
  return record;
}

test("every request is audited, refused ones too, in the file and on NATS", async () => {
  assert.equal(await ask("eddi.cmd", { sender: "ann", text: "Start s1" }), "Ok, Instance alpha");
  const patch = "Patch\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n";
  assert.match(await ask("eddi.alpha.cmd", { sender: "ann", text: patch }), /^Ok/);
  assert.equal(await ask("eddi.alpha.cmd", { session: "s1", text: "Status" }),
    'Fail "Session s1 belongs to another sender"');
  assert.equal(await ask("eddi.cmd", { sender: "mallory", text: "Start m" }), 'Fail "Sender mallory is not allowed"');
  assert.equal(await ask("eddi.cmd", { sender: "reader", text: 'Start r\nInsert Block "y"' }),
    'Fail "Sender reader may only read, not run Insert"');
  assert.match(await ask("eddi.alpha.cmd", { sender: "ann", text: "Status\nOpne a.txt" }), /\nFail "Unknown command 'Opne'"/);
  assert.equal(await ask("eddi.alpha.cmd", { sender: "ann", text: "End" }), "Ok, Session ended");

  const base = { instance: "alpha", transport: "nats" };
  const expected = [
    { sender: "ann", session: "s1", ...base, commands: ["Start"], files: [], outcome: "ok" },
    { sender: "ann", session: "s1", ...base, commands: ["Patch"],
      files: [{ path: "a.txt", before: null, after: A_TXT_HASH }], outcome: "ok" },
    { sender: "anonymous", session: "s1", ...base, commands: ["Status"], files: [], outcome: "refused" },
    { sender: "mallory", session: null, ...base, commands: ["Start"], files: [], outcome: "refused" },
    { sender: "reader", session: null, ...base, commands: ["Start", "Insert"], files: [], outcome: "refused" },
    { sender: "ann", session: "s1", ...base, commands: ["Status", "Opne"], files: [], outcome: "fail", failed_command: 2 },
    { sender: "ann", session: "s1", ...base, commands: ["End"], files: [], outcome: "ok" },
  ];
  const file = join(state, "audit.jsonl");
  assert.equal(statSync(file).mode & 0o777, 0o600, "the log is its owner's only");
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  assert.deepEqual(lines.map(timeless), expected);
  for (let i = 0; i < 20 && published.length < expected.length; i++) await sleep(25);
  assert.deepEqual(published, lines, "the subject carries the same lines");
  // Never file text, never a Fail's words.
  for (const line of lines) assert.doesNotMatch(line, /Unknown command|not allowed|x\\n/);
});

// Before: the line of a command that runs as long work (a Refactor, a
// script), finished later on the owner thread, said "transport": null, and
// so did a request that waited behind it.
test("long work's audit lines name their transport", async () => {
  writeFileSync(join(workspace.dir, "shop.py"), "def price():\n    return 1\n\n\nprint(price())\n");
  const file = join(state, "audit.jsonl");
  const earlier = readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  assert.equal(await ask("eddi.alpha.cmd", { sender: "ann", text: "Start s2" }), "Ok, Instance alpha");
  const renaming = ask("eddi.alpha.cmd", { sender: "ann", text: "Refactor RenameSymbol price cost" });
  const behind = ask("eddi.alpha.cmd", { sender: "ann", text: "Status" });
  assert.equal(await renaming, "Ok, Renamed in 1 file, 2 references updated");
  assert.equal(await behind, "Ok: Session s2, No file");
  assert.equal(await ask("eddi.alpha.cmd", { sender: "ann",
    text: '{ foreach file matching "*.py" { replace "cost" with "fee" } }' }),
    "Ok, Script completed: 2 replaced, 1 file changed");
  assert.equal(readFileSync(join(workspace.dir, "shop.py"), "utf8"), "def fee():\n    return 1\n\n\nprint(fee())\n");
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).slice(earlier).map(timeless);
  const line = { sender: "ann", session: "s2", instance: "alpha", transport: "nats", outcome: "ok" };
  assert.deepEqual(lines.map(({ files, ...rest }) => rest), [
    { ...line, commands: ["Start"] },
    { ...line, commands: ["Refactor"] },
    { ...line, commands: ["Status"] },
    { ...line, commands: ["{"] },
  ]);
  assert.deepEqual(lines.map((record) => record.files.map((written) => written.path)),
                   [[], ["shop.py"], [], ["shop.py"]]);
});

test("--audit off writes no file; --audit FILE writes there", async () => {
  const other = tempWorkspace();
  const dir = mkdtempSync(join(tmpdir(), "eddi-it-audit-"));
  const off = await startEddiServer(["--nats", nats.url, "--root", other.dir, "--name", "off", "--state", dir,
                                     "--audit", "off"]);
  assert.equal(await ask("eddi.off.cmd", { sender: "o", text: "Start o" }), "Ok, Instance off");
  await off.stop();
  assert.equal(existsSync(join(dir, "audit.jsonl")), false);
  const named = join(dir, "named.jsonl");
  const on = await startEddiServer(["--nats", nats.url, "--root", other.dir, "--name", "named", "--state", dir,
                                    "--audit", named]);
  assert.equal(await ask("eddi.named.cmd", { sender: "n", text: "Start n" }), "Ok, Instance named");
  await on.stop();
  assert.deepEqual(readFileSync(named, "utf8").split("\n").filter(Boolean).map(timeless), [
    { sender: "n", session: "n", instance: "named", transport: "nats", commands: ["Start"], files: [], outcome: "ok" },
  ]);
  other.remove();
  rmSync(dir, { recursive: true, force: true });
});

// The same over stdio's eddi.exec (issue 31, item 14): a Refactor, a
// script, and a request behind them name "stdio".
test("long work's audit lines name stdio over eddi.exec", async () => {
  const other = tempWorkspace();
  const dir = mkdtempSync(join(tmpdir(), "eddi-it-audit-"));
  writeFileSync(join(other.dir, "shop.py"), "def price():\n    return 1\n\n\nprint(price())\n");
  const eddi = await stdioServer(other.dir, dir);
  assert.equal(await eddi.send("Start s", "ann"), "Ok");
  const renaming = eddi.send("Refactor RenameSymbol price cost", "ann");
  const behind = eddi.send("Status", "ann");
  assert.equal(await renaming, "Ok, Renamed in 1 file, 2 references updated");
  assert.equal(await behind, "Ok: Session s, No file");
  assert.equal(await eddi.send('{ foreach file matching "*.py" { replace "cost" with "fee" } }', "ann"),
               "Ok, Script completed: 2 replaced, 1 file changed");
  await eddi.stop();
  const lines = readFileSync(join(dir, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map(timeless);
  assert.deepEqual(lines.map(({ commands, transport, sender, session, outcome }) => ({ commands, transport, sender, session, outcome })), [
    { commands: ["Start"], transport: "stdio", sender: "ann", session: "s", outcome: "ok" },
    { commands: ["Refactor"], transport: "stdio", sender: "ann", session: "s", outcome: "ok" },
    { commands: ["Status"], transport: "stdio", sender: "ann", session: "s", outcome: "ok" },
    { commands: ["{"], transport: "stdio", sender: "ann", session: "s", outcome: "ok" },
  ]);
  other.remove();
  rmSync(dir, { recursive: true, force: true });
});
