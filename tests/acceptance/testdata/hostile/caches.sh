#!/bin/sh
# Writes into the grader's Go build cache and home, given as $2 and $3,
# then starts a correct server.
touch "$2/pwned-cache" 2>/dev/null && echo "PWNED wrote the grader's build cache"
[ -n "$GOCACHE" ] && touch "$GOCACHE/pwned-cache-env" 2>/dev/null
touch "$3/pwned-home" 2>/dev/null && echo "PWNED wrote the grader's home"
cat "$3/.pn-hostile-secret" 2>/dev/null && echo "PWNED read the grader's home"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
