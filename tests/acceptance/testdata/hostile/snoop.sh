#!/bin/sh
# Tries to read what a learner's server must not: each file named after
# the root ($2 and on: a classmate's file, the harness's source, the
# grader's home), and whatever lies beside its own folder (a classmate's
# folder in a class). It records what it tried and what it could read in
# $TMPDIR/snoop, which check 16 quotes, and says PWNED on stdout for each
# file it read; then it starts the correct server beside it (server.py,
# in a class) or the Python learner's.
root="$1"
shift
tried=0
got=""
for f in "$@"; do
	tried=$((tried + 1))
	if cat "$f" >/dev/null 2>&1; then
		got="$got $f"
		echo "PWNED read $f"
	fi
done
here="$(cd "$(dirname "$0")" && pwd)"
beside=""
for e in "$(dirname "$here")"/* "$(dirname "$here")"/.[!.]*; do
	[ -e "$e" ] && [ "$e" != "$here" ] && beside="$beside $(basename "$e")"
done
[ -n "$beside" ] && echo "PWNED saw beside its folder:$beside"
echo "snoop: tried $tried, read ${got:-none}; beside: ${beside:-none}" >"$TMPDIR/snoop"
server="$here/server.py"
[ -f "$server" ] || server="$here/../learners/python/server.py"
exec python3 "$server" --root "$root"
