#!/bin/sh
# Writes terminal escapes (clear screen, colour, window title, a line
# that reads as a txtar section marker) and a 300,000-byte line on stdout
# and escapes on stderr, then starts a correct server. Check 8 fails on
# the stdout lines; no report, record or transcript may carry the
# escapes raw.
printf '\033[2J\033[31mred\033]0;owned title\007\n-- x --\n'
printf '\033[2J\033[31mred on stderr\033]0;owned\007\n' >&2
head -c 300000 /dev/zero | tr '\0' x
echo
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
