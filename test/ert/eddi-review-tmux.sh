#!/usr/bin/env bash
# The agent review's keys in a real terminal Emacs: emacs -nw runs in a
# private tmux server, eddi-review-tmux.el opens a review of two changed
# files, and the keys a user would press are sent: r (reject a.txt's first
# hunk), a (accept its second), R (reject all of b.txt), C-c C-c (commit).
# Then the bytes on disk must be exactly the accepted ones.
# Usage: eddi-review-tmux.sh EMACS ELISP-DIR TEST-DIR
set -euo pipefail
emacs=$1 elisp=$2 tests=$3

root=$(mktemp -d)
socket="eddi-review-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$root"
}
trap cleanup EXIT

for i in $(seq 1 20); do echo "line $i"; done >"$root/a.txt"
printf 'alpha\nbeta\n' >"$root/b.txt"

tmux -L "$socket" -f /dev/null new-session -d -x 120 -y 40 \
  "EDDI_REVIEW_ROOT=$root TERM=xterm-256color $emacs -nw -Q -L $elisp -L $tests -l eddi-review-tmux.el"

# Wait for a screen that shows what the test expects.
wait_for() {
  for _ in $(seq 1 100); do
    if tmux -L "$socket" capture-pane -p | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "not on the screen: $1" >&2
  tmux -L "$socket" capture-pane -p >&2
  exit 1
}

wait_for "eddi-agent review:"
wait_for "@@ -1,5 +1,5 @@   \[accept\]"
keys() { tmux -L "$socket" send-keys "$@"; sleep 0.2; }
keys r
wait_for "@@ -1,5 +1,5 @@   \[reject\]"
keys a
keys R
wait_for "@@ -1,2 +1,2 @@   \[reject\]"
keys C-c C-c

for _ in $(seq 1 100); do [ -f "$root/done" ] && break; sleep 0.1; done
[ -f "$root/done" ] || { echo "the review was not committed" >&2; tmux -L "$socket" capture-pane -p >&2; exit 1; }

expected_a=$(for i in $(seq 1 20); do if [ "$i" = 19 ]; then echo "LINE NINETEEN"; else echo "line $i"; fi; done)
[ "$(cat "$root/a.txt")" = "$expected_a" ] || { echo "a.txt is not the accepted bytes" >&2; cat "$root/a.txt" >&2; exit 1; }
[ "$(cat "$root/b.txt")" = "$(printf 'alpha\nbeta')" ] || { echo "b.txt changed" >&2; exit 1; }
[ "$(cat "$root/done")" = '("a.txt")' ] || { echo "saved: $(cat "$root/done")" >&2; exit 1; }
echo "review-tmux: ok"
