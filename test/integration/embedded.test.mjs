// The embedded default: eddi-server with no transport flags starts its own
// nats-server, prints the URL, serves it, and takes the child down with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { connect, StringCodec } from "nats";
import { join } from "node:path";
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
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

// The embedded default in a state folder of the test's: it prints the URL,
// then where the client credentials are.
async function startEmbedded(workspace, state = join(workspace.dir, ".state")) {
  const child = spawn(EDDI_SERVER, ["--root", workspace.dir, "--quiet", "--state", state], {
    cwd: workspace.dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr.resume();
  const lines = waitForLine(child.stdout,
    /^eddi-server: NATS at (nats:\/\/127\.0\.0\.1:\d+)\neddi-server: credentials in (.*)$/m, "the URL lines");
  const [, url, credentials] = await lines;
  return { child, url, credentials, state };
}

// The user and password a client connects with, as eddi --nats reads them.
function clientOptions(credentials, url) {
  const { url: for_url, user, password } = JSON.parse(readFileSync(credentials, "utf8"));
  assert.equal(for_url, url);
  return { servers: url, user, pass: password };
}

test("no flags: a private nats-server, served and stopped on SIGTERM", async () => {
  const workspace = tempWorkspace();
  const { child, url, credentials, state } = await startEmbedded(workspace);
  assert.equal(credentials, join(state, "nats-client.json"));
  assert.equal(statSync(credentials).mode & 0o777, 0o600);
  assert.equal(statSync(join(state, "nats-instance.json")).mode & 0o777, 0o600);
  // The users' config is gone once nats-server has read it.
  assert.equal(existsSync(join(state, "nats-server.conf")), false);
  const nc = await connect(clientOptions(credentials, url));
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
  // The credentials die with the server they open.
  for (const name of ["nats-client.json", "nats-instance.json", "nats-server.conf"])
    assert.equal(existsSync(join(state, name)), false, name);
  workspace.remove();
});

// Before: anyone on the machine could connect to 127.0.0.1:PORT and drive
// eddi. Now nats-server itself refuses a client without the credentials.
test("a client without the credentials is refused by nats-server", async () => {
  const workspace = tempWorkspace();
  const { child, url, credentials } = await startEmbedded(workspace);
  try {
    await assert.rejects(connect({ servers: url, reconnect: false }), /Authorization Violation/i);
    const wrong = { ...clientOptions(credentials, url), pass: "guess", reconnect: false };
    await assert.rejects(connect(wrong), /Authorization Violation/i);
  } finally {
    child.kill("SIGTERM");
    await exited(child);
    workspace.remove();
  }
});

// Only instances announce sessions: the client user may request eddi's
// subjects, but nats-server refuses it publishing a session event,
// answering a session sync, or taking eddi's requests.
test("the client user cannot forge session events or serve eddi.cmd", async () => {
  const workspace = tempWorkspace();
  const { child, url, credentials } = await startEmbedded(workspace);
  const errors = [];
  const nc = await connect(clientOptions(credentials, url));
  (async () => {
    for await (const status of nc.status())
      if (status.type === "error" && status.permissionContext)
        errors.push(`${status.permissionContext.operation} ${status.permissionContext.subject}`);
  })();
  try {
    nc.publish("eddi.session.events", sc.encode(JSON.stringify(
      { event: "started", session: "victim", sender: "anonymous", instance: "forged" })));
    nc.subscribe("eddi.cmd", { queue: "eddi" });
    nc.subscribe("eddi.session.sync");
    await nc.flush();
    for (let i = 0; i < 50 && errors.length < 3; i++) await sleep(20);
    // nats-server's own refusals, as the client reports them.
    assert.deepEqual(errors.sort(), ["publish eddi.session.events", "subscription eddi.cmd",
                                     "subscription eddi.session.sync"]);
    // The forged event did not reach eddi: the anonymous sender is not
    // told that its session lives on "forged".
    const reply = await nc.request("eddi.cmd", sc.encode("Start victim"), { timeout: 3000 });
    assert.match(sc.decode(reply.data), /^Ok, Instance eddi-[0-9a-f]{8}$/);
  } finally {
    await nc.close();
    child.kill("SIGTERM");
    await exited(child);
    workspace.remove();
  }
});

// eddi --nats finds the client credentials in the workspace's state
// folder, and sends them only to the URL they name.
test("eddi --nats uses the credentials the embedded default left", async () => {
  const workspace = tempWorkspace();
  const { child, url, credentials, state } = await startEmbedded(workspace);
  const cli = (...args) => spawnSync(process.env.EDDI_CLI, ["--nats", url, ...args], { encoding: "utf8" });
  try {
    const found = cli("--state", state, "-c", "Start c", "-c", "Status");
    assert.equal(found.stderr, "");
    assert.match(found.stdout, /^Ok, Instance eddi-[0-9a-f]{8}\nOk: Session c, No file\n$/);
    const none = cli("--state", join(workspace.dir, "elsewhere"), "-c", "Status");
    assert.equal(none.stderr, `eddi: cannot connect to ${url}: Authorization Violation\n`);
    const other = spawnSync(process.env.EDDI_CLI, ["--nats", "nats://127.0.0.1:1", "--credentials", credentials,
                                                   "-c", "Status"], { encoding: "utf8" });
    assert.equal(other.stderr, `eddi: credentials ${credentials} are for ${url}, not nats://127.0.0.1:1\n`);
  } finally {
    child.kill("SIGTERM");
    await exited(child);
    workspace.remove();
  }
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
