// The extension's core (out/core.js, compiled from src/core.ts) under node,
// against a real eddi-server: finding the server, the definition VS Code
// spawns, a rename previewed (the texts the diff editor shows) then
// applied, and undone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const core = require(join(here, "..", "out", "core.js"));
const EDDI_SERVER = process.env.EDDI_SERVER;

function tempFolder(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test("findServer: the setting when given, else PATH; a bad setting says what to do", () => {
  const bin = tempFolder("eddi-bin-");
  try {
    const program = join(bin.dir, "eddi-server");
    writeFileSync(program, "#!/bin/sh\n");
    chmodSync(program, 0o755);
    assert.equal(core.findServer(EDDI_SERVER, "/nowhere"), EDDI_SERVER);
    assert.equal(core.findServer("", `/nowhere:${bin.dir}`), program);
    assert.equal(core.findServer(undefined, "/nowhere"), undefined);
    assert.throws(() => core.findServer("eddi-server", bin.dir), {
      message: "eddi.serverPath eddi-server is not an executable file: give the absolute path of eddi-server",
    });
  } finally {
    bin.remove();
  }
});

test("serverDefinition: what the MCP provider hands VS Code", () => {
  assert.deepEqual(core.serverDefinition("/opt/eddi/eddi-server", "/src/shop"), {
    label: "eddi",
    command: "/opt/eddi/eddi-server",
    args: ["--stdio", "--root", "/src/shop"],
  });
});

test("parseDiff and applyPatch: a hunk at the end without a newline, and a stale file refused", () => {
  const diff = "--- a/x.txt\n+++ b/x.txt\n@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file";
  const [patch] = core.parseDiff(diff);
  assert.equal(patch.path, "x.txt");
  assert.equal(core.applyPatch("a\nb\nc", patch), "a\nb\nC");
  assert.throws(() => core.applyPatch("a\nb\nX", patch), { message: "x.txt changed since the preview (line 3): preview again" });
});

test("another refactoring previewed and applied: the diff editor's text is what is written", async () => {
  const workspace = tempFolder("eddi-vscode-");
  const text = "def helper(x):\n    return x + 1\n\n\ndef main():\n    return helper(2) * 3\n";
  writeFileSync(join(workspace.dir, "m.py"), text);
  const eddi = await core.EddiConnection.open(EDDI_SERVER, workspace.dir, ["--no-journal", "--quiet"]);
  try {
    assert.ok(core.REFACTOR_OPERATIONS.includes("InlineFunction"));
    const args = { operation: "InlineFunction", target: "helper" };
    const preview = await core.previewRefactor(eddi, args, (path) => readFile(join(workspace.dir, path), "utf8"));
    assert.deepEqual(preview, {
      summary: "Ok, Preview: Would modify 1 file: m.py",
      files: [{ path: "m.py", before: text, after: "def main():\n    return (2 + 1) * 3\n" }],
    });
    assert.equal(await core.applyRefactor(eddi, args), "Ok, Inlined helper, 1 call replaced, 1 file modified");
    assert.equal(readFileSync(join(workspace.dir, "m.py"), "utf8"), preview.files[0].after);
  } finally {
    eddi.close();
    workspace.remove();
  }
});

test("a rename previewed, applied through eddi's transaction, and undone", async () => {
  const workspace = tempFolder("eddi-vscode-");
  const files = {
    "shop/cart.py": "class Cart:\n    def total(self):\n        return 1\n",
    "main.py": "from shop.cart import Cart\n\nprint(Cart().total())\n",
  };
  mkdirSync(join(workspace.dir, "shop"));
  writeFileSync(join(workspace.dir, "shop/__init__.py"), "");
  for (const [path, text] of Object.entries(files)) writeFileSync(join(workspace.dir, path), text);
  const eddi = await core.EddiConnection.open(EDDI_SERVER, workspace.dir, ["--no-journal", "--quiet"]);
  try {
    assert.equal(await core.sessionLabel(eddi), "eddi: no session");
    // The cursor on `total` in main.py, 0-based line and column, as VS Code counts.
    const target = "main.py:2:13";
    const read = (path) => readFile(join(workspace.dir, path), "utf8");
    const preview = await core.previewRename(eddi, target, "grand_total", read);
    assert.equal(preview.summary, "Ok, Preview: Would modify 2 files: main.py, shop/cart.py");
    assert.deepEqual(preview.files.map((file) => file.path), ["main.py", "shop/cart.py"]);
    for (const file of preview.files) assert.equal(file.before, files[file.path]);
    // Nothing written by the preview.
    for (const [path, text] of Object.entries(files)) assert.equal(readFileSync(join(workspace.dir, path), "utf8"), text);

    assert.equal(await core.applyRename(eddi, target, "grand_total"), "Ok, Renamed in 2 files, 2 references updated");
    // What the diff editor showed is what was written.
    for (const file of preview.files) assert.equal(readFileSync(join(workspace.dir, file.path), "utf8"), file.after);
    assert.equal(readFileSync(join(workspace.dir, "main.py"), "utf8"), "from shop.cart import Cart\n\nprint(Cart().grand_total())\n");
    assert.equal(await core.sessionLabel(eddi), "eddi: stdio");

    assert.equal(await core.undoLast(eddi), "Ok, Undid 1 step, 2 files: main.py, shop/cart.py");
    for (const [path, text] of Object.entries(files)) assert.equal(readFileSync(join(workspace.dir, path), "utf8"), text);

    // eddi's refusal comes back as eddi said it.
    await assert.rejects(core.previewRename(eddi, "no_such_name", "x", read), {
      name: "Error",
      message: 'Fail "No definition of no_such_name found"',
    });
  } finally {
    eddi.close();
    workspace.remove();
  }
});
