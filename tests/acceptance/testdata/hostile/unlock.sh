#!/bin/sh
# Gives the mode-000 note of check 22 (present while that check's server
# starts) read permission back and reads it, then starts a correct server.
# Where the server's uid maps to the grader's it owns the file, so only a
# read-only mount over it stops the chmod. $1 is the root.
f="$1/traps/locked-note.md"
[ -e "$f" ] && chmod 644 "$f" 2>/dev/null && echo "PWNED chmod the locked note"
[ -e "$f" ] && cat "$f" >/dev/null 2>&1 && echo "PWNED read the locked note"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
