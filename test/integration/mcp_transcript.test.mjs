// One MCP session as data (mcp_session.json: each call and the result it
// must get), replayed by two clients over the same workspace: the MCP
// SDK's client and raw JSON-RPC lines written here. Both must get exactly
// the results the file holds: a read, a grep, a preview, a rename asking
// for progress, a rename cancelled at its first progress (no result, and
// nothing written), the reads that show it, an Undo, a help resource and
// a prompt.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, GetPromptResultSchema, ReadResourceResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { EDDI_SERVER, callersWorkspace, readJsonLines } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const session = JSON.parse(readFileSync(join(here, "mcp_session.json"), "utf8"));
// The cancelled rename's package: long enough that it runs past its first
// progress notification (200 ms) by far, also on a loaded machine.
const PACKAGE_FILES = 400;
const PACKAGE_USES = 120;

function workspaceForSession() {
  const workspace = callersWorkspace(PACKAGE_FILES, PACKAGE_USES);
  writeFileSync(join(workspace.dir, "a.py"), "def total(x):\n    return x\n\nprint(total(1))\n");
  writeFileSync(join(workspace.dir, "b.py"), "from a import total\n\nvalue = total(2)\n");
  return workspace;
}

const serverArgs = (workspace) => ["--stdio", "--root", workspace.dir, "--quiet", "--no-journal"];
const RESULT_SCHEMAS = { "tools/call": CallToolResultSchema, "resources/read": ReadResourceResultSchema, "prompts/get": GetPromptResultSchema };

// The SDK client: each call through client.request, a cancel through its
// AbortSignal. Returns what each call got (null for a cancelled one).
async function replaySdk(workspace) {
  const client = new Client({ name: "transcript-sdk", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: EDDI_SERVER, args: serverArgs(workspace), stderr: "pipe" }));
  const results = [];
  try {
    for (const step of session) {
      const abort = new AbortController();
      const options = {
        signal: abort.signal,
        onprogress: step.cancel_at_first_progress ? () => abort.abort("cancelled by the transcript") : step.progress ? () => {} : undefined,
      };
      const call = client.request(step.call, RESULT_SCHEMAS[step.call.method], options);
      if (step.cancel_at_first_progress) {
        await assert.rejects(call, /cancelled by the transcript/);
        results.push(null);
      } else {
        results.push(await call);
      }
    }
  } finally {
    await client.close();
  }
  return results;
}

// Raw JSON-RPC lines: progress asked for with _meta.progressToken, a cancel
// sent as notifications/cancelled at the first progress.
async function replayRaw(workspace) {
  const child = spawn(EDDI_SERVER, serverArgs(workspace), { stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map();
  const progressOf = new Map();
  readJsonLines(child.stdout, (message) => {
    if (message.method === "notifications/progress") progressOf.get(message.params.progressToken)?.();
    else if (waiting.has(message.id)) waiting.get(message.id)(message);
  });
  const send = (message) => child.stdin.write(JSON.stringify(message) + "\n");
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      send({ jsonrpc: "2.0", id, method, params });
    });
  await ask(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "transcript-raw", version: "1" } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const results = [];
  let id = 1;
  for (const step of session) {
    const requestId = id++;
    const token = `t${requestId}`;
    const params = step.progress || step.cancel_at_first_progress ? { ...step.call.params, _meta: { progressToken: token } } : step.call.params;
    if (step.cancel_at_first_progress) {
      const cancelled = new Promise((resolve) =>
        progressOf.set(token, () => {
          progressOf.delete(token);
          send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "cancelled by the transcript" } });
          resolve();
        }),
      );
      const answered = ask(requestId, step.call.method, params);
      await cancelled;
      results.push(null);
      // A cancelled request gets no response: nothing may come for it.
      answered.then((late) => assert.fail(`a response came for the cancelled request: ${JSON.stringify(late)}`));
      continue;
    }
    const response = await ask(requestId, step.call.method, params);
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    results.push(response.result);
  }
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  return results;
}

for (const [name, replay] of [["the MCP SDK client", replaySdk], ["raw JSON-RPC lines", replayRaw]]) {
  test(`${name} replays the session and gets the transcript's results`, async () => {
    const workspace = workspaceForSession();
    try {
      const results = await replay(workspace);
      assert.equal(results.length, session.length);
      for (let i = 0; i < session.length; i++)
        assert.deepEqual(results[i], session[i].result, `call ${i + 1}: ${session[i].note}`);
    } finally {
      workspace.remove();
    }
  });
}
