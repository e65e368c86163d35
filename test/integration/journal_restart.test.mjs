// Sessions survive restarts: eddi-server stopped with SIGTERM or killed
// with -9 while a session holds unsaved edits and bookmarks, the eddi CLI
// across processes, a file changed on disk between the runs, and
// --no-journal that keeps today's memory-only behaviour; the multi-file
// Undo history across CLI processes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempWorkspace } from "./helpers.mjs";
import { stdioServer } from "./journal_helpers.mjs";

function fixture(t) {
  const workspace = tempWorkspace();
  const state = mkdtempSync(join(tmpdir(), "eddi-journal-state-"));
  t.after(() => {
    workspace.remove();
    rmSync(state, { recursive: true, force: true });
  });
  writeFileSync(join(workspace.dir, "a.txt"), "one\ntwo\nthree\n");
  return { root: workspace.dir, state };
}

for (const signal of ["SIGTERM", "SIGKILL"]) {
  test(`a session with unsaved edits and a bookmark survives ${signal}`, async (t) => {
    const { root, state } = fixture(t);
    let eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok");
    assert.equal(await eddi.send('Open a.txt\nInsert Line "zero"\nBookmark m 2:0'),
                 "Ok, At 0:0, Length 3\nOk, Inserted 1 line at 0, At 1:0\nOk, Bookmark m at 2:0");
    await eddi.stop(signal);
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Status"), "Ok: Session s, File a.txt, At 1:0, Length 4, Modified");
    assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 1 file open, 1 unsaved edit re-applied, 1 bookmark");
    assert.equal(await eddi.send("Goto Bookmark m"), "Ok, At 2:0");
    assert.equal(await eddi.send("Save\nClose\nEnd"), "Ok, Bytes 19\nOk\nOk, Session ended");
    await eddi.stop();
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "zero\none\ntwo\nthree\n");
    // End removed it from the journal.
    eddi = await stdioServer(root, state);
    assert.match(await eddi.send("Status"), /^Fail "No session exists/);
    await eddi.stop();
  });
}

test("a file changed on disk between the runs: the unsaved edit is rebased", async (t) => {
  const { root, state } = fixture(t);
  let eddi = await stdioServer(root, state);
  await eddi.send('Start s\nOpen a.txt\nInsert Line "zero"');
  await eddi.stop("SIGKILL");
  writeFileSync(join(root, "a.txt"), "one\ntwo\nTHREE\n");
  eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Start s"),
               "Ok, Session s resumed, 1 file open, 1 unsaved edit re-applied; a.txt changed on disk: 1 unsaved edits rebased onto it");
  await eddi.send("Save");
  await eddi.stop();
  assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "zero\none\ntwo\nTHREE\n");
});

test("--no-journal keeps sessions in memory only", async (t) => {
  const { root, state } = fixture(t);
  let eddi = await stdioServer(root, state, ["--no-journal"]);
  await eddi.send('Start s\nOpen a.txt\nInsert Line "zero"');
  await eddi.stop("SIGKILL");
  eddi = await stdioServer(root, state, ["--no-journal"]);
  assert.match(await eddi.send("Status"), /^Fail "No session exists/);
  await eddi.stop();
});

test("the eddi CLI finds its session again in the next process", (t) => {
  const { root, state } = fixture(t);
  const cli = (...commands) =>
    execFileSync(process.env.EDDI_CLI, ["--root", root, "--state", state, ...commands.flatMap((c) => ["-c", c])], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  assert.equal(cli("Start s", "Open a.txt", 'Insert Line "zero"'), "Ok\nOk, At 0:0, Length 3\nOk, Inserted 1 line at 0, At 1:0\n");
  assert.equal(cli("Status"), "Ok: Session s, File a.txt, At 1:0, Length 4, Modified\n");
  assert.equal(cli("Start s"), "Ok, Session s resumed, 1 file open, 1 unsaved edit re-applied\n");
  assert.equal(cli("Goto 0:0", 'Insert Line "minus"', "Save", "Close", "End"),
               "Ok, At 0:0\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 25\nOk\nOk, Session ended\n");
  assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "minus\nzero\none\ntwo\nthree\n");
});

// Changesets belong to the session: one collected and one applied survive
// the restart; apply after it writes the first, rollback puts back the
// second's exact bytes, and a third whose file changed in between is
// refused with the file.
for (const signal of ["SIGTERM", "SIGKILL"]) {
  test(`changesets survive ${signal}: preview, apply, rollback, refused when changed`, async (t) => {
    const { root, state } = fixture(t);
    const before = { "a.py": "import old\r\nold.run()\r\n", "b.py": "old = 1\n", "c.py": "old = 2\n" };
    for (const [name, text] of Object.entries(before)) writeFileSync(join(root, name), text);
    const collect = (name) => `{ foreach file matching "${name}.py" replace "old" with "new" collect changes as "${name}" }`;
    let eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok");
    for (const name of ["a", "b", "c"])
      assert.equal(await eddi.send(collect(name)), `Ok, Migration prepared: 1 file affected, use 'apply changeset ${name}'`);
    assert.equal(await eddi.send("apply changeset b"), "Ok, Applied changeset b: 1 file");
    await eddi.stop(signal);
    writeFileSync(join(root, "c.py"), "old = 3\n");
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("Start s"), "Ok, Session s resumed, 0 files open, 3 changesets");
    assert.equal(await eddi.send("Preview changeset a"), "Ok, Changeset a (collected): 1 file: a.py +2 -2");
    assert.equal(await eddi.send("Preview changeset b"), "Ok, Changeset b (applied): 1 file: b.py +1 -1");
    assert.equal(await eddi.send("apply changeset c"),
                 'Fail "Changeset c: 1 file changed since it was collected: c.py", Run the script again to collect it anew');
    assert.equal(await eddi.send("apply changeset a"), "Ok, Applied changeset a: 1 file");
    assert.equal(await eddi.send("rollback changeset b"), "Ok, Rolled back changeset b: 1 file");
    await eddi.stop(signal);
    assert.equal(readFileSync(join(root, "a.py"), "utf8"), "import new\r\nnew.run()\r\n");
    assert.equal(readFileSync(join(root, "b.py"), "utf8"), before["b.py"]);
    assert.equal(readFileSync(join(root, "c.py"), "utf8"), "old = 3\n");
    // Applied after the restart, rolled back after another.
    eddi = await stdioServer(root, state);
    assert.equal(await eddi.send("rollback changeset a"), "Ok, Rolled back changeset a: 1 file");
    await eddi.stop();
    assert.equal(readFileSync(join(root, "a.py"), "utf8"), before["a.py"]);
  });
}

// The multi-file Undo history is the session's too: an agent framework
// runs the eddi CLI once per tool call, so the Patch of one call is
// undone by the next call's Undo, exactly (CRLF kept, the added file
// removed), redone by the one after, and refused, naming the file, when
// someone changed a file in between.
test("the eddi CLI undoes a multi-file Patch of the previous process", (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "b.txt"), "bee\r\nsee\r\n");
  const cli = (...commands) =>
    execFileSync(process.env.EDDI_CLI, ["--root", root, "--state", state, ...commands.flatMap((c) => ["-c", c])], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  const patch = "Patch\n*** Begin Patch\n*** Update File: b.txt\n@@\n-see\n+sea\n*** Add File: c.txt\n+new\n*** End Patch";
  assert.equal(cli("Start s", patch), "Ok\nOk: M [b.txt#F6D2]\\n1:bee\\n2:sea\\nA [c.txt#BB9E]\n");
  assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "bee\r\nsea\r\n");
  assert.equal(cli("Undo"), "Ok, Undid 1 step, 2 files: b.txt, c.txt\n");
  assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "bee\r\nsee\r\n");
  assert.equal(existsSync(join(root, "c.txt")), false);
  assert.equal(cli("Redo"), "Ok, Redid 1 step, 2 files: b.txt, c.txt\n");
  assert.equal(readFileSync(join(root, "c.txt"), "utf8"), "new\n");
  writeFileSync(join(root, "c.txt"), "someone else\n");
  // A Fail reply makes the CLI exit non-zero: its stdout is the reply.
  const failing = (command) => {
    try {
      cli(command);
    } catch (error) {
      return error.stdout;
    }
    assert.fail(`${command} did not fail`);
  };
  assert.equal(failing("Undo"),
               'Fail "Undo: 1 file changed since: c.txt; nothing put back", Those files were edited after the change: eddi does not overwrite them\n');
  assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "bee\r\nsea\r\n");
  assert.equal(cli("End"), "Ok, Session ended\n");
});

// eddi-server killed with -9 right after a multi-file Patch: the restarted
// server's Undo takes the Patch back in both files.
test("a multi-file Patch is undone after eddi-server was killed", async (t) => {
  const { root, state } = fixture(t);
  writeFileSync(join(root, "b.txt"), "bee\n");
  let eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Start s"), "Ok");
  assert.equal(await eddi.send("Patch\n*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** Delete File: b.txt\n*** End Patch"),
               "Ok: M [a.txt#CFBD]\\n1:one\\n2:TWO\\n3:three\\nD b.txt");
  await eddi.stop("SIGKILL");
  eddi = await stdioServer(root, state);
  assert.equal(await eddi.send("Undo"), "Ok, Undid 1 step, 2 files: a.txt, b.txt");
  await eddi.stop();
  assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
  assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "bee\n");
});
