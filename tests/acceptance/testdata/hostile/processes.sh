#!/bin/sh
# Starts up to 400 processes (each ends by itself within five seconds), then a
# correct server. The shell that starts them stops at the first fork the
# limit refuses, and says so on stderr.
sh -c 'i=0; while [ $i -lt 400 ]; do sleep 5 & i=$((i + 1)); done' || true
[ "$(ls /proc | grep -c '^[0-9]')" -gt 300 ] && echo "PWNED ran 300 processes"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
