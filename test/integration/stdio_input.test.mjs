// Bad input on eddi-server --stdio, as raw JSON-RPC lines: each gets a
// clear error, changes no file, and swallows nothing after it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exited, rawStdio, startEddiServer, tempWorkspace } from "./helpers.mjs";

const rpc = (id, method, params) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
const INITIALIZE = rpc(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const byId = (responses, id) => responses.find((response) => response.id === id);

// fgets + strlen stopped at a NUL: the rest of the line was lost with its
// newline, and the next request was read as part of this one.
test("a NUL byte in a line is a parse error and the next request is answered", async () => {
  const { responses, workspace } = await rawStdio([rpc(1, "ping") + "\0 tail", rpc(2, "ping")], 2);
  assert.deepEqual(responses[0], { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  assert.deepEqual(responses[1], { jsonrpc: "2.0", id: 2, result: {} });
  workspace.remove();
});

// json-c reads \ud800 alone as U+FFFD: the file would get bytes the
// client never sent.
test("a lone UTF-16 surrogate escape is refused and nothing is written", async () => {
  const text = 'Start s\nOpen Create s.txt\nInsert Block "\\ud800"\nSave';
  const line = `{"jsonrpc":"2.0","id":1,"method":"eddi.exec","params":{"text":${JSON.stringify(text).replace("\\\\ud800", "\\ud800")}}}`;
  assert.ok(line.includes('"\\ud800\\"'), line);
  const { responses, workspace } = await rawStdio([line, rpc(2, "ping")], 2);
  assert.deepEqual(byId(responses, null), {
    jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: unpaired UTF-16 surrogate escape" },
  });
  assert.deepEqual(byId(responses, 2).result, {});
  assert.equal(existsSync(join(workspace.dir, "s.txt")), false);
  workspace.remove();
});

// JSON-RPC 2.0 allows a null id but discourages it; MCP forbids it
// ("Requests MUST include a string or integer ID ... MUST NOT be null"),
// so eddi answers it as an invalid request, not as a request.
test('"id": null is an invalid request', async () => {
  const { responses, workspace } = await rawStdio(
    [JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }),
     JSON.stringify({ jsonrpc: "2.0", id: null, method: "eddi.exec", params: { text: "Start n" } }),
     rpc(3, "eddi.exec", { text: "Status" })],
    3,
  );
  const invalid = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: id must be a string or number" } };
  assert.deepEqual(responses.filter((response) => response.id === null), [invalid, invalid]);
  // The null-id Start never ran.
  assert.match(byId(responses, 3).result.text, /^Fail "No session exists/);
  workspace.remove();
});

// MCP's lifecycle: the client's first request is initialize; until then a
// server answers only ping. eddi's own methods (eddi.exec, edit.*) are not
// MCP's and need no initialize.
test("tools/list and tools/call before initialize are refused", async () => {
  const { responses, workspace } = await rawStdio(
    [rpc(1, "tools/list"), rpc(2, "tools/call", { name: "eddi", arguments: { text: "Start x" } }), rpc(3, "ping"),
     INITIALIZE, INITIALIZED, rpc(4, "tools/list")],
    5,
  );
  const refused = { code: -32600, message: "Invalid Request: send initialize first" };
  assert.deepEqual(byId(responses, 1).error, refused);
  assert.deepEqual(byId(responses, 2).error, refused);
  assert.deepEqual(byId(responses, 3).result, {});
  assert.equal(byId(responses, 0).result.serverInfo.name, "eddi");
  assert.ok(byId(responses, 4).result.tools.length >= 1);
  workspace.remove();
});

test("the eddi tool takes exactly {text: string}", async () => {
  const call = (id, args) => rpc(id, "tools/call", { name: "eddi", arguments: args });
  const { responses, workspace } = await rawStdio(
    [INITIALIZE, INITIALIZED, rpc(1, "tools/list"),
     call(2, { text: 42 }), call(3, {}), call(4, { text: "Start t", path: "a.txt" }), call(5, { text: "Start t" })],
    6,
  );
  const eddi = byId(responses, 1).result.tools.find((tool) => tool.name === "eddi");
  assert.deepEqual(eddi.inputSchema, {
    type: "object",
    properties: { text: { type: "string", description: "EddiSpeak commands, one per line" } },
    required: ["text"],
    additionalProperties: false,
  });
  assert.deepEqual(byId(responses, 2).error, { code: -32602, message: "Argument text must be a string" });
  assert.deepEqual(byId(responses, 3).error, { code: -32602, message: "Missing argument: text" });
  assert.deepEqual(byId(responses, 4).error, { code: -32602, message: "Unknown argument path; this call takes: text" });
  assert.deepEqual(byId(responses, 5).result, { content: [{ type: "text", text: "Ok" }], isError: false });
  workspace.remove();
});

test("stdio JSON is strict: single quotes and trailing commas are parse errors", async () => {
  const { responses, workspace } = await rawStdio(
    ["{'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}", '{"jsonrpc": "2.0", "id": 2, "method": "ping",}', rpc(3, "ping")],
    3,
  );
  const parse = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
  assert.deepEqual(responses.filter((response) => response.id === null), [parse, parse]);
  assert.deepEqual(byId(responses, 3).result, {});
  workspace.remove();
});

// A key given twice (issue 31, item 14): json-c kept the last value, so a
// second "sender" spoke for the first.
test("stdio JSON giving a key twice is a parse error", async () => {
  const twice = '{"jsonrpc": "2.0", "id": 1, "method": "eddi.exec", ' +
    '"params": {"sender": "ann", "sender": "bob", "text": "Status"}}';
  const { responses, workspace } = await rawStdio([twice, rpc(2, "ping")], 2);
  assert.deepEqual(responses.filter((response) => response.id === null), [
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: duplicate key in an object" } },
  ]);
  assert.deepEqual(byId(responses, 2).result, {});
  workspace.remove();
});

// A script statement whose block spans lines of eddi.exec's text is one
// command there too (the engine's message walk; the CLI and NATS share it).
test("a block across lines of eddi.exec's text is one command", async () => {
  const text = 'Start s\nforeach file matching "*.py" {\n    flag "x"\n}\nStatus';
  const { responses, workspace } = await rawStdio([rpc(1, "eddi.exec", { text })], 1);
  assert.equal(responses[0].result.text, "Ok\nOk, Script completed: no changes\nOk: Session s, No file");
  assert.deepEqual(responses[0].result.replies.map((reply) => reply.ok), [true, true, true]);
  workspace.remove();
});

// A file name is any bytes on disk: 0xFF 0xFE, a newline. json-c copies a
// string's bytes as they are, so such a name once made the output invalid
// UTF-8; every line out must stay valid UTF-8 and valid JSON, and a name
// must not forge a reply line.
test("file names that are not UTF-8 or hold a newline keep the output valid", async () => {
  const workspace = tempWorkspace();
  writeFileSync(Buffer.concat([Buffer.from(workspace.dir + "/"), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]), "x\n");
  writeFileSync(join(workspace.dir, 'evil\nFail "INJECTED".txt'), "x\n");
  const server = await startEddiServer(["--stdio", "--root", workspace.dir, "--quiet"], { waitNats: false });
  const chunks = [];
  server.child.stdout.on("data", (chunk) => chunks.push(chunk));
  server.child.stdin.write(rpc(1, "edit.grep", { pattern: "x" }) + "\n");
  server.child.stdin.write(rpc(2, "eddi.exec", { text: "Start s\nList", sender: "ann" }) + "\n");
  server.child.stdin.end();
  const { code } = await exited(server.child);
  assert.equal(code, 0, server.log.text);
  const lines = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)).trimEnd().split("\n");
  const responses = lines.map((line) => JSON.parse(line));
  assert.equal(responses.length, 2);
  assert.match(byId(responses, 1).result.text, /^\["evil\\nFail \\"INJECTED\\".txt"#[0-9A-F]{4}\]\n1:x\n\["\\xFF\\xFE.txt"#[0-9A-F]{4}\]\n1:x$/);
  assert.deepEqual(byId(responses, 2).result.replies, [
    { ok: true, text: "Ok" },
    { ok: true, text: 'Ok: "evil\\nFail \\"INJECTED\\".txt", "\\xFF\\xFE.txt"' },
  ]);
  workspace.remove();
});

// json-c keeps integers in 64 bits: 123456789012345678901234567890 came
// back as 18446744073709551615, an id the client never sent. Each id is
// echoed as written, on results, errors and answers of long work.
test("an id is echoed exactly as sent", async () => {
  const workspace = tempWorkspace();
  const server = await startEddiServer(["--stdio", "--root", workspace.dir, "--quiet"], { waitNats: false });
  const chunks = [];
  server.child.stdout.on("data", (chunk) => chunks.push(chunk));
  const big = "123456789012345678901234567890";
  server.child.stdin.write(`{"jsonrpc":"2.0","id":${big},"method":"ping"}\n`);
  server.child.stdin.write(`{"jsonrpc":"2.0","id":-${big},"method":"no.such"}\n`);
  server.child.stdin.write(`{"params":{"id":1,"text":"Start s"},"id" : 18446744073709551616,"jsonrpc":"2.0","method":"eddi.exec"}\n`);
  server.child.stdin.write(`{"jsonrpc":"2.0","id":"${big}","method":"ping"}\n`);
  server.child.stdin.write(`{"jsonrpc":"2.0","id":7,"method":"ping"}\n`);
  server.child.stdin.end();
  const { code } = await exited(server.child);
  assert.equal(code, 0, server.log.text);
  // eddi.exec answers after the pings: compare in order of the text.
  const lines = Buffer.concat(chunks).toString().trimEnd().split("\n").sort();
  assert.deepEqual(lines, [
    `{"jsonrpc":"2.0","id":${big},"result":{}}`,
    `{"jsonrpc":"2.0","id":-${big},"error":{"code":-32601,"message":"Method not found: no.such"}}`,
    `{"jsonrpc":"2.0","id":18446744073709551616,"result":{"replies":[{"ok":true,"text":"Ok"}],"text":"Ok"}}`,
    `{"jsonrpc":"2.0","id":"${big}","result":{}}`,
    `{"jsonrpc":"2.0","id":7,"result":{}}`,
  ].sort());
  workspace.remove();
});
