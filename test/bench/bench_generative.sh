#!/bin/sh
# The generative correctness run over real projects (doc/refactoring.org,
# "Tests"): every Python refactoring, each write judged by the project's own
# tests. Not a test: it takes an hour and needs the projects' sources.
#
#   bench_generative.sh EDDI SOURCES [LIMIT [SEED]]
#
# SOURCES holds the unpacked Debian source packages toolz-0.12.0,
# tabulate-0.9.0 and cachetools-5.3.3 (apt-get source, or the orig
# tarballs); each is made a workspace of its package at the top (cachetools'
# src/ layout copied up) and its tests, run with Debian's python3-pytest.
set -eu
eddi=$1 sources=$2 limit=${3:-15} seed=${4:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3
pytest="$py -m pytest -q -p no:cacheprovider"
mkdir -p "$work/toolz" "$work/tabulate" "$work/cachetools"
cp -r "$sources/toolz-0.12.0/toolz" "$work/toolz/"
cp -r "$sources/tabulate-0.9.0/tabulate" "$sources/tabulate-0.9.0/test" "$work/tabulate/"
cp -r "$sources/cachetools-5.3.3/src/cachetools" "$sources/cachetools-5.3.3/tests" \
   "$work/cachetools/"
exec python3 "$here/refactor/generative.py" "$eddi" --limit "$limit" --seed "$seed" \
  --project "toolz 0.12.0" "$work/toolz" "$pytest toolz/tests --ignore=toolz/tests/test_tlz.py" \
  --project "tabulate 0.9.0" "$work/tabulate" "$pytest test" \
  --project "cachetools 5.3.3" "$work/cachetools" "$pytest tests"
