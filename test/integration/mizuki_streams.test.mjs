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
