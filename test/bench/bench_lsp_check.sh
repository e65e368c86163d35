#!/bin/sh
# The second opinion's cost (doc/lsp.org): a rename across a real package
# (Debian's python3-pygments, copied) with the language server's check
# against the same rename with --no-lsp, whole eddi processes, medians of
# ROUNDS interleaved runs. "cold" is one process (pyright starts for it);
# "warm" is the second of two renames in one process (the first renames
# back), taken as the difference between two processes' times.
#
#   bench_lsp_check.sh EDDI [OLD NEW [ROUNDS]]
#
# pyright-langserver must be on PATH (the build tree's npm clients:
# build/server/integration-tests/node_modules/.bin).
set -eu
eddi=$1 old=${2:-get_bool_opt} new=${3:-get_flag_opt} rounds=${4:-5}
src=/usr/lib/python3/dist-packages/pygments
command -v pyright-langserver >/dev/null || { echo "pyright-langserver not on PATH" >&2; exit 2; }
[ -d "$src" ] || { echo "no $src (apt-get install python3-pygments)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/ws" "$work/pristine"
cp -r "$src" "$work/pristine/pygments"
find "$work/pristine" -name __pycache__ -prune -exec rm -rf {} +

# ms of one process running the commands given on a fresh copy; every
# reply must be Ok.
run() {
  rm -rf "$work/ws/pygments"
  cp -r "$work/pristine/pygments" "$work/ws/"
  start=$(date +%s%N)
  "$eddi" --no-journal --root "$work/ws" "$@" >"$work.out" 2>&1 || true
  end=$(date +%s%N)
  if grep -v '^Ok' "$work.out" >&2; then echo "a command failed" >&2; exit 1; fi
  echo $(( (end - start) / 1000000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

once="Refactor RenameSymbol $old $new"
back="Refactor RenameSymbol $new $old"
: >"$work.plain1"; : >"$work.check1"; : >"$work.plain2"; : >"$work.check2"
i=0
while [ $i -lt "$rounds" ]; do
  run --no-lsp -c 'Start s' -c "$once" -c 'End' -c 'Start t' -c "$back" >/dev/null  # warms the disk cache
  run --no-lsp -c 'Start s' -c "$once" -c 'End' -c 'Start t' -c "$back" >>"$work.plain2"
  run -c 'Start s' -c "$once" -c 'End' -c 'Start t' -c "$back" >>"$work.check2"
  grep -q "Checked by pyright" "$work.out" || { echo "the check did not run:" >&2; cat "$work.out" >&2; exit 1; }
  run --no-lsp -c 'Start s' -c "$once" -c 'End' -c 'Start t' -c "$back" -c 'End' -c 'Start u' -c "$once" -c 'End' -c 'Start v' -c "$back" >>"$work.plain1"
  run -c 'Start s' -c "$once" -c 'End' -c 'Start t' -c "$back" -c 'End' -c 'Start u' -c "$once" -c 'End' -c 'Start v' -c "$back" >>"$work.check1"
  i=$((i + 1))
done
p2=$(median <"$work.plain2") c2=$(median <"$work.check2")
p4=$(median <"$work.plain1") c4=$(median <"$work.check1")
refs=$("$eddi" --no-journal --no-lsp --root "$work/pristine" -c 'Start s' -c "Preview Refactor RenameSymbol $old $new" | tail -1)
echo "rename $old -> $new in pygments: $refs"
echo "two renames, one process: --no-lsp $p2 ms, checked by pyright $c2 ms, ratio $(awk "BEGIN {printf \"%.2f\", $c2 / $p2}")"
w_plain=$(( (p4 - p2) / 2 )) w_check=$(( (c4 - c2) / 2 ))
echo "a warm rename (server running): --no-lsp $w_plain ms, checked $w_check ms, ratio $(awk "BEGIN {printf \"%.2f\", $w_check / ($w_plain > 0 ? $w_plain : 1)}")"
rm -f "$work.out" "$work.plain1" "$work.check1" "$work.plain2" "$work.check2"
