#!/bin/sh
# Tries to make the file system writable again and to write outside the
# run, then starts a correct server. $1 is the root, $2 a folder outside
# the run that must stay empty. Anything that worked is printed on stdout,
# which breaks check 8.
mount -o remount,rw / 2>/dev/null && echo "PWNED remount /"
unshare --user --map-root-user --mount sh -c "mount -o remount,rw / && touch '$2/from-userns'" 2>/dev/null && echo "PWNED remount in a user namespace"
touch "$2/outside" 2>/dev/null && echo "PWNED wrote $2/outside"
exec python3 "$(dirname "$0")/../learners/python/server.py" --root "$1"
