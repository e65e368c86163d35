// The embedded default: eddi-server with no transport flags starts its own
// nats-server, prints the URL, serves it, and takes the child down with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { connect, StringCodec } from "nats";
import { EDDI_SERVER, tempWorkspace, waitForLine, exited, sleep } from "./helpers.mjs";

const sc = StringCodec();

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The nats-server children of pid, from /proc.
import { readdirSync, readFileSync } from "node:fs";
function natsChildren(pid) {
  const children = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && stat.includes("(nats-server)")) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

async function startEmbedded(workspace) {
  const child = spawn(EDDI_SERVER, ["--root", workspace.dir, "--quiet"], {
    cwd: workspace.dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.resume();
  const [, url] = await waitForLine(child.stdout, /^eddi-server: NATS at (nats:\/\/127\.0\.0\.1:\d+)$/m, "the URL line");
  return { child, url };
}

test("no flags: a private nats-server, served and stopped on SIGTERM", async () => {
  const workspace = tempWorkspace();
  const { child, url } = await startEmbedded(workspace);
  const nc = await connect({ servers: url });
  try {
    const reply = await nc.request("eddi.cmd", sc.encode("Start e"), { timeout: 3000 });
    assert.match(sc.decode(reply.data), /^Ok, Instance eddi-[0-9a-f]{8}$/);
  } finally {
    await nc.close();
  }
  const [nats] = natsChildren(child.pid);
  assert.ok(nats && alive(nats), "the nats-server child runs");
  child.kill("SIGTERM");
  const { code } = await exited(child);
  assert.equal(code, 0);
  assert.equal(alive(nats), false, "the nats-server child is gone");
  workspace.remove();
});

test("the nats-server child dies with a killed eddi-server", async () => {
  const workspace = tempWorkspace();
  const { child } = await startEmbedded(workspace);
  const [nats] = natsChildren(child.pid);
  assert.ok(nats);
  child.kill("SIGKILL");
  await exited(child);
  for (let i = 0; i < 50 && alive(nats); i++) await sleep(20);
  // A killed parent leaves a zombie until init reaps it: check its state.
  let state = "gone";
  try {
    state = readFileSync(`/proc/${nats}/stat`, "utf8").split(") ")[1][0];
  } catch {}
  assert.ok(state === "gone" || state === "Z", `nats-server state ${state}`);
  workspace.remove();
});
