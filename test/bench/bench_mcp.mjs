// MCP over stdio, measured (not a test): how long from spawning
// eddi-server to its tools/list answer (p50, p99), and a read through MCP
// on a running server beside the same read through the eddi CLI, in one
// run. Run from a folder whose node_modules has nothing to offer: it
// speaks raw JSON-RPC lines, so that the figures are the server's.
//   node bench_mcp.mjs EDDI_SERVER EDDI_CLI [SPAWNS] [CALLS]
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [server, cli, spawns = "100", calls = "200"] = process.argv.slice(2);
if (!server || !cli) {
  console.error("usage: node bench_mcp.mjs EDDI_SERVER EDDI_CLI [SPAWNS] [CALLS]");
  process.exit(2);
}
const workspace = mkdtempSync(join(tmpdir(), "eddi-bench-mcp-"));
let text = "";
for (let i = 0; i < 200; i++) text += `def f${i}(x):\n    return x + ${i}\n\n`;
writeFileSync(join(workspace, "a.py"), text);

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (ns) => Number(ns) / 1e6;

// One server: send lines, resolve each response by id.
function start() {
  const child = spawn(server, ["--stdio", "--root", workspace, "--quiet", "--no-journal"], { stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map();
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    for (let newline; (newline = buffered.indexOf("\n")) >= 0; ) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  return { child, ask };
}

const toolsList = [];
for (let i = 0; i < Number(spawns); i++) {
  const began = process.hrtime.bigint();
  const { child, ask } = start();
  await ask(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  await ask(2, "tools/list", {});
  toolsList.push(ms(process.hrtime.bigint() - began));
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
}

const { child, ask } = start();
await ask(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
const mcp = [];
for (let i = 0; i < Number(calls); i++) {
  const began = process.hrtime.bigint();
  const answer = await ask(100 + i, "tools/call", { name: "read", arguments: { path: "a.py" } });
  if (answer.result.isError) throw new Error(JSON.stringify(answer));
  mcp.push(ms(process.hrtime.bigint() - began));
}
child.stdin.end();

const viaCli = [];
for (let i = 0; i < Math.min(Number(calls), 50); i++) {
  const began = process.hrtime.bigint();
  const run = spawnSync(cli, ["--root", workspace, "--no-journal", "--no-lsp", "-c", "Start s", "-c", "Read a.py"]);
  if (run.status !== 0) throw new Error(run.stderr.toString());
  viaCli.push(ms(process.hrtime.bigint() - began));
}
rmSync(workspace, { recursive: true, force: true });

const fixed = (value) => value.toFixed(2);
console.log(`spawn -> tools/list (${toolsList.length} spawns): p50 ${fixed(percentile(toolsList, 50))} ms, p99 ${fixed(percentile(toolsList, 99))} ms`);
console.log(`read of a 600-line file through MCP, running server (${mcp.length} calls): p50 ${fixed(percentile(mcp, 50))} ms`);
console.log(`the same Read through the eddi CLI, one process each (${viaCli.length} runs): p50 ${fixed(percentile(viaCli, 50))} ms`);
console.log(`MCP / CLI: ${fixed(percentile(mcp, 50) / percentile(viaCli, 50))}`);
