#!/bin/sh
# `eddi FILE` takes a block written across lines as one command, as the
# design writes blocks: from the line whose `{` opens it to the line whose
# `}` closes it (braces in strings and on '#' lines do not count). A block
# the file never closes is refused, naming its first line, and runs
# nothing; the commands before it have run. Checks the replies, the exit
# status and the files' bytes exactly.
# usage: script_file_blocks.sh EDDI
set -u
eddi=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/api"
printf 'from old_auth import login\n\n\ndef enter(user):\n    return login(user)\n' \
  >"$work/src/auth_client.py"
printf 'import old_auth\n\n\ndef open_session(user):\n    return old_auth.login(user)\n' \
  >"$work/src/api/session.py"
cat >"$work/migrate.eddi" <<'SCRIPT'
# The design's systematic migration, its blocks across lines.
Start s
{
    foreach file matching "src/**/*.py" {
        replace "from old_auth import" with "from new_auth import"
        foreach call to old_auth.login {
            replace with new_auth.authenticate
        }
    }
    collect changes as "auth_migration"
}
apply changeset auth_migration
foreach file matching "src/**/*.py" {
    # a comment's { does not count
    flag "a } in a string"
}
Status
foreach file matching "src/**/*.py" {
    replace "def" with "fed"
Status
SCRIPT
cat >"$work/expected" <<'REPLIES'
Ok
Ok, Migration prepared: 2 files affected, use 'apply changeset auth_migration', Undefined: src/api/session.py:4 new_auth
Ok, Applied changeset auth_migration: 2 files
Ok, Script completed: 2 files flagged, Flagged: src/api/session.py:0:0 a } in a string; src/auth_client.py:0:0 a } in a string
Ok: Session s, No file
Fail "The block opened on line 18 is not closed: a '}' is missing"
REPLIES
status=0
(cd "$work" && "$eddi" --no-journal migrate.eddi >actual 2>stderr)
code=$?
[ "$code" -eq 1 ] || { echo "exit status $code, expected 1"; status=1; }
diff -u "$work/expected" "$work/actual" || status=1
[ -s "$work/stderr" ] && { echo "stderr:"; cat "$work/stderr"; status=1; }
printf 'from new_auth import login\n\n\ndef enter(user):\n    return login(user)\n' \
  | cmp - "$work/src/auth_client.py" || status=1
printf 'import old_auth\n\n\ndef open_session(user):\n    return new_auth.authenticate(user)\n' \
  | cmp - "$work/src/api/session.py" || status=1
exit $status
