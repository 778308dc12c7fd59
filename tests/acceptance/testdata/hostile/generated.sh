#!/bin/sh
# The correct Python learner, but in the generated phase's root (a folder
# named generated) it misbehaves as $2 says: "stdout" prints a line on
# stdout before it starts; "hang" answers every call after 30 seconds,
# so its first search there outlasts the limit, asleep; "spin" does the
# same busy, using the CPU all along; "leak" copies the run's
# ../outside.md, outside that root, to stderr. Everywhere else it is
# correct, so only the generated phase's process shows the fault.
root="$1"
server="$(dirname "$0")/../learners/python/server.py"
case "$root" in
*/generated) ;;
*) exec python3 "$server" --root "$root" ;;
esac
case "$2" in
stdout) echo "generated phase: searching $(basename "$root")" ;;
hang) exec python3 "$server" --root "$root" --delay 30 ;;
spin) exec python3 "$server" --root "$root" --spin 30 ;;
leak) cat "$root/../outside.md" >&2 ;;
esac
exec python3 "$server" --root "$root"
