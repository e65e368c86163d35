// eddi-server --stdio driven by the MCP SDK's own client (a client eddi did
// not write), then by raw JSON-RPC lines for the protocol errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EDDI_SERVER, rawStdio, tempWorkspace } from "./helpers.mjs";

test("MCP client lists the eddi tool and edits a file through it", async () => {
  const workspace = tempWorkspace();
  const transport = new StdioClientTransport({
    command: EDDI_SERVER,
    args: ["--stdio", "--root", workspace.dir, "--quiet"],
    stderr: "pipe",
    env: process.env, // XDG_STATE_HOME: state in the tests' own folder (helpers.mjs)
  });
  const client = new Client({ name: "eddi-integration", version: "1.0.0" });
  try {
    await client.connect(transport);
    assert.equal(client.getServerVersion().name, "eddi");
    assert.ok(client.getServerCapabilities().tools);

    const { tools } = await client.listTools();
    const eddi = tools.find((tool) => tool.name === "eddi");
    assert.ok(eddi, "the eddi tool is listed");
    assert.deepEqual(eddi.inputSchema.required, ["text"]);

    const result = await client.callTool({
      name: "eddi",
      arguments: { text: 'Start s\nOpen Create a.txt\nInsert Block "x\\n"\nSave' },
    });
    assert.equal(result.isError, false);
    assert.deepEqual(result.content, [
      { type: "text", text: "Ok\nOk, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 2" },
    ]);
    assert.equal(readFileSync(join(workspace.dir, "a.txt"), "utf8"), "x\n");

    const failed = await client.callTool({ name: "eddi", arguments: { text: "Opne a.txt" } });
    assert.equal(failed.isError, true);
    assert.match(failed.content[0].text, /^Fail "Unknown command 'Opne'"/);

    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool/);
  } finally {
    await client.close();
    workspace.remove();
  }
});

// Send raw lines and collect one response per request id.
async function rawSession(lines, expected) {
  const { responses, workspace } = await rawStdio(lines, expected);
  workspace.remove();
  return responses;
}

test("JSON-RPC errors: parse error, unknown method, invalid params", async () => {
  const responses = await rawSession(
    [
      // MCP's tools/* come after initialize (stdio_input.test.mjs has the refusal).
      JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18" } }),
      "{not json",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no.such.method" }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eddi.exec", params: {} }),
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "eddi" } }),
      JSON.stringify({ id: 4, method: "ping" }),
      JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" }),
    ],
    7,
  );
  const byId = (id) => responses.find((response) => response.id === id);
  const parseError = responses.find((response) => response.id === null);
  assert.deepEqual(parseError, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  assert.deepEqual(byId(1).error, { code: -32601, message: "Method not found: no.such.method" });
  assert.deepEqual(byId(2).error, { code: -32602, message: "params.text must be a string" });
  assert.deepEqual(byId(3).error, { code: -32602, message: "Arguments must be an object" });
  assert.deepEqual(byId(4).error, { code: -32600, message: "Invalid Request" });
  assert.deepEqual(byId(5).result, {});
});

test("eddi.exec runs EddiSpeak as the sender it names", async () => {
  const responses = await rawSession(
    [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eddi.exec", params: { text: "Start t\nStatus" } }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eddi.exec", params: { sender: "other", text: "Status" } }),
    ],
    2,
  );
  const byId = (id) => responses.find((response) => response.id === id);
  assert.deepEqual(byId(1).result.replies, [
    { ok: true, text: "Ok" },
    { ok: true, text: "Ok: Session t, No file" },
  ]);
  assert.equal(byId(1).result.text, "Ok\nOk: Session t, No file");
  assert.equal(byId(2).result.replies[0].ok, false);
  assert.match(byId(2).result.text, /^Fail "No session exists and this is not a session command"/);
});
