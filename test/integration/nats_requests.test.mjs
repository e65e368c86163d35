// eddi-server on a real nats-server, driven by the npm nats client:
// request/reply, JSON bodies, service discovery, the validator, mizuki
// streams, two senders at once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, createInbox, StringCodec } from "nats";
import { jsonInbox, startNatsServer, startEddiServer, tempWorkspace } from "./helpers.mjs";

const sc = StringCodec();
const REQUEST_TIMEOUT_MS = 3000;
const MAX_MESSAGE_BYTES = 4096;

let nats, eddi, workspace, nc;

before(async () => {
  workspace = tempWorkspace();
  nats = await startNatsServer();
  eddi = await startEddiServer([
    "--nats", nats.url, "--root", workspace.dir, "--name", "alpha",
    "--max-message-bytes", String(MAX_MESSAGE_BYTES),
    "--allow", "ann", "--allow", "bob", "--allow", "anonymous", "--allow", "llm-1",
    "--read-only", "reader",
  ]);
  nc = await connect({ servers: nats.url });
});

after(async () => {
  await nc?.close();
  const { code } = await eddi.stop("SIGTERM");
  assert.equal(code, 0, "eddi-server exits 0 on SIGTERM");
  await nats.stop();
  workspace.remove();
});

async function ask(subject, body) {
  const data = typeof body === "string" ? sc.encode(body) : body;
  const reply = await nc.request(subject, data, { timeout: REQUEST_TIMEOUT_MS });
  return sc.decode(reply.data);
}

const json = (object) => JSON.stringify(object);

const inbox = jsonInbox;

test("plain text request on eddi.cmd runs as the anonymous sender", async () => {
  assert.equal(await ask("eddi.cmd", "Status"),
    'Fail "No session exists and this is not a session command", Start one with "Start <name>"');
  assert.equal(await ask("eddi.cmd", "Start anon"), "Ok, Instance alpha");
  assert.equal(await ask("eddi.alpha.cmd", "Status"), "Ok: Session anon, No file");
});

test("JSON body names the sender; a session is edited and saved", async () => {
  assert.equal(await ask("eddi.cmd", json({ sender: "ann", text: "Start s1" })), "Ok, Instance alpha");
  assert.equal(
    await ask("eddi.alpha.cmd", json({ sender: "ann", text: 'Open Create a.txt\nInsert Block "x\\n"\nSave' })),
    "Ok, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 2",
  );
  assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "x\n");
  // The session's own sender acts in it; naming the session is not enough.
  assert.equal(await ask("eddi.alpha.cmd", json({ sender: "ann", session: "s1", text: "Status" })),
    "Ok: Session s1, File a.txt, At 1:0, Length 1");
  assert.equal(await ask("eddi.alpha.cmd", json({ session: "s1", text: "Status" })),
    'Fail "Session s1 belongs to another sender"');
  assert.equal(await ask("eddi.cmd", json({ sender: "bob", session: "s1", text: "Status" })),
    'Fail "Session s1 belongs to another sender"');
  assert.equal(await ask("eddi.cmd", json({ sender: "bob", session: "nope", text: "Status" })),
    'Fail "Session nope not found"');
});

test("two senders at once each get their own replies", async () => {
  await ask("eddi.cmd", json({ sender: "bob", text: "Start s2" }));
  const rounds = 20;
  const asks = [];
  for (let i = 0; i < rounds; i++) {
    asks.push(ask("eddi.cmd", json({ sender: "ann", text: "Status" })));
    asks.push(ask("eddi.cmd", json({ sender: "bob", text: "Status" })));
  }
  const replies = await Promise.all(asks);
  for (let i = 0; i < rounds; i++) {
    assert.equal(replies[2 * i], "Ok: Session s1, File a.txt, At 1:0, Length 1");
    assert.equal(replies[2 * i + 1], "Ok: Session s2, No file");
  }
});

test("the validator refuses bad messages and the server keeps serving", async () => {
  assert.equal(await ask("eddi.cmd", "x".repeat(MAX_MESSAGE_BYTES + 1)),
    `Fail "Message too large: ${MAX_MESSAGE_BYTES + 1} bytes, limit ${MAX_MESSAGE_BYTES}"`);
  assert.equal(await ask("eddi.cmd", new Uint8Array([0x53, 0x74, 0xff, 0x0a])),
    'Fail "Message is not valid UTF-8"');
  assert.equal(await ask("eddi.cmd", '{"sender": "ann", "text": '),
    'Fail "Invalid JSON: unexpected end of data"');
  assert.equal(await ask("eddi.cmd", json({ text: "Status" })),
    'Fail "Sender missing: give \\"sender\\" or \\"session\\""');
  assert.equal(await ask("eddi.cmd", json({ sender: "mallory", text: "Start m" })),
    'Fail "Sender mallory is not allowed"');
  assert.equal(await ask("eddi.cmd", json({ sender: "reader", text: "Start r\nOpen a.txt" })),
    "Ok, Instance alpha\nOk, At 0:0, Length 1");
  assert.equal(await ask("eddi.cmd", json({ sender: "reader", text: 'Insert Block "y"' })),
    'Fail "Sender reader may only read, not run Insert"');
  assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "x\n");
  assert.equal(await ask("eddi.cmd", json({ sender: "ann", text: "Status" })),
    "Ok: Session s1, File a.txt, At 1:0, Length 1");
});

// A refusal quotes what it names as every Fail does: a carriage return is
// escaped (\r) like a newline or a tab, never sent raw.
test("refusals escape control characters as the engine's Fails do", async () => {
  assert.equal(await ask("eddi.alpha.cmd", json({ session: "s\r1\tx", text: "Status" })),
    'Fail "Session s\\r1\\tx not found"');
  assert.equal(await ask("eddi.cmd", json({ sender: "ann", session: "s1\r", text: "Status" })),
    'Fail "Session s1\\r not found"');
});

test("service discovery answers $SRV.PING, INFO and STATS", async () => {
  for (const subject of ["$SRV.PING", "$SRV.PING.eddi", "$SRV.PING.eddi.alpha"]) {
    assert.deepEqual(JSON.parse(await ask(subject, "")), {
      type: "io.nats.micro.v1.ping_response",
      name: "eddi",
      id: "alpha",
      version: "0.1.0",
      metadata: { instance: "alpha", eddispeak: "2.0" },
    });
  }
  const info = JSON.parse(await ask("$SRV.INFO.eddi", ""));
  assert.equal(info.type, "io.nats.micro.v1.info_response");
  assert.deepEqual(info.endpoints.map((e) => [e.name, e.subject, e.queue_group]), [
    ["cmd", "eddi.cmd", "eddi"],
    ["instance_cmd", "eddi.alpha.cmd", "eddi"],
    ["connection_request", "mizuki.eddi.connection_request", "eddi"],
    ["stream_update", "mizuki.stream.update", undefined],
  ]);
  const stats = JSON.parse(await ask("$SRV.STATS.eddi.alpha", ""));
  assert.equal(stats.type, "io.nats.micro.v1.stats_response");
  assert.match(stats.started, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const cmd = stats.endpoints.find((e) => e.name === "cmd");
  assert.ok(cmd.num_requests >= 40 && cmd.num_errors >= 1, JSON.stringify(cmd));
  // The sessions this instance holds ride on the command endpoint's data.
  assert.equal(typeof cmd.data.sessions, "number");
  assert.equal(typeof cmd.processing_time, "number");
  assert.equal(typeof cmd.average_processing_time, "number");
  assert.equal(typeof cmd.last_error, "string");
});

// The stream's owner reads the response and every append on its own inbox
// (mizuki_streams.test.mjs has the binding's refusals).
test("mizuki: connection handshake, stream open, update, append", async () => {
  const opened = inbox(nc, "mizuki.stream.open");
  const mine = createInbox();
  const appended = inbox(nc, mine);
  await nc.flush();
  const request = {
    message_type: "connection_request",
    sender: { id: "llm-1", type: "llm", client_info: { name: "test", version: "1" } },
    stream_name: "llm-1.eddi.code_editing",
    eddispeak_version: "1.0",
    requested_features: { basic_commands: ["1.0", "mandatory"], python_api: ["1.0", "optional"] },
    connection_id: "conn-1",
  };
  nc.publish("mizuki.eddi.connection_request", sc.encode(json(request)), { reply: mine });
  const response = await appended.next();
  assert.equal(response.message_type, "connection_response");
  assert.equal(response.status, "accepted");
  assert.equal(response.stream_id, "llm-1.eddi.code_editing");
  assert.match(response.stream_key, /^[0-9a-f]{32}$/);
  assert.equal(response.connection_id, "conn-1");
  assert.equal(response.available_features.basic_commands, "2.0");
  assert.equal(response.available_features.python_api, undefined);
  assert.deepEqual(response.server_info.supported_eddispeak, ["1.0", "2.0"]);
  assert.equal(response.session, null);
  assert.equal(response.reconnected, false);
  assert.deepEqual(await opened.next(), {
    name: "llm-1.eddi.code_editing", msg_type: "stream_open", whitelist_recipient: "eddi", user: "eddi",
  });
  const key = response.stream_key;
  const nextAppend = () => appended.next();
  nc.publish("mizuki.stream.update", sc.encode(json({ appended: "Start st", from: "llm-1", to: "eddi", stream_key: key })));
  assert.deepEqual(await nextAppend(), {
    name: "llm-1.eddi.code_editing", appended: "Ok", from: "eddi", to: "llm-1",
  });
  nc.publish("mizuki.stream.update", sc.encode(json({ appended: "Status", from: "llm-1", to: "eddi", stream_key: key })));
  assert.equal((await nextAppend()).appended, "Ok: Session st, No file");
  // Messages for someone else are not eddi's.
  nc.publish("mizuki.stream.update", sc.encode(json({ appended: "Status", from: "llm-1", to: "human", stream_key: key })));
  nc.publish("mizuki.stream.update", sc.encode(json({ appended: 7, from: "llm-1", to: "eddi", stream_key: key })));
  assert.equal((await nextAppend()).appended, 'Fail "\\"appended\\" must be a string"');
  opened.close();

  // The owner coming back with its key finds its session again.
  nc.publish("mizuki.eddi.connection_request", sc.encode(json({ ...request, stream_key: key })), { reply: mine });
  const again = await appended.next();
  assert.equal(again.session, "st");
  assert.equal(again.reconnected, true);
  appended.close();

  const wrongVersion = JSON.parse(await ask("mizuki.eddi.connection_request",
    json({ ...request, eddispeak_version: "3.0" })));
  assert.equal(wrongVersion.status, "rejected");
  assert.equal(wrongVersion.reason, "EddiSpeak 3.0 not supported (supported: 1.0, 2.0)");
  const mandatory = JSON.parse(await ask("mizuki.eddi.connection_request",
    json({ ...request, requested_features: { python_api: ["1.0", "mandatory"] } })));
  assert.equal(mandatory.reason, "Feature python_api not available");
});
