// --identity subject on an external nats-server whose config holds two
// users, alice and bob, and the eddi instances' user: each user publishes
// only on its own subject (eddi.u.<user>.cmd) and reads only its own inbox
// prefix (_INBOX_<user>), as nats-server enforces; eddi takes the sender
// from the subject, whatever a JSON body says.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, StringCodec } from "nats";
import { startNatsServer, startEddiServer, tempWorkspace, sleep } from "./helpers.mjs";

const sc = StringCodec();
const PASSWORDS = { eddi: "eddi-secret", alice: "alice-secret", bob: "bob-secret" };

// A user of eddi: its own command subjects, its own inboxes.
const userEntry = (name) =>
  `{user: "${name}", password: "${PASSWORDS[name]}", permissions: {\n` +
  `  publish: {allow: ["eddi.u.${name}.cmd", "eddi.u.${name}.*.cmd"]}\n` +
  `  subscribe: {allow: ["_INBOX_${name}.>"]}\n}}`;
const CONFIG = `authorization {\n  users = [\n` +
  `    {user: "eddi", password: "${PASSWORDS.eddi}"}\n    ${userEntry("alice")}\n    ${userEntry("bob")}\n  ]\n}\n`;

let nats, eddi, workspace, config, alice, bob, bobErrors;

// A connection as user, replies on its own inbox prefix; nats-server's
// refusals are collected as "operation subject".
async function connectAs(user, errors = []) {
  const nc = await connect({ servers: nats.url, user, pass: PASSWORDS[user], inboxPrefix: `_INBOX_${user}` });
  (async () => {
    for await (const status of nc.status())
      if (status.type === "error" && status.permissionContext)
        errors.push(`${status.permissionContext.operation} ${status.permissionContext.subject}`);
  })();
  return nc;
}

before(async () => {
  workspace = tempWorkspace();
  config = `${workspace.dir}-nats.conf`;
  writeFileSync(config, CONFIG);
  nats = await startNatsServer(0, ["-c", config]);
  eddi = await startEddiServer([
    "--nats", nats.url, "--user", "eddi", "--password", PASSWORDS.eddi, "--identity", "subject",
    "--root", workspace.dir, "--name", "alpha", "--allow", "alice", "--read-only", "bob",
  ]);
  alice = await connectAs("alice");
  bobErrors = [];
  bob = await connectAs("bob", bobErrors);
});

after(async () => {
  await alice?.close();
  await bob?.close();
  await eddi.stop("SIGTERM");
  await nats.stop();
  workspace.remove();
  unlinkSync(config);
});

const ask = async (nc, subject, body, timeout = 3000) =>
  sc.decode((await nc.request(subject, sc.encode(typeof body === "string" ? body : JSON.stringify(body)),
                              { timeout })).data);

test("a user's requests run as that user; a body's sender is ignored", async () => {
  assert.equal(await ask(alice, "eddi.u.alice.cmd", "Start a1"), "Ok, Instance alpha");
  assert.equal(await ask(alice, "eddi.u.alice.alpha.cmd", 'Open Create a.txt\nInsert Block "x\\n"\nSave'),
    "Ok, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 2");
  // Alice claiming to be bob is still alice: her session, her rights.
  assert.equal(await ask(alice, "eddi.u.alice.alpha.cmd", { sender: "bob", text: "Status" }),
    "Ok: Session a1, File a.txt, At 1:0, Length 1");
  assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "x\n");
});

test("bob cannot send as alice, read her replies, or act in her sessions", async () => {
  // nats-server refuses him alice's subject and her inboxes.
  await assert.rejects(ask(bob, "eddi.u.alice.cmd", "Status", 500));
  bob.subscribe("_INBOX_alice.>");
  await bob.flush();
  // On his own subject, naming alice and her session, he is bob.
  assert.equal(await ask(bob, "eddi.u.bob.cmd", { sender: "alice", session: "a1", text: "Status" }),
    'Fail "Session a1 belongs to another sender"');
  for (let i = 0; i < 50 && bobErrors.length < 2; i++) await sleep(20);
  assert.deepEqual(bobErrors.sort(), ["publish eddi.u.alice.cmd", "subscription _INBOX_alice.>"]);
});

test("--allow and --read-only hold the identity, not the body's sender", async () => {
  assert.equal(await ask(bob, "eddi.u.bob.cmd", "Start b1\nOpen a.txt"), "Ok, Instance alpha\nOk, At 0:0, Length 1");
  assert.equal(await ask(bob, "eddi.u.bob.alpha.cmd", { sender: "alice", text: 'Insert Block "y"' }),
    'Fail "Sender bob may only read, not run Insert"');
  assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "x\n");
});

// Finding 4's transport side: only instances announce sessions. A user's
// forged event never reaches eddi, so it cannot lock anyone out.
test("a user cannot publish session events or use the shared subjects", async () => {
  const errors = [];
  const mallory = await connectAs("alice", errors);
  mallory.publish("eddi.session.events", sc.encode(JSON.stringify(
    { event: "started", session: "b2", sender: "bob", instance: "forged" })));
  mallory.publish("eddi.cmd", sc.encode("Status"));
  mallory.subscribe("eddi.session.sync");
  await mallory.flush();
  for (let i = 0; i < 50 && errors.length < 3; i++) await sleep(20);
  assert.deepEqual(errors.sort(), ["publish eddi.cmd", "publish eddi.session.events", "subscription eddi.session.sync"]);
  await mallory.close();
  // bob's next session is his to start: no "lives on forged".
  assert.equal(await ask(bob, "eddi.u.bob.alpha.cmd", "End\nStart b2"), "Ok, Session ended\nOk, Instance alpha");
});

// The eddi CLI as alice: a credentials file with "identity": "subject"
// sends on eddi.u.alice.cmd and reads replies on _INBOX_alice.
test("eddi --nats with alice's credentials file is alice", async () => {
  const file = `${workspace.dir}-alice.json`;
  writeFileSync(file, JSON.stringify({ url: nats.url, user: "alice", password: PASSWORDS.alice, identity: "subject" }),
                { mode: 0o600 });
  const run = spawnSync(process.env.EDDI_CLI, ["--nats", nats.url, "--credentials", file, "--sender", "bob",
                                               "-c", "Status"], { encoding: "utf8" });
  assert.equal(run.stderr, "");
  assert.equal(run.stdout, "Ok: Session a1, File a.txt, At 1:0, Length 1\n");
  chmodSync(file, 0o644);
  const loose = spawnSync(process.env.EDDI_CLI, ["--nats", nats.url, "--credentials", file, "-c", "Status"],
                          { encoding: "utf8" });
  assert.equal(loose.stderr, `eddi: credentials ${file}: readable by others (mode 644); chmod 600 it\n`);
  unlinkSync(file);
});
