#!/bin/sh
# Kills every process it can see and signals the harness ($2), then starts
# a correct server.
kill -9 -1 2>/dev/null
kill -TERM "$2" 2>/dev/null && echo "PWNED signalled pid $2"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
