#!/bin/sh
# Build, check, test and package the extension in a build folder.
# Usage: run.sh SOURCE_DIR BUILD_DIR STEP
#   install: the pinned npm packages (npm ci), skipped when the lock file
#            has not changed since the last install
#   check:   type-check with tsc against @types/vscode (strict, no unused)
#   lint:    eslint with typescript-eslint's type-aware rules
#   core:    compile, then run test/core.test.mjs under node ($EDDI_SERVER)
#   package: compile, then vsce package to eddi.vsix and check its files
set -eu
src=$1
dest=$2
step=$3
mkdir -p "$dest"
# The sources again every time: a step runs what the tree holds now.
rm -rf "$dest/src" "$dest/test"
cp -r "$src/src" "$src/test" "$dest/"
cp "$src/package.json" "$src/tsconfig.json" "$src/eslint.config.mjs" "$src/README.md" \
   "$src/.vscodeignore" "$dest/"
cd "$dest"
case $step in
install)
  if [ -d node_modules ] && cmp -s "$src/package-lock.json" package-lock.json; then exit 0; fi
  cp "$src/package-lock.json" .
  npm ci --no-audit --no-fund --loglevel=error
  ;;
check)
  node_modules/.bin/tsc -p . --noEmit
  ;;
lint)
  node_modules/.bin/eslint --max-warnings 0 src test
  ;;
core)
  rm -rf out
  node_modules/.bin/tsc -p .
  node --test test/core.test.mjs
  ;;
package)
  rm -rf out eddi.vsix
  node_modules/.bin/tsc -p .
  node_modules/.bin/vsce package --no-dependencies --skip-license --allow-missing-repository -o eddi.vsix
  python3 "$src/test/check_vsix.py" eddi.vsix
  ;;
*)
  echo "run.sh: unknown step '$step': install, check, lint, core or package" >&2
  exit 2
  ;;
esac
