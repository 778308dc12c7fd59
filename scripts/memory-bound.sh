#!/usr/bin/env bash
# memory-bound.sh: measures the server's peak resident size the way
# sessions run, and holds it to the bounds docs/bench.md states. It
# generates one folder of 100,000 notes of 300 bytes (the walk stops at
# 50,000 of them) and waits until their times are older than the
# boundary's settle window, so that the notes get Stamps and summaries are
# made, as they are for notes that are not being edited. Then it runs
# MEMORY_SESSIONS sessions (default 3) of `practice-notes serve` of each
# kind, each a fresh process:
#
#   search    initialize, one search, 4 s idle while summaries are made,
#             then ten more searches, one at a time;
#   pages     every resources/list page, one after another;
#   search8   8 searches at once (the limit of calls running at once),
#             4 s idle, then 8 at once three more times;
#   list8     8 first resources/list pages at once, three times.
#
# MEMORY_KINDS picks kinds (default all four). It prints every session's
# peak resident size (VmHWM in /proc/PID/status) and fails if one is over
# its kind's bound (bound_kib below; docs/bench.md, "Bounded memory", gives
# the measurements behind each). A call among 8 at once that runs out of
# time is counted and printed, not failed. Linux only: it reads /proc.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

sessions=${MEMORY_SESSIONS:-3}
# Bounds in KiB, by kind.
declare -A bound_kib=([search]=$((32 * 1024)) [pages]=$((40 * 1024)) [search8]=$((96 * 1024)) [list8]=$((56 * 1024)))
read -r -a kinds <<<"${MEMORY_KINDS:-search pages search8 list8}"

for tool in go awk mktemp date mkfifo wc sed grep; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "memory-bound.sh: $tool is required and not installed" >&2
    exit 1
  fi
done
for f in /proc/self/status /proc/sys/vm/dirty_expire_centisecs /proc/sys/vm/dirty_writeback_centisecs; do
  if [ ! -r "$f" ]; then
    echo "memory-bound.sh: $f is required (Linux) to read the peak resident size and the settle window" >&2
    exit 1
  fi
done

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
generated=$(date +%s)

# A note gets a Stamp, and so a summary, once its modification and change
# times are older than the settle window (boundary/stamp_linux.go): twice
# vm.dirty_expire_centisecs plus vm.dirty_writeback_centisecs, at least a
# minute. -age sets the modification time; the change time is the
# generation's own, so the sessions wait it out.
expire=$(cat /proc/sys/vm/dirty_expire_centisecs)
every=$(cat /proc/sys/vm/dirty_writeback_centisecs)
if [ "$expire" -le 0 ] || [ "$every" -le 0 ]; then
  echo "memory-bound.sh: periodic writeback is off (vm.dirty_*_centisecs); notes never settle and summaries are never made" >&2
  exit 1
fi
settle=$(((2 * (expire + every) + 99) / 100))
if [ "$settle" -lt 60 ]; then settle=60; fi
wait_s=$((generated + settle + 5 - $(date +%s)))
if [ "$wait_s" -gt 0 ]; then
  echo "== waiting ${wait_s} s for the notes to settle (settle window ${settle} s)" >&2
  sleep "$wait_s"
fi

# The server's stdin is a FIFO held open on fd 4; its stdout goes to a
# file, read line by line as replies arrive.
start_server() {
  rm -f "$work/in" "$work/out"
  mkfifo "$work/in"
  : >"$work/out"
  "$work/practice-notes" serve -root "$work/notes" <"$work/in" >"$work/out" 2>"$work/stderr" &
  server=$!
  exec 4>"$work/in"
  sent=0
}

# wait_replies waits until the server has written $1 lines in all.
wait_replies() {
  local deadline=$(($(date +%s) + 60)) n
  while :; do
    n=$(wc -l <"$work/out")
    if [ "$n" -ge "$1" ]; then return 0; fi
    if [ "$(date +%s)" -gt "$deadline" ]; then
      echo "memory-bound.sh: $n of $1 replies within 60 s; the server's stderr:" >&2
      tail -n 20 "$work/stderr" >&2
      return 1
    fi
    sleep 0.02
  done
}

# reply prints reply line $1, failing on an error reply or a failed
# search, unless lenient is 1: then the failure is noted in $work/failed.
lenient=0
reply() {
  local line
  line=$(sed -n "$1p" "$work/out")
  case $line in
    *'"result"'*) ;;
    *'"error"'*)
      if [ "$lenient" = 1 ]; then
        printf '%s\n' "${line:0:300}" >>"$work/failed"
      else
        echo "memory-bound.sh: the server answered with an error: ${line:0:300}" >&2
        return 1
      fi
      ;;
    *) echo "memory-bound.sh: not an answer: ${line:0:300}" >&2; return 1 ;;
  esac
  case $line in
    *'"isError":true'*)
      if [ "$lenient" = 1 ]; then
        printf '%s\n' "${line:0:300}" >>"$work/failed"
      else
        echo "memory-bound.sh: the call failed: ${line:0:300}" >&2
        return 1
      fi
      ;;
  esac
  printf '%s\n' "$line"
}

# send writes requests, one a line, without waiting.
send() {
  local r
  for r in "$@"; do
    printf '%s\n' "$r" >&4
    sent=$((sent + 1))
  done
}

# ask sends requests at once and waits for all their replies.
ask() {
  local first=$((sent + 1)) i
  send "$@"
  wait_replies "$sent"
  for ((i = first; i <= sent; i++)); do reply "$i" >/dev/null; done
}

search_req() {
  printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"%s"}}}' "$1" "$2"
}
list_req() {
  if [ -n "$2" ]; then
    printf '{"jsonrpc":"2.0","id":%d,"method":"resources/list","params":{"cursor":"%s"}}' "$1" "$2"
  else
    printf '{"jsonrpc":"2.0","id":%d,"method":"resources/list"}' "$1"
  fi
}

# eight prints 8 requests made by $1 (search_req or list_req) with ids
# from $2.
eight() {
  local i
  for i in 0 1 2 3 4 5 6 7; do
    if [ "$1" = search_req ]; then
      if [ $((i % 2)) = 0 ]; then search_req $(($2 + i)) "velvet lantern"; else search_req $(($2 + i)) "the release was the team login"; fi
    else
      list_req $(($2 + i)) ""
    fi
    echo
  done
}

run_search() {
  ask "$(search_req 1 "velvet lantern")"
  sleep 4
  local i
  for i in 1 2 3 4 5; do
    ask "$(search_req $((10 + 2 * i)) "velvet lantern")"
    ask "$(search_req $((11 + 2 * i)) "the release was the team login")"
  done
}

run_pages() {
  local cursor="" id=1 line pages=0
  while :; do
    ask "$(list_req "$id" "$cursor")"
    line=$(reply "$sent")
    pages=$((pages + 1))
    cursor=$(printf '%s' "$line" | grep -o '"nextCursor":"[^"]*"' | sed 's/.*:"\(.*\)"/\1/' || true)
    if [ -z "$cursor" ]; then break; fi
    id=$((id + 1))
  done
  if [ "$pages" -lt 50 ]; then
    echo "memory-bound.sh: listed $pages pages; want at least 50 (50,000 notes)" >&2
    return 1
  fi
}

# run_many runs rounds of 8 calls at once. A call among 8 at once on a
# loaded machine may run out of time (search.Timeout, or the call's
# deadline) and be answered with an error: that is counted and printed,
# not a memory failure.
run_many() {
  local make=$1 round
  lenient=1
  mapfile -t reqs < <(eight "$make" 100)
  ask "${reqs[@]}"
  if [ "$make" = search_req ]; then sleep 4; fi
  for round in 1 2 3; do
    if [ "$make" = list_req ] && [ "$round" = 3 ]; then break; fi
    mapfile -t reqs < <(eight "$make" $((100 + 10 * round)))
    ask "${reqs[@]}"
  done
}

# session runs one session of kind $1 and prints its peak resident size
# in KiB.
session() {
  start_server
  ask '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"memory-bound","version":"1"}}}'
  send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  sent=$((sent - 1)) # a notification has no reply
  case $1 in
    search) run_search ;;
    pages) run_pages ;;
    search8) run_many search_req ;;
    list8) run_many list_req ;;
  esac
  local hwm
  hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")
  exec 4>&- # closing its stdin ends the server
  wait "$server" || true
  server=
  if [ -z "$hwm" ]; then
    echo "memory-bound.sh: no VmHWM for the server" >&2
    return 1
  fi
  echo "$hwm"
}

failed=0
for kind in "${kinds[@]}"; do
  b=${bound_kib[$kind]}
  for i in $(seq "$sessions"); do
    rm -f "$work/failed"
    hwm=$(session "$kind")
    if [ -s "$work/failed" ]; then
      echo "$kind session $i: $(wc -l <"$work/failed") calls answered with an error or isError, the first: $(head -n 1 "$work/failed")" >&2
    fi
    mib=$(awk -v k="$hwm" 'BEGIN {printf "%.1f", k / 1024}')
    if [ "$hwm" -gt "$b" ]; then
      echo "$kind session $i: peak RSS $mib MiB ($hwm KiB): over the bound of $((b / 1024)) MiB"
      failed=1
    else
      echo "$kind session $i: peak RSS $mib MiB ($hwm KiB), within $((b / 1024)) MiB"
    fi
  done
done
if [ "$failed" = 1 ]; then
  echo "memory-bound.sh: FAIL: a peak resident size went over its bound" >&2
  exit 1
fi
echo "memory-bound.sh: ok: every session's peak resident size within its bound"
