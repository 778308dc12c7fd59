#!/usr/bin/env bash
# memory-bound.sh: holds the server's memory bound. It generates one folder
# of 100,000 notes of 300 bytes (the walk stops at 50,000 of them), with
# times an hour old so that summaries apply, and runs MEMORY_SESSIONS
# sessions (default 3) of `practice-notes serve` on it, each as a client's:
# initialize, one search, 4 s idle while summaries are made, then ten more
# searches. It fails if any session's peak resident size (VmHWM in
# /proc/PID/status) is over the bound, 32 MiB, and prints every session's.
# Linux only: it reads /proc.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

bound_kib=$((32 * 1024))
sessions=${MEMORY_SESSIONS:-3}

for tool in go awk mktemp date; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "memory-bound.sh: $tool is required and not installed" >&2
    exit 1
  fi
done
if [ ! -r /proc/self/status ]; then
  echo "memory-bound.sh: /proc/PID/status is required (Linux) to read the peak resident size" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/memory-bound.XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building" >&2
go build -o "$work/practice-notes" .
go build -o "$work/gencorpus" ./tests/gencorpus
echo "== generating one folder of 100,000 notes of 300 bytes" >&2
"$work/gencorpus" -files 100000 -size 300 -k 0 -seed 1 -per-dir -1 -age 1h -out "$work/notes" >/dev/null

# session prints the peak resident size, in KiB, of one session's server.
session() {
  local line id=0 reply
  coproc SERVER { exec "$work/practice-notes" serve -root "$work/notes" 2>"$work/stderr"; }
  server=$SERVER_PID
  exec 3<&"${SERVER[0]}" 4>&"${SERVER[1]}"
  ask() {
    printf '%s\n' "$1" >&4
    if ! IFS= read -r -t 30 reply <&3; then
      echo "memory-bound.sh: no reply from the server within 30 s; its stderr:" >&2
      tail -n 20 "$work/stderr" >&2
      return 1
    fi
    case $reply in
      *'"result"'*) ;;
      *) echo "memory-bound.sh: the server answered with an error: ${reply:0:300}" >&2; return 1 ;;
    esac
    case $reply in
      *'"isError":true'*) echo "memory-bound.sh: the search failed: ${reply:0:300}" >&2; return 1 ;;
    esac
  }
  search() {
    id=$((id + 1))
    ask "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"tools/call\",\"params\":{\"name\":\"search_notes\",\"arguments\":{\"query\":\"$1\"}}}"
  }
  ask '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"memory-bound","version":"1"}}}'
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&4
  search "velvet lantern"
  sleep 4
  for _ in 1 2 3 4 5; do
    search "velvet lantern"
    search "the release was the team login"
  done
  line=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")
  # Closing every copy of its stdin ends the server.
  exec 3<&- 4>&- {SERVER[1]}>&-
  wait "$server" || true
  server=
  if [ -z "$line" ]; then
    echo "memory-bound.sh: no VmHWM in /proc/$server/status" >&2
    return 1
  fi
  echo "$line"
}

failed=0
for i in $(seq "$sessions"); do
  hwm=$(session)
  mib=$(awk -v k="$hwm" 'BEGIN {printf "%.1f", k / 1024}')
  if [ "$hwm" -gt "$bound_kib" ]; then
    echo "session $i: peak RSS $mib MiB ($hwm KiB): over the bound of 32 MiB"
    failed=1
  else
    echo "session $i: peak RSS $mib MiB ($hwm KiB), within 32 MiB"
  fi
done
if [ "$failed" = 1 ]; then
  echo "memory-bound.sh: FAIL: the peak resident size went over 32 MiB" >&2
  exit 1
fi
echo "memory-bound.sh: ok: every session's peak resident size within 32 MiB"
