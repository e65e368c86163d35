#!/bin/sh
# Install the npm clients the integration tests drive eddi-server with
# (nats, @modelcontextprotocol/sdk) and the TypeScript compiler the
# refactoring oracle uses into the build tree, from the lock file.
# Usage: install-npm-clients.sh SOURCE_DIR BUILD_DIR
# Skips the install when the build tree already has this lock file's modules.
set -eu
src=$1
dest=$2
mkdir -p "$dest"
if [ -d "$dest/node_modules" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest"
npm ci --no-audit --no-fund --loglevel=error
