// A bad --web (or a web setting without it) fails with a message saying
// what is wrong, and changes nothing: no state folder, no file in the
// workspace, no process left, the port it could not have still free.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { EDDI_SERVER, tempDir } from "./web_helpers.mjs";

// Run eddi-server with args over a workspace holding one file; it must
// fail at once, leaving the workspace as it was and no state folder.
function refused(args) {
  const root = tempDir("eddi-web-bad-");
  writeFileSync(join(root, "a.txt"), "a\n");
  const state = join(tempDir("eddi-web-bad-state-"), "state");
  const run = spawnSync(EDDI_SERVER, ["--root", root, "--state", state, ...args], {
    encoding: "utf8", timeout: 10000,
  });
  assert.equal(run.status, 1, `exit status of ${args.join(" ")}: ${run.stderr}`);
  assert.equal(run.stdout, "");
  assert.deepEqual(readdirSync(root), ["a.txt"]);
  assert.equal(existsSync(state), false, "no state folder made");
  return run.stderr;
}

const editor = ["--web-editor", "alice"];

test("addresses that are not HOST:PORT", () => {
  const cases = [
    ["nonsense", "give HOST:PORT, such as 127.0.0.1:0"],
    ["127.0.0.1", "give HOST:PORT, such as 127.0.0.1:0"],
    ["127.0.0.1:", "give HOST:PORT, such as 127.0.0.1:0"],
    [":8080", "give HOST:PORT, such as 127.0.0.1:0"],
    ["127.0.0.1:70000", "the port is a number from 0 to 65535"],
    ["127.0.0.1:-1", "the port is a number from 0 to 65535"],
    ["127.0.0.1:80x", "the port is a number from 0 to 65535"],
    ["127.0.0.1: 80", "the port is a number from 0 to 65535"],
    ["300.1.2.3:80", "the host is an IPv4 address such as 127.0.0.1"],
    ["example.com:80", "the host is an IPv4 address such as 127.0.0.1"],
  ];
  for (const [address, why] of cases)
    assert.equal(refused(["--web", address, ...editor]), `eddi-server: --web '${address}': ${why}\n`);
});

test("an address in use, or off loopback", async () => {
  const taken = createServer();
  await new Promise((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const address = `127.0.0.1:${taken.address().port}`;
  try {
    assert.equal(refused(["--web", address, ...editor]),
      `eddi-server: --web '${address}': cannot listen there: Address already in use\n`);
  } finally {
    taken.close();
  }
  assert.equal(refused(["--web", "0.0.0.0:0", ...editor]),
    "eddi-server: --web '0.0.0.0:0': the embedded nats-server's WebSocket is on loopback only, " +
    "so the page is too: give 127.0.0.1:PORT (doc/web.org: other hosts)\n");
});

test("web settings that do not go together", () => {
  const cases = [
    [["--web", "127.0.0.1:0"], "--web needs at least one --web-editor or --web-viewer USER"],
    [editor, "--web-editor/--web-viewer needs --web HOST:PORT"],
    [["--web-assets", "x"], "--web-assets needs --web HOST:PORT"],
    [["--web", "127.0.0.1:0", "--web-editor", "a.b"],
      "--web-editor 'a.b': a user is 1-64 letters, digits, '-' or '_'"],
    [["--web", "127.0.0.1:0", "--web-viewer", "eddi"],
      "--web-viewer 'eddi': that name is the embedded server's own"],
    [["--web", "127.0.0.1:0", "--web-editor", "bo", "--web-viewer", "bo"],
      "'bo' is given as both --web-editor and --web-viewer"],
    [["--web", "127.0.0.1:0", "--nats", "nats://127.0.0.1:1"],
      "--web with --nats needs --web-websocket URL: the nats-server's WebSocket listener"],
    [["--web", "127.0.0.1:0", "--web-websocket", "ws://127.0.0.1:1", ...editor],
      "--web-websocket is for --nats; the embedded server makes its own"],
    [["--web", "127.0.0.1:0", "--stdio", ...editor],
      "--web needs NATS (--nats, or the embedded default), not --stdio alone"],
  ];
  for (const [args, why] of cases) assert.equal(refused(args), `eddi-server: ${why}\n`);
});

test("the page not built: --web says what to run", () => {
  const empty = tempDir("eddi-web-noassets-");
  mkdirSync(join(empty, "dist"));
  const dist = join(empty, "dist");
  assert.equal(refused(["--web", "127.0.0.1:0", ...editor, "--web-assets", dist]),
    `eddi-server: --web: the web interface is not built (no index.html in ${dist}): run ` +
    "`cmake --build BUILD --target web-assets` (needs npm), or give --web-assets DIR\n");
});
