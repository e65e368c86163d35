// Mizuki streams bound to the client that opened them: eddi-server on a
// real nats-server, the npm nats client as the stream's owner and as an
// intruder. The owner publishes its connection_request with a reply inbox
// of its own; the connection_response and every append of the stream come
// to that inbox; its updates carry the stream_key of the response.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { connect, createInbox, StringCodec } from "nats";
import { jsonInbox, natsAndEddi, sleep } from "./helpers.mjs";

const sc = StringCodec();
const WAIT_MS = 3000;
let setup, nc;

before(async () => {
  setup = await natsAndEddi(["--name", "alpha"], connect);
  ({ nc } = setup);
});

after(() => setup.stop());

const inbox = (subject) => jsonInbox(nc, subject);

const request = (id, extra = {}) => ({
  message_type: "connection_request",
  sender: { id, type: "llm" },
  stream_name: `${id}.eddi.code_editing`,
  eddispeak_version: "1.0",
  connection_id: `conn-${id}`,
  ...extra,
});

// A client: its own inbox, its connection_request published with it.
async function open(id, extra) {
  const mine = inbox(createInbox());
  await nc.flush();
  nc.publish("mizuki.eddi.connection_request", sc.encode(JSON.stringify(request(id, extra))), { reply: mine.subject });
  return { mine, response: await mine.next() };
}

const update = (body, reply) =>
  nc.publish("mizuki.stream.update", sc.encode(JSON.stringify(body)), reply ? { reply } : undefined);

test("appends go to the owner's inbox only, updates need the stream's key", async () => {
  const everyone = inbox("mizuki.stream.append");
  const { mine, response } = await open("owner");
  assert.equal(response.status, "accepted");
  assert.match(response.stream_key, /^[0-9a-f]{32}$/);
  const key = response.stream_key;
  update({ appended: "Start own", from: "owner", to: "eddi", stream_key: key });
  assert.deepEqual(await mine.next(),
    { name: "owner.eddi.code_editing", appended: "Ok", from: "eddi", to: "owner" });
  // No key, a wrong key: refused on the update's own reply subject, never run.
  const refusals = inbox(createInbox());
  await nc.flush();
  update({ appended: "End", from: "owner", to: "alpha" }, refusals.subject);
  assert.deepEqual(await refusals.next(), { name: null, appended:
    'Fail "No open stream has this stream_key: send a connection_request first"', from: "eddi", to: "owner" });
  update({ appended: "End", from: "owner", to: "alpha", stream_key: "0".repeat(32) }, refusals.subject);
  assert.equal((await refusals.next()).appended,
    'Fail "No open stream has this stream_key: send a connection_request first"');
  // The key is the stream's, and the stream its sender's.
  update({ appended: "End", from: "intruder", to: "eddi", stream_key: key }, refusals.subject);
  assert.deepEqual(await refusals.next(), { name: "owner.eddi.code_editing",
    appended: 'Fail "Stream owner.eddi.code_editing belongs to another sender"', from: "eddi", to: "intruder" });
  update({ appended: "Status", from: "owner", to: "eddi", stream_key: key });
  assert.equal((await mine.next()).appended, "Ok: Session own, No file");
  await sleep(50);
  assert.equal(everyone.pending(), 0, "nothing on the shared subject");
  everyone.close();
  refusals.close();
  mine.close();
});

// Before: "to": "<instance id>" ran without any connection_request.
test("an update to the instance without a connection is refused", async () => {
  const refusals = inbox(createInbox());
  await nc.flush();
  update({ appended: "Start ghost", from: "ghost", to: "alpha" }, refusals.subject);
  assert.equal((await refusals.next()).appended,
    'Fail "No open stream has this stream_key: send a connection_request first"');
  const status = await nc.request("eddi.cmd", sc.encode(JSON.stringify({ sender: "ghost", text: "Status" })),
                                  { timeout: WAIT_MS });
  assert.match(sc.decode(status.data), /^Fail "No session exists/);
  refusals.close();
});

// Before: a second connection_request with the same sender.id rebound the
// stream, and the first client's updates were dropped without a reply.
test("a second connection_request for an open stream is refused unless it has the key", async () => {
  const first = await open("bound");
  assert.equal(first.response.status, "accepted");
  const thief = await open("bound");
  assert.equal(thief.response.status, "rejected");
  assert.equal(thief.response.reason,
    "Stream bound.eddi.code_editing of bound is open: close it, or give its stream_key");
  const other = await open("other", { stream_name: "bound.eddi.code_editing" });
  assert.equal(other.response.reason, "Stream bound.eddi.code_editing is open for another sender");
  // The owner's stream still works, and answers the owner.
  update({ appended: "Start b", from: "bound", to: "eddi", stream_key: first.response.stream_key });
  assert.equal((await first.mine.next()).appended, "Ok");
  assert.equal(thief.mine.pending(), 0);
  // The owner coming back (a new inbox) with its key continues the stream.
  const back = await open("bound", { stream_key: first.response.stream_key });
  assert.equal(back.response.status, "accepted");
  assert.equal(back.response.reconnected, true);
  assert.equal(back.response.session, "b");
  assert.equal(back.response.stream_key, first.response.stream_key);
  update({ appended: "Status", from: "bound", to: "eddi", stream_key: first.response.stream_key });
  assert.equal((await back.mine.next()).appended, "Ok: Session b, No file");
  assert.equal(first.mine.pending(), 0, "the old inbox hears no more");
  // Closed, the stream is free again; the session stays.
  update({ message_type: "stream_close", from: "bound", to: "eddi", stream_key: first.response.stream_key });
  assert.deepEqual(await back.mine.next(),
    { name: "bound.eddi.code_editing", appended: "Ok, Stream closed", from: "eddi", to: "bound" });
  const again = await open("bound");
  assert.equal(again.response.status, "accepted");
  assert.notEqual(again.response.stream_key, first.response.stream_key);
  assert.equal(again.response.session, "b");
  for (const client of [first, thief, other, back, again]) client.mine.close();
});

// The design's connection request (seeds/eddi-design.org, Task 1.1), as it
// is written there. Before: EddiSpeak 2.0 was refused ("not supported
// (supported: 1.0)"), and semantic_refactoring and changeset_management,
// which eddi has (Refactor; a script's changesets), were not offered.
const DESIGN_REQUEST = '{ "message_type": "connection_request", "sender": { "id": "claude-4-sonnet-20250514", "type": "llm", "client_info": { "name": "Claude", "version": "4.0", "capabilities": ["code_analysis", "refactoring", "python_scripting"] } }, "stream_name": "claude.eddi.code_editing", "eddispeak_version": "2.0", "requested_features": { "basic_commands": ["2.0", "mandatory"], "python_api": ["1.0", "optional"], "semantic_refactoring": ["1.0", "optional"], "changeset_management": ["1.0", "optional"] ], "session_preferences": { "response_format": "terse", "error_handling": "detailed", "preview_mode": true }, "timestamp": "2025-08-02T14:30:00Z", "connection_id": "conn_claude_20250802_143000" }';

async function connectRaw(text) {
  const mine = inbox(createInbox());
  await nc.flush();
  nc.publish("mizuki.eddi.connection_request", sc.encode(text), { reply: mine.subject });
  return { mine, response: await mine.next() };
}

test("the design's connection request is accepted, with every feature eddi has", async () => {
  // As written, it closes requested_features with "]": not JSON, refused as
  // any malformed message is.
  const asWritten = await connectRaw(DESIGN_REQUEST);
  assert.deepEqual(asWritten.response, { message_type: "connection_response", status: "rejected",
    reason: "Fail \"Invalid JSON: object value separator ',' expected\"" });
  asWritten.mine.close();
  // With that one bracket made a brace, it is the request the design means.
  const fixed = DESIGN_REQUEST.replace('["1.0", "optional"] ], "session_preferences"',
                                       '["1.0", "optional"] }, "session_preferences"');
  assert.notEqual(fixed, DESIGN_REQUEST);
  const { mine, response } = await connectRaw(fixed);
  assert.match(response.stream_key, /^[0-9a-f]{32}$/);
  assert.match(response.connection_established, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual({ ...response, stream_key: "K", connection_established: "T" }, {
    message_type: "connection_response", status: "accepted",
    stream_id: "claude.eddi.code_editing", stream_key: "K",
    connection_id: "conn_claude_20250802_143000",
    available_features: {
      basic_commands: "2.0", hashline_read: "1.0", grep: "1.0", hashline_edit: "1.0",
      apply_patch: "1.0", file_update: "1.0", semantic_refactoring: "1.0", changeset_management: "1.0",
    },
    server_info: { eddi_version: "0.1.0", supported_eddispeak: ["1.0", "2.0"],
                   max_concurrent_operations: 1024, instance: "alpha" },
    session: null, reconnected: false, connection_established: "T",
  });
  // The stream speaks 2.0: a script, its block across lines, is one command.
  nc.publish("mizuki.stream.update", sc.encode(JSON.stringify({ from: "claude-4-sonnet-20250514", to: "eddi",
    stream_key: response.stream_key,
    appended: 'Start design\nforeach file matching "*.py" {\n    flag "x"\n}\nStatus' })));
  assert.equal((await mine.next()).appended,
    "Ok\nOk, Script completed: no changes\nOk: Session design, No file");
  mine.close();
});

test("an EddiSpeak eddi does not speak is refused, naming those it does", async () => {
  for (const [version, accepted] of [["1.0", true], ["1", true], ["2.0", true], ["2.1", false],
                                     ["3.0", false], ["1.0.0", false]]) {
    const { mine, response } = await open(`speaker-${version}`, { eddispeak_version: version });
    if (accepted) assert.equal(response.status, "accepted", version);
    else assert.deepEqual([response.status, response.reason],
      ["rejected", `EddiSpeak ${version} not supported (supported: 1.0, 2.0)`]);
    mine.close();
  }
});
