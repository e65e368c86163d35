#!/bin/sh
# Cold starts (doc/lsp.org): RUNS fresh eddi processes, each with a
# language server it starts that moment, ask it at once for the
# references of a function declared in a header and used in two files, and
# rename it with the server's check. clangd 14 asked right after it
# opened a file has returned fewer edits than it has (the header missed):
# every answer is counted by what it held, and a rename the check let
# through with fewer places than eddi's own plan would be a partial
# result accepted.
#
#   bench_lsp_cold.sh EDDI [RUNS]
#
# clangd must be on PATH.
set -eu
eddi=$1 runs=${2:-100}
command -v clangd >/dev/null || { echo "clangd not on PATH" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pristine/lib"
printf 'struct shape {\n  int width;\n};\n\nint area(const struct shape *s);\n' >"$work/pristine/lib/shape.h"
printf '#include "lib/shape.h"\n\nint area(const struct shape *s) { return s->width * 2; }\n' >"$work/pristine/a.c"
printf '#include "lib/shape.h"\n\nint twice(const struct shape *s) { return area(s) + area(s); }\n' >"$work/pristine/b.c"
i=0
: >"$work/answers"
while [ $i -lt "$runs" ]; do
  rm -rf "$work/ws"
  cp -r "$work/pristine" "$work/ws"
  "$eddi" --no-journal --root "$work/ws" -c 'Start s' -c 'Open a.c' -c 'Show References Function area' \
    -c 'Refactor RenameSymbol area size' >"$work/out" 2>&1 || true
  references=$(sed -n 3p "$work/out" | sed 's/, At .*//')
  rename=$(sed -n 4p "$work/out")
  renamed=$(grep -c 'size' "$work/ws/lib/shape.h" "$work/ws/a.c" "$work/ws/b.c" | awk -F: '{n += $2} END {print n}')
  printf '%s | %s | renamed lines %s\n' "$references" "$rename" "$renamed" >>"$work/answers"
  i=$((i + 1))
done
echo "$runs cold starts; answers, by how often:"
sort "$work/answers" | uniq -c | sort -rn
