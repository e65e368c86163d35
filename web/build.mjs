// Bundle the page: src/main.js with its npm packages into one app.js, and
// the static files beside it. Usage: node build.mjs OUT_DIR
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "dist");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, "src/main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: join(out, "app.js"),
  // tweetnacl (in nats.ws) asks for node's crypto only where there is no window.crypto.
  external: ["crypto"],
  logLevel: "warning",
});
for (const name of ["index.html", "app.css"]) copyFileSync(join(here, "src", name), join(out, name));
