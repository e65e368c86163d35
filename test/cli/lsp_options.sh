#!/bin/sh
# The eddi program's language server options, with the stand-in server
# test/lsp/lsp-stub.py (real LSP framing, misbehaving on purpose):
# --lsp LANG=COMMAND runs COMMAND for LANG (its diagnostics' UTF-16
# columns read as eddi's character columns); a server that stops during a
# request gives a Fail saying it stopped, and the next Validate starts it
# again; a request past --lsp-deadline is cancelled and the Fail names the
# deadline, a server that ignores the cancel too is stopped; --no-lsp
# answers as eddi does without servers; the workspace's .eddi/lsp.conf is
# heeded (its commands only when trusted); a bad --lsp is refused. Checks
# the replies and the exit status exactly.
# usage: lsp_options.sh EDDI STUB
set -u
eddi=$1
stub=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'int main(void) {\n  /* \360\237\230\200\344\270\255 */ return x;\n}\n' >"$work/a.c"
status=0

# check NAME EXPECTED-EXIT EXPECTED-OUTPUT ARGS...
check() {
  name=$1 want_code=$2 want=$3
  shift 3
  (cd "$work" && "$eddi" --no-journal "$@" >actual 2>stderr)
  code=$?
  [ "$code" -eq "$want_code" ] || { echo "$name: exit status $code, expected $want_code"; status=1; }
  printf '%s\n' "$want" | diff -u - "$work/actual" || { echo "$name: replies differ"; status=1; }
}

check well 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18' \
  --lsp "c=$stub well" -c 'Start s' -c 'Open a.c' -c Validate

# An unsaved edit is a didChange (version 2); Close is a didClose, so the
# next Open and Validate is a didOpen again (version 3: versions never
# repeat, so no old publication is taken for the new text); when eddi ends the
# server gets shutdown and exit. The stub writes down what it read.
export LSP_STUB_TRACE="$work/trace"
check versions 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18
Ok, Replaced 1 occurrence, At 1:21
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 2 at 1:22
Ok, Unsaved changes discarded
Ok, At 0:0, Length 3
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 3 at 1:18' \
  --lsp "c=$stub well" -c 'Start s' -c 'Open a.c' -c Validate -c 'Replace "return" "return 0 +"' \
  -c Validate -c Close -c 'Open a.c' -c Validate
printf '%s\n' initialize initialized textDocument/didOpen textDocument/didChange \
  textDocument/didClose textDocument/didOpen shutdown exit | diff -u - "$work/trace" ||
  { echo "versions: the server read other messages"; status=1; }
unset LSP_STUB_TRACE

# A document open in the server and changed in eddi since (an unsaved
# Replace) is brought to eddi's text before the server's next use, for
# another file: b.c's diagnostics are of version 3, after a.c's didChange
# (2); the server held a.c as it is in eddi when it analysed b.c.
printf 'int y = x;\n' >"$work/b.c"
export LSP_STUB_TRACE="$work/trace-held"
check held 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18
Ok, Replaced 1 occurrence, At 1:21
Ok, At 0:0, Length 1
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 3 at 0:8' \
  --lsp "c=$stub well" -c 'Start s' -c 'Open a.c' -c Validate -c 'Replace "return" "return 0 +"' \
  -c 'Open b.c' -c Validate
printf '%s\n' initialize initialized textDocument/didOpen textDocument/didChange \
  textDocument/didOpen shutdown exit | diff -u - "$work/trace-held" ||
  { echo "held: the server read other messages"; status=1; }
unset LSP_STUB_TRACE

check die-once 1 'Ok
Ok, At 0:0, Length 3
Fail "lsp-stub stopped (exit status 3) during initialize", Validate again to restart it
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18' \
  --lsp "c=$stub die-once $work/marker" -c 'Start s' -c 'Open a.c' -c Validate -c Validate

check honour-cancel 1 'Ok
Ok, At 0:0, Length 3
Fail "lsp-stub: initialize got no answer within 300 ms (the LSP deadline); cancelled", Validate again (the server restarts), or give it a longer deadline' \
  --lsp-deadline 300 --lsp "c=$stub honour-cancel" -c 'Start s' -c 'Open a.c' -c Validate

check ignore-cancel 1 'Ok
Ok, At 0:0, Length 3
Fail "lsp-stub: initialize got no answer within 300 ms (the LSP deadline); it ignored the cancel and was stopped", Validate again (the server restarts), or give it a longer deadline' \
  --lsp-deadline 300 --lsp "c=$stub ignore-cancel" -c 'Start s' -c 'Open a.c' -c Validate

check no-lsp 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors' \
  --no-lsp --lsp "c=$stub well" -c 'Start s' -c 'Open a.c' -c Validate

check missing 1 'Ok
Ok, At 0:0, Length 3
Fail "Cannot start lsp-none (/nonexistent/lsp-none): No such file or directory", Install it, name another with --lsp LANG=COMMAND, or turn servers off with --no-lsp' \
  --lsp "c=/nonexistent/lsp-none" -c 'Start s' -c 'Open a.c' -c Validate

# The second opinion on a Refactor: a server that gives none makes the
# check unsure, which refuses; Unchecked writes without it.
printf 'int twice(int n) { return n * 2; }\n' >"$work/b.c"
check refactor-unsure 1 'Ok
Fail "lsp-stub: initialize got no answer within 300 ms (the LSP deadline); it ignored the cancel and was stopped; the check of the planned write is unsure, nothing written", Try again, give lsp-stub a longer --lsp-deadline, or add Unchecked to write without its check' \
  --lsp-deadline 300 --lsp "c=$stub ignore-cancel" -c 'Start s' -c 'Refactor RenameSymbol twice double_of'
grep -q twice "$work/b.c" || { echo "refactor-unsure: b.c was written"; status=1; }
check refactor-unchecked 0 'Ok
Ok, Renamed in 1 file, 1 reference updated' \
  --lsp-deadline 300 --lsp "c=$stub ignore-cancel" -c 'Start s' \
  -c 'Refactor RenameSymbol twice double_of Unchecked'
grep -q double_of "$work/b.c" || { echo "refactor-unchecked: b.c was not written"; status=1; }

# The workspace's own .eddi/lsp.conf: its command runs only when trusted
# (a cloned project must not start a program unasked); --lsp comes first;
# LANG=off turns the language's server off, trusted or not.
mkdir -p "$work/.eddi"
printf '# the project'"'"'s servers\nc=%s well\n' "$stub" >"$work/.eddi/lsp.conf"
check workspace-untrusted 1 "Ok
Ok, At 0:0, Length 3
Fail \".eddi/lsp.conf names $stub well as c's language server, and commands from the workspace run only when it is trusted\", Trust it with --lsp-trust-workspace (Emacs: eddi-lsp-trust-workspace), name a server with --lsp c=COMMAND, or write c=off there" \
  -c 'Start s' -c 'Open a.c' -c Validate
check workspace-trusted 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors; lsp-stub: 1 error, x is not allowed in version 1 at 1:18' \
  --lsp-trust-workspace -c 'Start s' -c 'Open a.c' -c Validate
check workspace-overridden 1 'Ok
Ok, At 0:0, Length 3
Fail "Cannot start lsp-none (/nonexistent/lsp-none): No such file or directory", Install it, name another with --lsp LANG=COMMAND, or turn servers off with --no-lsp' \
  --lsp "c=/nonexistent/lsp-none" -c 'Start s' -c 'Open a.c' -c Validate
printf 'c=off\n' >"$work/.eddi/lsp.conf"
check workspace-off 0 'Ok
Ok, At 0:0, Length 3
Ok: No syntax errors' \
  -c 'Start s' -c 'Open a.c' -c Validate
rm -r "$work/.eddi"

(cd "$work" && "$eddi" --no-journal --lsp c -c 'Start s' >actual 2>stderr)
code=$?
[ "$code" -eq 2 ] || { echo "bad --lsp: exit status $code, expected 2"; status=1; }
printf 'eddi: --lsp takes LANG=COMMAND, not "c"\n' | diff -u - "$work/stderr" || status=1
exit $status
