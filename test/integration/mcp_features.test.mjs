// The MCP server's features besides tools, driven by the MCP SDK's own
// client: version negotiation, resources, prompts, structured tool output,
// progress notifications and cancellation (a cancelled refactoring writes
// nothing), and the errors a bad request gets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EDDI_SERVER, callersWorkspace, rawStdio, tempWorkspace } from "./helpers.mjs";

// The files of the cancelled rename: enough uses that the rename runs for
// a while (about a second here), so that the cancel reaches it running.
const RENAME_FILES = 400; // long past the first progress (200 ms), also under load
const RENAME_USES_PER_FILE = 120;
const FORMATTER_SECONDS = 1;
// The cancelled script's files, and how soon it must stop: a statement
// takes milliseconds, the whole script tens of seconds.
const SCRIPT_FILES = 40;
const SCRIPT_STOP_MAX_MS = 5000;

async function connect(workspace, env = process.env) {
  const transport = new StdioClientTransport({
    command: EDDI_SERVER,
    args: ["--stdio", "--root", workspace.dir, "--quiet", "--no-journal"],
    stderr: "pipe",
    env,
  });
  let stderr = "";
  transport.stderr.on("data", (chunk) => (stderr += chunk.toString()));
  const client = new Client({ name: "eddi-features", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

// Every file's bytes under dir, by path.
function snapshot(dir, prefix = "") {
  const files = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(dir, path));
    else files[path] = readFileSync(join(dir, path)).toString("base64");
  }
  return files;
}

test("initialize answers the client's version when eddi speaks it, else eddi's newest", async () => {
  const { responses, workspace } = await rawStdio(
    [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26" } }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2099-01-01" } }),
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: "2024-11-05" } }),
    ],
    3,
  );
  workspace.remove();
  const version = (id) => responses.find((response) => response.id === id).result.protocolVersion;
  assert.equal(version(1), "2025-03-26");
  assert.equal(version(2), "2025-06-18");
  assert.equal(version(3), "2024-11-05");
  assert.deepEqual(responses[0].result.capabilities, {
    tools: { listChanged: false },
    resources: { subscribe: false, listChanged: false },
    prompts: { listChanged: false },
    logging: {},
  });
});

test("resources: the reference, a command's help, open documents and previews", async () => {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "shop.py"), "def total(x):\n    return x\n\nprint(total(1))\n");
  const { client } = await connect(workspace);
  try {
    const open = await client.callTool({
      name: "eddi",
      arguments: { text: 'Start stdio\nOpen shop.py\nGoto 3:0\nInsert Block "# note\\n"' },
    });
    assert.equal(open.isError, false);
    const fileUri = `file://${workspace.dir}/shop.py`;

    const preview = await client.callTool({
      name: "preview",
      arguments: { operation: "RenameSymbol", target: "total", new_name: "sum_of" },
    });
    assert.equal(preview.isError, false);

    const { resources } = await client.listResources();
    assert.deepEqual(resources, [
      {
        uri: "eddi://eddispeak",
        name: "eddispeak",
        description: "The EddiSpeak reference: every command, its syntax and what it does",
        mimeType: "text/markdown",
      },
      { uri: fileUri, name: "shop.py", description: "Open in eddi, with unsaved edits", mimeType: "text/plain" },
      {
        uri: "eddi://preview/1",
        name: "preview 1",
        description: "RenameSymbol total -> sum_of: Ok, Preview: Would modify 1 file: shop.py",
        mimeType: "text/x-diff",
      },
    ]);

    // The document as eddi holds it: the unsaved line is there, not on disk.
    const document = await client.readResource({ uri: fileUri });
    assert.deepEqual(document.contents, [
      { uri: fileUri, mimeType: "text/plain", text: "def total(x):\n    return x\n\n# note\nprint(total(1))\n" },
    ]);
    assert.equal(readFileSync(join(workspace.dir, "shop.py"), "utf8"), "def total(x):\n    return x\n\nprint(total(1))\n");

    const diff = await client.readResource({ uri: "eddi://preview/1" });
    assert.equal(
      diff.contents[0].text,
      "--- a/shop.py\n+++ b/shop.py\n@@ -1,5 +1,5 @@\n-def total(x):\n+def sum_of(x):\n     return x\n \n # note\n-print(total(1))\n+print(sum_of(1))",
    );

    const help = await client.readResource({ uri: "eddi://help/goto" });
    assert.deepEqual(help.contents, [
      {
        uri: "eddi://help/goto",
        mimeType: "text/plain",
        text:
          "Goto <L:C|line|StartOfFile|EndOfFile|StartOfLine|EndOfLine|Bookmark <name>|StartOfFunction|" +
          "EndOfFunction|StartOfClass|EndOfClass|Function <n>|Class <n>|Method <C.m>> - move the cursor",
      },
    ]);
    // The same words as the engine's own Help.
    const engineHelp = await client.callTool({ name: "eddi", arguments: { text: "Help Goto" } });
    assert.equal(engineHelp.content[0].text, `Ok: ${help.contents[0].text}`);

    const reference = (await client.readResource({ uri: "eddi://eddispeak" })).contents[0];
    assert.equal(reference.mimeType, "text/markdown");
    assert.ok(reference.text.startsWith("# EddiSpeak\n\n"), reference.text.slice(0, 40));
    assert.ok(reference.text.includes(`\n- \`${help.contents[0].text.replace(" - ", "`: ")} (read-only)\n`));
    assert.ok(reference.text.includes("\n- `apply_patch` (Patch): Apply a patch:"));

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((template) => template.uriTemplate),
      ["eddi://help/{command}", "eddi://preview/{n}", "file://{path}"],
    );

    await assert.rejects(client.readResource({ uri: "eddi://nothing" }), (error) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /Resource not found: eddi:\/\/nothing; eddi's resources are eddi:\/\/eddispeak, /);
      return true;
    });
    await assert.rejects(client.readResource({ uri: "eddi://help/Opne" }), (error) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /Resource not found: eddi:\/\/help\/Opne: Unknown command: Opne; the commands are Start, End, /);
      return true;
    });
    await assert.rejects(client.readResource({ uri: "eddi://preview/2" }), (error) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /preview 2 is not kept; this server made 1 previews and keeps the last 16/);
      return true;
    });
    await assert.rejects(client.readResource({ uri: `file://${workspace.dir}/other.py` }), (error) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /other\.py is not open in the stdio session; open it/);
      return true;
    });
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("prompts: the EddiSpeak reference and one command's help", async () => {
  const workspace = tempWorkspace();
  const { client } = await connect(workspace);
  try {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts, [
      { name: "eddispeak", description: "Teach the model EddiSpeak: every command and tool of eddi" },
      {
        name: "command_help",
        description: "One EddiSpeak command's syntax and what it does",
        arguments: [{ name: "command", description: "the command, e.g. Goto", required: true }],
      },
    ]);
    const help = await client.getPrompt({ name: "command_help", arguments: { command: "undo" } });
    assert.deepEqual(help, {
      description: "Help for one EddiSpeak command",
      messages: [{ role: "user", content: { type: "text", text: "The EddiSpeak command Undo:\nUndo [count] - undo commands" } }],
    });
    const reference = await client.getPrompt({ name: "eddispeak" });
    assert.ok(reference.messages[0].content.text.startsWith("# EddiSpeak\n\n"));

    await assert.rejects(client.getPrompt({ name: "nope" }), (error) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Unknown prompt: nope; the prompts are eddispeak, command_help/);
      return true;
    });
    await assert.rejects(client.getPrompt({ name: "command_help", arguments: {} }), (error) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Prompt command_help needs the string argument command/);
      return true;
    });
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("read, grep and preview answer structured content their output schema checks", async () => {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "a.py"), "def total(x):\n    return x\n\nprint(total(1))\n");
  writeFileSync(join(workspace.dir, "b.txt"), "one\ntwo\nthree\n");
  const { client } = await connect(workspace);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.filter((tool) => tool.outputSchema).map((tool) => tool.name),
      ["read", "grep", "preview"],
    );
    // The SDK client checks structuredContent against outputSchema itself.
    const read = await client.callTool({ name: "read", arguments: { path: "b.txt", limit: 2 } });
    assert.deepEqual(read.structuredContent, {
      files: [{ path: "b.txt", tag: read.content[0].text.slice(7, 11), lines: [{ line: 1, text: "one" }, { line: 2, text: "two" }] }],
      next_offset: 3,
      notes: ["[Showing lines 1-2 of 3. Read b.txt 3 to continue]"],
    });
    assert.match(read.content[0].text, /^\[b\.txt#[0-9A-F]{4}\]\n1:one\n2:two\n/);

    const grep = await client.callTool({ name: "grep", arguments: { pattern: "total|three" } });
    assert.deepEqual(grep.structuredContent.files.map((file) => [file.path, file.lines]), [
      ["a.py", [{ line: 1, text: "def total(x):" }, { line: 4, text: "print(total(1))" }]],
      ["b.txt", [{ line: 3, text: "three" }]],
    ]);
    assert.equal(grep.structuredContent.next_offset, null);

    const preview = await client.callTool({
      name: "preview",
      arguments: { operation: "RenameSymbol", target: "total", new_name: "sum_of" },
    });
    assert.deepEqual(preview.structuredContent, {
      summary: "Ok, Preview: Would modify 1 file: a.py",
      files: ["a.py"],
      diff: preview.content[0].text.slice(preview.content[0].text.indexOf("\n") + 1),
    });

    // A Fail is text only, isError true.
    const missing = await client.callTool({ name: "read", arguments: { path: "none.txt" } });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent, undefined);
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("long work sends progress notifications to a request that asked for them", async () => {
  const bin = mkdtempSync(join(tmpdir(), "eddi-slow-black-"));
  writeFileSync(join(bin, "black"), `#!/bin/sh\nsleep ${FORMATTER_SECONDS}\ncat\n`);
  chmodSync(join(bin, "black"), 0o755);
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "slow.py"), "x = 1\n");
  const { client } = await connect(workspace, { ...process.env, PATH: `${bin}:${process.env.PATH}` });
  try {
    const progress = [];
    const result = await client.callTool(
      { name: "eddi", arguments: { text: "Start s\nOpen slow.py\nFormat" } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    assert.deepEqual(result.content, [{ type: "text", text: "Ok\nOk, At 0:0, Length 1\nOk, Already formatted, At 0:0" }]);
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
    for (const update of progress) assert.match(update.message, /^eddi running for \d+ ms$/);
    const values = progress.map((update) => update.progress);
    assert.deepEqual([...values].sort((a, b) => a - b), values, "progress only grows");
    assert.ok(values[0] >= 200, `first progress after 200 ms: ${values[0]}`);
  } finally {
    await client.close();
    workspace.remove();
  }
});

// Call tool with arguments, cancel it at its first progress notification,
// and wait for the work to end: the next call is answered after it (the
// owner thread runs the sender's requests in order). The milliseconds from
// the cancel to that answer.
async function cancelAtFirstProgress(client, name, args) {
  const abort = new AbortController();
  let cancelledAt = 0;
  const cancelled = client.callTool({ name, arguments: args }, undefined, {
    signal: abort.signal,
    onprogress: () => {
      if (cancelledAt) return;
      cancelledAt = Date.now();
      abort.abort("the user pressed cancel");
    },
  });
  await assert.rejects(cancelled, /the user pressed cancel/);
  assert.ok(cancelledAt > 0, "a progress notification came before the cancel");
  const help = await client.callTool({ name: "eddi", arguments: { text: "Help Undo" } });
  assert.equal(help.content[0].text, "Ok: Undo [count] - undo commands");
  return Date.now() - cancelledAt;
}

test("a cancelled refactoring stops and writes nothing; the same one uncancelled writes", async () => {
  const workspace = callersWorkspace(RENAME_FILES, RENAME_USES_PER_FILE);
  const before = snapshot(workspace.dir);
  const { client, stderr } = await connect(workspace);
  const rename = { operation: "RenameSymbol", target: "compute_total", new_name: "grand_total" };
  try {
    const stoppedMs = await cancelAtFirstProgress(client, "refactor", rename);
    assert.deepEqual(snapshot(workspace.dir), before, "the tree is byte-identical");
    assert.match(stderr(), /request \d+ cancelled by the client/);
    console.log(`cancel to the job's end: ${stoppedMs} ms`);

    // Uncancelled, its progress says how many files it has read so far.
    const progress = [];
    const done = await client.callTool({ name: "refactor", arguments: rename }, undefined, {
      onprogress: (update) => progress.push(update.message),
    });
    const counts = progress.map((message) => /^refactor running for \d+ ms(?:, (\d+) files analysed)?$/.exec(message));
    assert.ok(counts.every(Boolean), JSON.stringify(progress));
    const read = counts.filter((match) => match[1] !== undefined).map((match) => Number(match[1]));
    assert.ok(read.length > 0, `no progress named the files analysed: ${JSON.stringify(progress)}`);
    assert.deepEqual([...read].sort((a, b) => a - b), read, "the count only grows");
    assert.deepEqual(done.content, [
      {
        type: "text",
        text: `Ok, Renamed in ${RENAME_FILES + 1} files, ${RENAME_FILES * (RENAME_USES_PER_FILE + 1) + 1} references updated`,
      },
    ]);
    assert.equal(readFileSync(join(workspace.dir, "pkg/core.py"), "utf8"), "def grand_total(x):\n    return x + 1\n");
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("a cancelled script stops at its next statement and writes nothing", async () => {
  // Uncancelled, this script rewrites 4,800 calls: tens of seconds here.
  const workspace = callersWorkspace(SCRIPT_FILES, RENAME_USES_PER_FILE);
  const before = snapshot(workspace.dir);
  const { client } = await connect(workspace);
  try {
    const script = "{ foreach caller of compute_total() replace with compute_total($1, 2) }";
    const stoppedMs = await cancelAtFirstProgress(client, "script", { text: script });
    assert.ok(stoppedMs < SCRIPT_STOP_MAX_MS, `the script ran on for ${stoppedMs} ms after its cancel`);
    assert.deepEqual(snapshot(workspace.dir), before, "the tree is byte-identical");
    console.log(`script: cancel to the job's end: ${stoppedMs} ms`);
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("a bad cancel is said as a log message: notifications get no response", async () => {
  const { responses, workspace } = await rawStdio(
    [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99, reason: "x" } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "loud" } }),
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "error" } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "gone" } }),
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }),
    ],
    6,
  );
  workspace.remove();
  const messages = responses.filter((response) => response.method === "notifications/message");
  assert.deepEqual(messages.map((message) => message.params), [
    {
      level: "warning",
      logger: "eddi",
      data: "notifications/cancelled ignored: no request with id 99 is in progress (it was answered already, or never sent)",
    },
    {
      level: "warning",
      logger: "eddi",
      data: "notifications/cancelled ignored: params.requestId must be the string or number id of a request in progress",
    },
  ]);
  const byId = (id) => responses.find((response) => response.id === id);
  assert.deepEqual(byId(2).error, {
    code: -32602,
    message: "params.level must be one of debug, info, notice, warning, error, critical, alert, emergency",
  });
  assert.deepEqual(byId(3).result, {});
  assert.deepEqual(byId(4).result, {}); // the third cancel was below the level set: not sent
});
