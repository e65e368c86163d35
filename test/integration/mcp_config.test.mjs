// eddi-server mcp-config: each client's entry checked against a JSON Schema
// written from that client's documentation (Codex's TOML read by Python's
// tomllib), run as the client would run it, and merged by --write into a
// file that has other entries without losing them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EDDI_SERVER, tempWorkspace } from "./helpers.mjs";

const strings = { type: "array", items: { type: "string" } };
const stringMap = { type: "object", additionalProperties: { type: "string" } };
// A server entry of the documented keys only: a key a client does not know
// is a mistake eddi must not make.
const entry = (properties, required) => ({
  type: "object",
  properties: { command: { type: "string", minLength: 1 }, args: strings, env: stringMap, ...properties },
  required: ["command", ...required],
  additionalProperties: false,
});
const serversUnder = (key, server, extra = {}) => ({
  type: "object",
  properties: { [key]: { type: "object", additionalProperties: server }, ...extra },
  required: [key],
});

// From each client's documentation of its stdio servers.
const SCHEMAS = {
  // VS Code, .vscode/mcp.json: "servers" by name, each {type: "stdio",
  // command, args, env, envFile}; "inputs" beside them.
  vscode: serversUnder("servers", entry({ type: { const: "stdio" }, envFile: { type: "string" } }, ["type"]), {
    inputs: { type: "array" },
  }),
  // JetBrains AI Assistant's "As JSON": "mcpServers", each {command, args, env}.
  jetbrains: serversUnder("mcpServers", entry({}, [])),
  // Claude Code, .mcp.json: "mcpServers", each {type: "stdio" (the
  // default), command, args, env}.
  claude: serversUnder("mcpServers", entry({ type: { const: "stdio" } }, [])),
  // Cursor, .cursor/mcp.json: "mcpServers", each {command, args, env, envFile}.
  cursor: serversUnder("mcpServers", entry({ envFile: { type: "string" } }, [])),
  // Zed, settings.json: "context_servers", each {command, args, env}.
  zed: serversUnder("context_servers", entry({}, [])),
  // Codex, config.toml: [mcp_servers.NAME] with command, args, env, cwd and
  // its timeouts.
  codex: serversUnder(
    "mcp_servers",
    entry(
      {
        cwd: { type: "string" },
        startup_timeout_sec: { type: "number" },
        tool_timeout_sec: { type: "number" },
        enabled: { type: "boolean" },
      },
      [],
    ),
  ),
};
const FILES = {
  vscode: ".vscode/mcp.json",
  claude: ".mcp.json",
  cursor: ".cursor/mcp.json",
  zed: ".zed/settings.json",
  codex: ".codex/config.toml",
};
const SERVERS_KEY = { vscode: "servers", jetbrains: "mcpServers", claude: "mcpServers", cursor: "mcpServers", zed: "context_servers", codex: "mcp_servers" };

const ajv = new Ajv({ allErrors: true, strict: true });

function mcpConfig(args) {
  const run = spawnSync(EDDI_SERVER, ["mcp-config", ...args], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function readToml(path) {
  const script = "import json, sys, tomllib\nprint(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))";
  return JSON.parse(execFileSync("python3", ["-c", script, path], { encoding: "utf8" }));
}

function tomlText(text) {
  const script = "import json, sys, tomllib\nprint(json.dumps(tomllib.loads(sys.stdin.read())))";
  return JSON.parse(execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" }));
}

const server = realpathSync(EDDI_SERVER);

for (const client of Object.keys(SCHEMAS)) {
  test(`${client}: the printed entry passes the client's schema, with absolute paths`, () => {
    const workspace = tempWorkspace();
    try {
      const run = mcpConfig(["--client", client, "--workspace", workspace.dir]);
      assert.equal(run.status, 0, run.stderr);
      const config = client === "codex" ? tomlText(run.stdout) : JSON.parse(run.stdout);
      const validate = ajv.compile(SCHEMAS[client]);
      assert.ok(validate(config), JSON.stringify(validate.errors));
      const eddi = config[SERVERS_KEY[client]].eddi;
      assert.equal(eddi.command, server);
      assert.deepEqual(eddi.args, ["--stdio", "--root", realpathSync(workspace.dir)]);
      assert.equal(eddi.env, undefined, "no environment the entry depends on");
      assert.match(run.stderr, /^eddi-server mcp-config: for .*, put this in /);
    } finally {
      workspace.remove();
    }
  });
}

test("the entry runs as printed: an MCP client spawns it and reads the workspace's file", async () => {
  const workspace = tempWorkspace();
  writeFileSync(join(workspace.dir, "hello.txt"), "hi\n");
  const { servers } = JSON.parse(mcpConfig(["--client", "vscode", "--workspace", workspace.dir]).stdout);
  // From another folder, with nothing of the terminal's environment but HOME.
  const transport = new StdioClientTransport({
    command: servers.eddi.command,
    args: [...servers.eddi.args, "--no-journal"],
    cwd: "/",
    env: { HOME: process.env.HOME, XDG_STATE_HOME: process.env.XDG_STATE_HOME ?? "" },
    stderr: "pipe",
  });
  const client = new Client({ name: "config-check", version: "1.0.0" });
  try {
    await client.connect(transport);
    const read = await client.callTool({ name: "read", arguments: { path: "hello.txt" } });
    assert.deepEqual(read.structuredContent.files[0].lines, [{ line: 1, text: "hi" }]);
  } finally {
    await client.close();
    workspace.remove();
  }
});

test("--write merges into a JSON file and keeps its other entries and its mode", () => {
  const workspace = tempWorkspace();
  try {
    mkdirSync(join(workspace.dir, ".vscode"));
    const path = join(workspace.dir, ".vscode/mcp.json");
    const other = { type: "stdio", command: "/usr/bin/other", args: ["x"], envFile: "${workspaceFolder}/.env" };
    const inputs = [{ type: "promptString", id: "key", description: "API key", password: true }];
    writeFileSync(path, JSON.stringify({ inputs, servers: { other, eddi: { type: "stdio", command: "old" } } }));
    chmodSync(path, 0o600);
    const run = mcpConfig(["--client", "vscode", "--workspace", workspace.dir, "--write"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `eddi-server mcp-config: wrote ${realpathSync(workspace.dir)}/.vscode/mcp.json (merged eddi; 1 other server kept)\n`);
    const written = JSON.parse(readFileSync(path, "utf8"));
    assert.deepEqual(written, {
      inputs,
      servers: { other, eddi: { type: "stdio", command: server, args: ["--stdio", "--root", realpathSync(workspace.dir)] } },
    });
    assert.ok(ajv.compile(SCHEMAS.vscode)(written));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    // Again: the same bytes.
    const once = readFileSync(path, "utf8");
    assert.equal(mcpConfig(["--client", "vscode", "--workspace", workspace.dir, "--write"]).status, 0);
    assert.equal(readFileSync(path, "utf8"), once);

    // A new file, and its folder, for a client that has none yet.
    const made = mcpConfig(["--client", "cursor", "--workspace", workspace.dir, "--write"]);
    assert.equal(made.stdout, `eddi-server mcp-config: wrote ${realpathSync(workspace.dir)}/.cursor/mcp.json (new, with eddi; 0 other servers kept)\n`);
    assert.ok(ajv.compile(SCHEMAS.cursor)(JSON.parse(readFileSync(join(workspace.dir, FILES.cursor), "utf8"))));
  } finally {
    workspace.remove();
  }
});

test("--write refuses a file it cannot merge safely, and leaves it as it was", () => {
  const workspace = tempWorkspace();
  const dir = realpathSync(workspace.dir);
  const refusals = [
    [
      "zed",
      '{\n  // my fonts\n  "buffer_font_size": 15\n}\n',
      `eddi-server mcp-config: ${dir}/.zed/settings.json is not strict JSON (quoted object property name expected): eddi rewrites only a file it can read whole, and would lose what it cannot (comments, trailing commas); add the printed entry by hand\n`,
    ],
    ["claude", '{"mcpServers": []}', `eddi-server mcp-config: ${dir}/.mcp.json: "mcpServers" is not an object of servers by name; fix it first\n`],
    ["cursor", "[1, 2]", `eddi-server mcp-config: ${dir}/.cursor/mcp.json holds JSON that is not an object: not Cursor's file; fix or move it\n`],
    [
      "codex",
      "notes = '''\n[mcp_servers.eddi]\n'''\n",
      `eddi-server mcp-config: ${dir}/.codex/config.toml has multi-line strings: eddi merges TOML table by table and cannot tell a table from a string's line there; add the printed table by hand\n`,
    ],
  ];
  try {
    for (const [client, text, message] of refusals) {
      const path = join(workspace.dir, FILES[client]);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, text);
      const run = mcpConfig(["--client", client, "--workspace", workspace.dir, "--write"]);
      assert.equal(run.status, 1, client);
      assert.equal(run.stderr, message);
      assert.equal(readFileSync(path, "utf8"), text, `${client}: the file is unchanged`);
    }
    writeFileSync(join(workspace.dir, FILES.codex), '[mcp_servers]\neddi = { command = "x" }\n');
    const inline = mcpConfig(["--client", "codex", "--workspace", workspace.dir, "--write"]);
    assert.equal(inline.stderr, `eddi-server mcp-config: ${dir}/.codex/config.toml sets mcp_servers.eddi with dotted keys or an inline table: eddi replaces only its own [mcp_servers.eddi] table; edit it by hand\n`);

    const jetbrains = mcpConfig(["--client", "jetbrains", "--workspace", workspace.dir, "--write"]);
    assert.equal(jetbrains.status, 1);
    assert.equal(
      jetbrains.stderr,
      "eddi-server mcp-config: JetBrains AI Assistant keeps its servers in its own settings, not in a file of the workspace: run without --write and paste the entry into Settings | Tools | AI Assistant | Model Context Protocol (MCP): Add, As JSON\n",
    );
    assert.deepEqual(mcpConfig(["--client", "emacs"]), {
      status: 1,
      stdout: "",
      stderr: "eddi-server mcp-config: unknown client 'emacs': the clients are vscode, jetbrains, claude, codex, cursor, zed\n",
    });
    assert.equal(mcpConfig([]).stderr, "eddi-server mcp-config: --client is missing: vscode, jetbrains, claude, codex, cursor or zed\n");
    assert.equal(mcpConfig(["--client", "zed", "--wirte"]).stderr, "eddi-server mcp-config: unknown or incomplete argument '--wirte' (see --help)\n");
    const help = mcpConfig(["--help"]);
    assert.equal(help.status, 0);
    assert.ok(help.stdout.startsWith("usage: eddi-server mcp-config --client vscode|jetbrains|claude|codex|cursor|zed [--workspace DIR] [--write]\n"), help.stdout);
    assert.equal(mcpConfig(["--client", "zed", "--workspace", join(workspace.dir, "none")]).stderr, `eddi-server mcp-config: --workspace ${join(workspace.dir, "none")}: No such file or directory\n`);
  } finally {
    workspace.remove();
  }
});

test("--write replaces Codex's eddi table in place and keeps every other table", () => {
  const workspace = tempWorkspace();
  try {
    mkdirSync(join(workspace.dir, ".codex"));
    const path = join(workspace.dir, FILES.codex);
    writeFileSync(
      path,
      'model = "o3"  # mine\n\n[mcp_servers.other]\ncommand = "/bin/other"\nargs = ["a"]\n\n' +
        '[mcp_servers.eddi]\ncommand = "old"\n\n[mcp_servers.eddi.env]\nA = "1"\n\n[profiles.fast]\nmodel = "mini"\n',
    );
    const run = mcpConfig(["--client", "codex", "--workspace", workspace.dir, "--write"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\(merged eddi; 1 other server kept\)\n$/);
    const config = readToml(path);
    assert.ok(ajv.compile(SCHEMAS.codex)(config));
    assert.deepEqual(config, {
      model: "o3",
      mcp_servers: {
        other: { command: "/bin/other", args: ["a"] },
        eddi: { command: server, args: ["--stdio", "--root", realpathSync(workspace.dir)] },
      },
      profiles: { fast: { model: "mini" } },
    });
    // The lines eddi does not own are as they were, comment included.
    assert.ok(readFileSync(path, "utf8").startsWith('model = "o3"  # mine\n\n[mcp_servers.other]\n'));
  } finally {
    workspace.remove();
  }
});
