#!/bin/sh
# Build the web interface's page (doc/web.org) into BUILD_DIR/dist from the
# npm packages of the lock file, installed into BUILD_DIR, never at run
# time; the browser tests run from BUILD_DIR too, beside those packages.
# Usage: build-assets.sh SOURCE_DIR BUILD_DIR
# Skips the install when BUILD_DIR already has this lock file's modules.
set -eu
src=$1
dest=$2
mkdir -p "$dest"
if ! { [ -d "$dest/node_modules" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; }; then
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
fi
rm -rf "$dest/src"
cp -r "$src/src" "$dest/src"
cp "$src/build.mjs" "$dest/"
cp "$src"/test/*.mjs "$dest/"
node "$dest/build.mjs" "$dest/dist"
