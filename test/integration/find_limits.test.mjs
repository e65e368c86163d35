// A Find (and a Grep) over one 5 MB line: /q{3000}x/ tries 3,000 characters at each of
// five million starts, under PCRE2's match limit, for most of a minute. It
// runs on a worker, so another sender is answered meanwhile, and gives up
// at the server's time limit, which its Fail names.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "nats";
import { askNats, natsAndEddi } from "./helpers.mjs";

const REQUEST_TIMEOUT_MS = 20000;
const SLOW_FAIL = 'Fail "Search took longer than 1 s (search_timeout_ms)", ' +
  "Narrow the pattern (anchor it, bound its repeats) or search less text";

let setup, nc;

before(async () => {
  setup = await natsAndEddi(["--name", "alpha", "--search-timeout-ms", "1000"], connect);
  ({ nc } = setup);
  writeFileSync(join(setup.workspace.dir, "long.txt"), "q".repeat(5_000_000) + "\n");
  writeFileSync(join(setup.workspace.dir, "short.txt"), "q".repeat(1_000_000) + "\n");
  assert.equal(await ask("ann", "Start a\nOpen long.txt"), "Ok, Instance alpha\nOk, At 0:0, Length 1");
  assert.equal(await ask("bob", "Start b"), "Ok, Instance alpha");
});

after(() => setup.stop());

const ask = (sender, text) => askNats(nc, sender, text, REQUEST_TIMEOUT_MS);

test("a slow Find fails at the time limit and another sender is answered meanwhile", async () => {
  const started = Date.now();
  const find = ask("ann", "Find /q{3000}x/");
  await new Promise((resolve) => setTimeout(resolve, 100));
  const asked = Date.now();
  assert.equal(await ask("bob", "Status"), "Ok: Session b, No file");
  const waited = Date.now() - asked;
  assert.ok(waited < 1000, `Status waited ${waited} ms`);
  assert.equal(await find, SLOW_FAIL);
  assert.ok(Date.now() - started < 5000, `Find took ${Date.now() - started} ms`);
  // The Find changed nothing: the cursor is where it was.
  assert.equal(await ask("ann", "Status"), "Ok: Session a, File long.txt, At 0:0, Length 1");
});

// Below the size that goes to a worker, the owner thread keeps the limit.
test("Find All and Replace on a shorter text keep the time limit", async () => {
  assert.equal(await ask("bob", "Open short.txt"), "Ok, At 0:0, Length 1");
  assert.equal(await ask("bob", "Find /q{10000}x/ All"), SLOW_FAIL);
  assert.equal(await ask("bob", 'Replace /q{10000}x/ "y" All'), SLOW_FAIL);
  assert.equal(await ask("bob", "Find /qqx|q$/"), "Ok, At 0:999999");
});

// Grep was already on a worker, and took 26.8 s.
test("Grep stops at the time limit too", async () => {
  const started = Date.now();
  assert.equal(await ask("bob", "Grep /q{3000}x/ long.txt"), SLOW_FAIL);
  assert.ok(Date.now() - started < 5000, `Grep took ${Date.now() - started} ms`);
});
