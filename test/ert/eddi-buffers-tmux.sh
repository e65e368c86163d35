#!/usr/bin/env bash
# The unsaved-edits rule in a real terminal Emacs: emacs -nw runs in a
# private tmux server over a workspace of two Python files. The user
# visits cart.py and types a line (unsaved), opens the eddi transcript
# with M-x eddi and sends a rename of Cart.total from it. Then:
#   - cart.py on disk is as it was (neither the rename nor the user's line
#     was written behind the buffer), shop.py on disk has the rename;
#   - cart.py's buffer shows both and is still modified;
#   - C-x C-s saves it without Emacs asking whether the file changed on
#     disk, and the file then holds the rename and the user's line.
# Usage: eddi-buffers-tmux.sh EMACS ELISP-DIR MODULE-DIR
set -euo pipefail
emacs=$1 elisp=$2 module=$3

root=$(mktemp -d) setup=
socket="eddi-buffers-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$root" "$setup"
}
trap cleanup EXIT

printf 'class Cart:\n    def total(self):\n        return 0\n' >"$root/cart.py"
printf 'from cart import Cart\n\n\ndef checkout():\n    return Cart().total()\n' >"$root/shop.py"
cart_before=$(cat "$root/cart.py")

setup=$(mktemp --suffix=.el)
cat >"$setup" <<ELISP
(setq make-backup-files nil create-lockfiles nil auto-save-default nil
      eddi-module-directory "$module" eddi-root "$root" eddi-journal nil)
(require 'eddi)
(find-file "$root/cart.py")
ELISP
tmux -L "$socket" -f /dev/null new-session -d -x 120 -y 40 \
  "TERM=xterm-256color $emacs -nw -Q -L $elisp -l $setup"

screen() { tmux -L "$socket" capture-pane -p; }
# Wait for a screen that shows what the test expects.
wait_for() {
  for _ in $(seq 1 150); do
    if screen | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "not on the screen: $1" >&2
  screen >&2
  exit 1
}
fail() { echo "$1" >&2; screen >&2; exit 1; }
keys() { tmux -L "$socket" send-keys "$@"; sleep 0.3; }

wait_for "def total(self):"
# The user's own line, typed, not saved.
keys M-'>' '# mine' Enter
wait_for '\*\*.*cart.py'
keys M-x 'eddi' Enter
wait_for "To Eddi:"
keys 'Refactor RenameSymbol Cart.total grand_total' Enter
wait_for "Ok, Renamed in 2 files"

[ "$(cat "$root/cart.py")" = "$cart_before" ] ||
  fail "cart.py was written behind its modified buffer: $(cat "$root/cart.py")"
grep -q "Cart().grand_total()" "$root/shop.py" || fail "shop.py was not renamed: $(cat "$root/shop.py")"

keys C-x b 'cart.py' Enter
wait_for "def grand_total(self):"
wait_for "# mine"
screen | grep -q '\*\*.*cart.py' || fail "cart.py's buffer is no longer modified"

keys C-x C-s
sleep 0.5
if screen | grep -q "changed since visited"; then fail "Emacs asks whether cart.py changed on disk"; fi
wait_for ':----.*cart.py'
expected=$(printf 'class Cart:\n    def grand_total(self):\n        return 0\n# mine')
[ "$(cat "$root/cart.py")" = "$expected" ] || fail "cart.py after the user's save: $(cat "$root/cart.py")"
echo "buffers-tmux: ok"
