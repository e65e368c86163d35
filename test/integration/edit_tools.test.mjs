// The edit-format tools (MCP, through the SDK's own client) and the edit
// methods (raw JSON-RPC lines) of eddi-server --stdio, each against real
// files in a temporary workspace: the file's exact bytes and the exact reply.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EDDI_SERVER, exited, readJsonLines, startEddiServer, tempWorkspace } from "./helpers.mjs";

const APP_PY = 'def greet(name):\n    print("Hello, " + name)\n\ndef main():\n    greet("world")\n';

function writeFiles(dir, files) {
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
}

// An MCP client on eddi-server --stdio over a workspace holding files.
async function withClient(files, body, extraArgs = []) {
  const workspace = tempWorkspace();
  writeFiles(workspace.dir, files);
  const transport = new StdioClientTransport({
    command: EDDI_SERVER,
    args: ["--stdio", "--root", workspace.dir, "--quiet", ...extraArgs],
    stderr: "pipe",
    env: process.env, // XDG_STATE_HOME: state in the tests' own folder (helpers.mjs)
  });
  const client = new Client({ name: "eddi-edit-tools", version: "1.0.0" });
  const read = (path) => readFileSync(join(workspace.dir, path), "utf8");
  const exists = (path) => existsSync(join(workspace.dir, path));
  // A tool's answer as {isError, text}.
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.content.length, 1);
    assert.equal(result.content[0].type, "text");
    return { isError: result.isError, text: result.content[0].text };
  };
  try {
    await client.connect(transport);
    await body({ client, call, read, exists, dir: workspace.dir });
  } finally {
    await client.close();
    workspace.remove();
  }
}

const ok = (text) => ({ isError: false, text });
const fail = (text) => ({ isError: true, text });

test("tools/list shows every edit tool with its schema", async () => {
  await withClient({}, async ({ client }) => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(Object.keys(byName), [
      "eddi", "read", "grep", "edit", "apply_patch", "file_update", "replace", "refactor", "preview",
      "script",
    ]);
    const required = {
      read: ["path"],
      grep: ["pattern"],
      edit: ["patch"],
      apply_patch: ["patch"],
      file_update: ["path", "content"],
      replace: ["file_path"],
      refactor: ["operation", "target"],
      preview: ["operation", "target"],
    };
    for (const [name, keys] of Object.entries(required)) {
      const tool = byName[name];
      assert.equal(tool.inputSchema.type, "object", name);
      assert.deepEqual(tool.inputSchema.required, keys, name);
      assert.equal(tool.inputSchema.additionalProperties, false, name);
      // Written for a model in few tokens.
      assert.ok(tool.description.length > 40 && tool.description.length < 400, name);
    }
    assert.deepEqual(Object.keys(byName.read.inputSchema.properties), ["path", "offset", "limit"]);
    assert.deepEqual(Object.keys(byName.grep.inputSchema.properties), ["pattern", "glob", "offset", "ignore_case"]);
    const replace = byName.replace.inputSchema;
    assert.deepEqual(Object.keys(replace.properties), ["file_path", "old_string", "new_string", "replace_all", "edits"]);
    assert.deepEqual(replace.properties.edits.items.required, ["old_string", "new_string"]);
    assert.deepEqual(Object.keys(byName.refactor.inputSchema.properties), ["operation", "target", "new_name", "unsure", "leave", "delegate", "unchecked"]);
    assert.deepEqual(byName.preview.inputSchema, byName.refactor.inputSchema);
  });
});

test("read, then edit with its tag; a stale tag is refused and the file left alone", async () => {
  await withClient({ "app.py": APP_PY }, async ({ call, read, dir }) => {
    assert.deepEqual(
      await call("read", { path: "app.py" }),
      ok('[app.py#8E95]\n1:def greet(name):\n2:    print("Hello, " + name)\n3:\n4:def main():\n5:    greet("world")'),
    );
    assert.deepEqual(
      await call("read", { path: "app.py", offset: 4, limit: 1 }),
      ok('[app.py#8E95]\n4:def main():\n[Showing lines 4-4 of 5. Read app.py 5 to continue]'),
    );

    assert.deepEqual(
      await call("edit", { patch: '[app.py#8E95]\nPUT 2.=2:\n+    print(f"Hi, {name}")\n' }),
      ok('[app.py#7B6D]\n1:def greet(name):\n2:    print(f"Hi, {name}")\n3:'),
    );
    assert.equal(read("app.py"), APP_PY.replace('print("Hello, " + name)', 'print(f"Hi, {name}")'));

    // Someone else changes line 5, which the next edit anchors on.
    const theirs = read("app.py").replace('greet("world")', 'greet("moon")');
    writeFileSync(join(dir, "app.py"), theirs);
    assert.deepEqual(
      await call("edit", { patch: '[app.py#7B6D]\nPUT 5.=5:\n+    greet("x")\n' }),
      fail(
        'Fail "app.py changed since tag #7B6D and line 5 it anchors on is gone or changed", ' +
          'Nothing was written. Re-read lines 4-5; now: [app.py#BA16]\\n4:def main():\\n5:    greet("moon")',
      ),
    );
    assert.equal(read("app.py"), theirs);

    // A tag never shown for this file.
    assert.deepEqual(
      await call("edit", { patch: "[app.py#0000]\nPUT 1.=1:\n+x\n" }),
      fail(
        'Fail "Tag #0000 for app.py is not from this session, nor the file\'s content now (#BA16)", ' +
          "Read app.py again and use the tag it prints; nothing was written",
      ),
    );
    assert.equal(read("app.py"), theirs);

    // A line added above the edit since the read: every anchored line
    // survived, so the edit moves with it and the reply says so.
    await call("read", { path: "app.py" });
    writeFileSync(join(dir, "app.py"), "import os\n" + theirs);
    assert.deepEqual(
      await call("edit", { patch: "[app.py#BA16]\nPUT 5.=5:\n+    greet(\"you\")\n" }),
      ok(
        '[app.py#E404]\n5:def main():\n6:    greet("you")\n' +
          "Warning: app.py changed since tag #BA16; every anchored line survived, so the edit was " +
          "rebased onto the current file (#C2DF), lines moved by +1.",
      ),
    );
    assert.equal(read("app.py"), "import os\n" + theirs.replace('greet("moon")', 'greet("you")'));
  });
});

// A module and its user, for the rename tools.
const SHOP = {
  "shop/cart.py": "class Cart:\n    def total(self):\n        return 0\n",
  "main.py": "from shop.cart import Cart\n\nprint(Cart().total())\n",
};

test("preview shows the rename's diff and writes nothing; refactor writes it", async () => {
  await withClient(SHOP, async ({ call, read }) => {
    const args = { operation: "RenameSymbol", target: "Cart.total", new_name: "grand_total" };
    assert.deepEqual(await call("preview", args), ok(
        "Ok, Preview: Would modify 2 files: main.py, shop/cart.py\n" +
          "--- a/main.py\n+++ b/main.py\n@@ -1,3 +1,3 @@\n from shop.cart import Cart\n \n" +
          "-print(Cart().total())\n+print(Cart().grand_total())\n" +
          "--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -1,3 +1,3 @@\n class Cart:\n" +
          "-    def total(self):\n+    def grand_total(self):\n         return 0",
      ),);
    assert.equal(read("shop/cart.py"), SHOP["shop/cart.py"]);
    assert.equal(read("main.py"), SHOP["main.py"]);
    assert.deepEqual(await call("refactor", args), ok("Ok, Renamed in 2 files, 2 references updated"));
    assert.equal(read("shop/cart.py"), "class Cart:\n    def grand_total(self):\n        return 0\n");
    assert.equal(read("main.py"), "from shop.cart import Cart\n\nprint(Cart().grand_total())\n");
    await assert.rejects(
      call("refactor", { ...args, new: "x" }),
      /Unknown argument new; this call takes: operation target new_name unsure leave delegate/,
    );
    // Renamed already: the old name is gone.
    assert.deepEqual(await call("refactor", args), fail('Fail "No definition of Cart.total found"'));
  });
});

test("script runs a whole script as one transaction; a failing one writes nothing", async () => {
  await withClient(SHOP, async ({ call, read }) => {
    assert.deepEqual(
      await call("script", { text: '{ foreach caller of Cart() replace with Cart(owner=None) }' }),
      ok("Ok, Script completed: 1 call updated, 1 file changed"),
    );
    assert.equal(read("main.py"), "from shop.cart import Cart\n\nprint(Cart(owner=None).total())\n");
    assert.deepEqual(
      await call("script", { text: '{ foreach file matching "*.py" replace "Cart" with "Bag" foreach caller of nothing() flag "x" }' }),
      fail('Fail "Script line 1:66: No definition of nothing found"'),
    );
    assert.equal(read("shop/cart.py"), SHOP["shop/cart.py"]);
  });
});

test("refactor takes each operation's arguments: a signature, a region, none", async () => {
  const files = {
    "calc.py": "def area(w, h):\n    return w * h\n\n\ndef report():\n    size = area(2, 3)\n    print(size)\n",
  };
  await withClient(files, async ({ call, read }) => {
    assert.deepEqual(
      await call("refactor", { operation: "Signature", target: "area(w, h)", new_name: "area(h, w)" }),
      ok("Ok, Changed signature of area, 1 call updated, 1 file modified"),
    );
    assert.equal(read("calc.py"), files["calc.py"].replace("area(w, h)", "area(h, w)").replace("area(2, 3)", "area(3, 2)"));
    assert.deepEqual(
      await call("refactor", { operation: "Extract_Method", target: "calc.py:6:6", new_name: "show" }),
      ok("Ok, Extracted show(size) from calc.py:6:6, 1 file modified"),
    );
    assert.deepEqual(
      await call("refactor", { operation: "InlineFunction", target: "calc.py:show" }),
      ok("Ok, Inlined calc.py:show, 1 call replaced, 1 file modified"),
    );
    assert.equal(read("calc.py"), files["calc.py"].replace("area(w, h)", "area(h, w)").replace("area(2, 3)", "area(3, 2)"));
    assert.deepEqual(
      await call("preview", { operation: "Split_Class", target: "calc.py:area", new_name: "Part area" }),
      fail('Fail "calc.py:area is not a class"'),
    );
  });
});

test("grep groups hits under tagged headers, and a hit may be edited", async () => {
  const files = { "src/a.c": "int a = 1;\nint b = 2;\n", "src/b.h": "#define A 1\n", "notes.txt": "a = 1\n" };
  await withClient(files, async ({ call, read }) => {
    assert.deepEqual(
      await call("grep", { pattern: "a\\s*=", glob: "src/*" }),
      ok("[src/a.c#81B6]\n1:int a = 1;"),
    );
    assert.deepEqual(
      await call("grep", { pattern: "^#define a", ignore_case: true }),
      ok("[src/b.h#CF7A]\n1:#define A 1"),
    );
    assert.deepEqual(
      await call("edit", { patch: "[src/b.h#CF7A]\nPUT 1.=1:\n+#define A 2\n" }),
      ok("[src/b.h#69C9]\n1:#define A 2"),
    );
    assert.equal(read("src/b.h"), "#define A 2\n");
    assert.deepEqual(
      await call("grep", { pattern: "(unclosed" }),
      fail('Fail "Bad regex at 9: missing closing parenthesis"'),
    );
  });
});

test("apply_patch adds, updates and deletes; a failing hunk changes no file", async () => {
  const files = { "a.txt": "one\ntwo\nthree\n", "b.txt": "alpha\nbeta\n", "old.txt": "bye\n" };
  await withClient(files, async ({ call, read, exists }) => {
    const broken =
      "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: a.txt\n@@\n-two\n+TWO\n" +
      "*** Update File: b.txt\n@@\n-gamma\n+GAMMA\n*** End Patch\n";
    assert.deepEqual(
      await call("apply_patch", { patch: broken }),
      fail(
        'Fail "Failed to find expected lines in b.txt (hunk 3, chunk 1 at patch line 9)", ' +
          "No line of the file resembles them; re-read b.txt",
      ),
    );
    assert.equal(exists("new.txt"), false);
    assert.equal(read("a.txt"), files["a.txt"]);
    assert.equal(read("b.txt"), files["b.txt"]);

    const patch =
      "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n" +
      "*** Delete File: old.txt\n*** End Patch\n";
    assert.deepEqual(
      await call("apply_patch", { patch }),
      ok("A [new.txt#6F43]\nM [a.txt#CFBD]\n1:one\n2:TWO\n3:three\nD old.txt"),
    );
    assert.equal(read("new.txt"), "fresh\n");
    assert.equal(read("a.txt"), "one\nTWO\nthree\n");
    assert.equal(exists("old.txt"), false);
  });
});

test("file_update creates a missing file and applies <change> and SEARCH/REPLACE blocks", async () => {
  await withClient({ "cfg.py": "DEBUG = False\nPORT = 80\n" }, async ({ call, read }) => {
    assert.deepEqual(
      await call("file_update", { path: "pkg/new.py", content: "x = 1\n" }),
      ok("A [pkg/new.py#3DD9]\n1:x = 1"),
    );
    assert.equal(read("pkg/new.py"), "x = 1\n");

    const change = "<change>\n<original>\nDEBUG = False\n</original>\n<modified>\nDEBUG = True\n</modified>\n</change>\n";
    assert.deepEqual(await call("file_update", { path: "cfg.py", content: change }), ok("[cfg.py#2214]\n1:DEBUG = True\n2:PORT = 80"));
    assert.equal(read("cfg.py"), "DEBUG = True\nPORT = 80\n");

    const searchReplace = "<<<<<<< SEARCH\nPORT = 80\n=======\nPORT = 8080\n>>>>>>> REPLACE\n";
    assert.deepEqual(await call("file_update", { path: "cfg.py", content: searchReplace }), ok("[cfg.py#884B]\n1:DEBUG = True\n2:PORT = 8080"));
    assert.equal(read("cfg.py"), "DEBUG = True\nPORT = 8080\n");

    const missing = "<change><original>HOST = 1</original><modified>HOST = 2</modified></change>";
    assert.deepEqual(
      await call("file_update", { path: "cfg.py", content: missing }),
      fail('Fail "Failed to find expected lines in cfg.py (<change> 1)", No line of the file resembles them; re-read cfg.py'),
    );
    assert.equal(read("cfg.py"), "DEBUG = True\nPORT = 8080\n");
  });
});

test("replace: one place, ambiguity refused with the candidates, replace_all, atomic edits[], CRLF kept", async () => {
  const files = { "dup.py": "a = 1\nb = 2\na = 1\n", "win.txt": "first\r\nsecond\r\n", "ind.py": "def f():\n    if x:\n        y = 1\n" };
  await withClient(files, async ({ call, read }) => {
    assert.deepEqual(
      await call("replace", { file_path: "dup.py", old_string: "a = 1", new_string: "a = 9" }),
      fail(
        'Fail "Ambiguous match in dup.py (edit 1): 2 places fit", ' +
          "old_string occurs at lines 1 and 3; quote more context, or set replace_all",
      ),
    );
    assert.equal(read("dup.py"), files["dup.py"]);

    assert.deepEqual(
      await call("replace", { file_path: "dup.py", old_string: "b = 2\na = 1", new_string: "b = 2\na = 3" }),
      ok("[dup.py#3F5E]\n2:b = 2\n3:a = 3"),
    );
    assert.deepEqual(
      await call("replace", { file_path: "dup.py", old_string: "a = ", new_string: "A = ", replace_all: true }),
      ok("[dup.py#B64F]\n1:A = 1\n2:b = 2\n3:A = 3"),
    );
    assert.equal(read("dup.py"), "A = 1\nb = 2\nA = 3\n");

    // The second edit fails: the first is not written either.
    assert.deepEqual(
      await call("replace", {
        file_path: "dup.py",
        edits: [
          { old_string: "b = 2", new_string: "b = 5" },
          { old_string: "c = 7", new_string: "c = 8" },
        ],
      }),
      fail('Fail "Failed to find expected lines in dup.py (edit 2)", No line of the file resembles them; re-read dup.py'),
    );
    assert.equal(read("dup.py"), "A = 1\nb = 2\nA = 3\n");

    // LF payload on a CRLF file: the file stays CRLF.
    assert.deepEqual(
      await call("replace", { file_path: "win.txt", old_string: "second\n", new_string: "second\nthird\n" }),
      ok("[win.txt#991F]\n2:second\n3:third"),
    );
    assert.equal(read("win.txt"), "first\r\nsecond\r\nthird\r\n");

    // Indentation drift: found, and the new text re-indented to fit.
    const drift = await call("replace", {
      file_path: "ind.py",
      old_string: "if x:\n    y = 1",
      new_string: "if x:\n    y = 2\n    z = 3",
    });
    assert.deepEqual(drift, ok("[ind.py#B43D]\n2:    if x:\n3:        y = 2\n4:        z = 3"));
    assert.equal(read("ind.py"), "def f():\n    if x:\n        y = 2\n        z = 3\n");

    // Arguments are checked before the engine runs: a protocol error.
    await assert.rejects(
      call("replace", { path: "dup.py", old_string: "a", new_string: "b" }),
      /Unknown argument path; this call takes: file_path old_string new_string replace_all edits/,
    );
  });
});

// Raw JSON-RPC lines in, one response per request out (matched by id).
async function rpc(files, requests, extraArgs = []) {
  const workspace = tempWorkspace();
  writeFiles(workspace.dir, files);
  const server = await startEddiServer(["--stdio", "--root", workspace.dir, "--quiet", ...extraArgs], {
    waitNats: false,
  });
  const lines = [];
  readJsonLines(server.child.stdout, (line) => lines.push(line));
  // One at a time, so that each request sees the files its predecessors wrote.
  const responses = {};
  for (const [i, [method, params]] of requests.entries()) {
    const before = lines.length;
    server.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i + 1, method, params }) + "\n");
    while (lines.length === before) await new Promise((resolve) => setTimeout(resolve, 2));
    responses[i + 1] = lines[before];
  }
  server.child.stdin.end();
  assert.equal((await exited(server.child)).code, 0);
  const read = (path) => (existsSync(join(workspace.dir, path)) ? readFileSync(join(workspace.dir, path), "utf8") : null);
  const result = { responses, read };
  result.done = () => workspace.remove();
  return result;
}

test("JSON-RPC edit methods: file.update creates a file, each format edits, failures are errors", async () => {
  const { responses: r, read, done } = await rpc({ "m.txt": "one\ntwo\n" }, [
    ["file.update", { path: "made/new.txt", content: "hello\n" }],
    ["edit.read", { path: "m.txt" }],
    ["edit.grep", { pattern: "tw" }],
    ["edit.hashline", { patch: "[m.txt#0127]\nPUT 1.=1:\n+ONE\n" }],
    ["edit.apply_patch", { patch: "*** Begin Patch\n*** Update File: m.txt\n@@\n-two\n+TWO\n*** End Patch\n" }],
    ["edit.search_replace", { path: "m.txt", content: "<<<<<<< SEARCH\nONE\n=======\n1\n>>>>>>> REPLACE\n" }],
    ["edit.replace", { file_path: "m.txt", old_string: "TWO", new_string: "2" }],
    ["edit.replace", { file_path: "m.txt", old_string: "TWO", new_string: "2" }],
    ["edit.replace", { file_path: "m.txt", old_string: "2", new_string: "2" }],
    ["edit.replace", { file_path: "m.txt" }],
    ["file.update", { path: "x.txt", content: "x", sender: 7 }],
  ]);
  try {
    assert.deepEqual(r[1].result, { text: "A [made/new.txt#5BF9]\n1:hello", files: 1, no_change: false });
    assert.equal(read("made/new.txt"), "hello\n");
    assert.deepEqual(r[2].result, { text: "[m.txt#0127]\n1:one\n2:two" });
    assert.deepEqual(r[3].result, { text: "[m.txt#0127]\n2:two" });
    assert.deepEqual(r[4].result, { text: "[m.txt#93E5]\n1:ONE\n2:two", files: 1, no_change: false });
    assert.deepEqual(r[5].result, { text: "M [m.txt#F038]\n1:ONE\n2:TWO", files: 1, no_change: false });
    assert.deepEqual(r[6].result, { text: "[m.txt#CE20]\n1:1\n2:TWO", files: 1, no_change: false });
    assert.deepEqual(r[7].result, { text: "[m.txt#F35E]\n1:1\n2:2", files: 1, no_change: false });
    assert.equal(read("m.txt"), "1\n2\n");
    assert.deepEqual(r[8].error, {
      code: -32000,
      message: 'Fail "Failed to find expected lines in m.txt (edit 1)", No line of the file resembles them; re-read m.txt',
    });
    assert.equal(r[9].result.no_change, true);
    assert.equal(r[9].result.files, 0);
    assert.deepEqual(r[10].error, { code: -32602, message: "Missing argument: old_string" });
    assert.deepEqual(r[11].error, { code: -32602, message: "params.sender must be a string" });
    assert.equal(read("x.txt"), null);
  } finally {
    done();
  }
});

test("JSON-RPC refactor methods: a read-only sender may preview, not rename", async () => {
  const args = { operation: "RenameSymbol", target: "main.py:2:6", new_name: "Basket" };
  const { responses: r, read, done } = await rpc(
    SHOP,
    [
      ["refactor.preview", { ...args, sender: "viewer" }],
      ["refactor.rename", { ...args, sender: "viewer" }],
      ["refactor.rename", args],
      ["refactor.rename", { ...args, unsure: "yes" }],
    ],
    ["--read-only", "viewer"],
  );
  try {
    assert.deepEqual(r[1].result, {
      text:
        "Ok, Preview: Would modify 2 files: main.py, shop/cart.py\n" +
        "--- a/main.py\n+++ b/main.py\n@@ -1,3 +1,3 @@\n-from shop.cart import Cart\n" +
        "+from shop.cart import Basket\n \n-print(Cart().total())\n+print(Basket().total())\n" +
        "--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -1,3 +1,3 @@\n-class Cart:\n+class Basket:\n" +
        "     def total(self):\n         return 0",
    });
    assert.deepEqual(r[2].error, { code: -32000, message: 'Fail "Sender viewer may only read, not run Refactor"' });
    assert.deepEqual(r[3].result, {
      text: "Ok, Renamed in 2 files, 3 references updated",
      files: 2,
      no_change: false,
    });
    assert.deepEqual(r[4].error, { code: -32602, message: "Argument unsure must be true or false" });
    assert.equal(read("main.py"), "from shop.cart import Basket\n\nprint(Basket().total())\n");
    assert.equal(read("shop/cart.py"), "class Basket:\n    def total(self):\n        return 0\n");
  } finally {
    done();
  }
});

test("a read-only sender may read but not edit", async () => {
  const { responses: r, read, done } = await rpc(
    { "m.txt": "one\n" },
    [
      ["edit.read", { path: "m.txt", sender: "viewer" }],
      ["edit.replace", { file_path: "m.txt", old_string: "one", new_string: "1", sender: "viewer" }],
    ],
    ["--read-only", "viewer"],
  );
  try {
    assert.deepEqual(r[1].result, { text: "[m.txt#B686]\n1:one" });
    assert.deepEqual(r[2].error, { code: -32000, message: 'Fail "Sender viewer may only read, not run Replace"' });
    assert.equal(read("m.txt"), "one\n");
  } finally {
    done();
  }
});
