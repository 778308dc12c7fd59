#!/usr/bin/env bash
# Benchmarks practice-notes over real stdio against ripgrep and grep run as
# whole processes, on three generated corpora:
#   1 file of 2.5 KB; 1,000 files of 20 KB; 5,000 files of 60 KB;
# measures the server's peak memory alone on two more, the second past the
# summaries' budget of 10 MiB (about 20,000 notes of 2 KB): 10,000 and
# 40,000 files of 2 KB;
# and measures three large folders of small notes (300 bytes, modification
# times an hour old) for the scale targets: 10,000 notes in 10 folders,
# 50,000 in 50, and 100,000 in one folder (past the walk's 50,000-entry
# limit): first call, steady absent phrase, steady phrase of common words
# and peak RSS, beside rg in the same rounds.
# It builds the binary, generates the corpora (deterministic, fictional
# notes; see tests/corpus), measures spawn-to-first-reply time, the first
# call of a fresh server, tools/call p50/p99 for a present, an absent, an
# absent common-words and an early-stopping phrase, the server's peak RSS,
# the heap a note's summary takes, and rg/grep on the same folders,
# interleaved (ours, rg, ours, rg...).
# Corpora are measured settled: the script waits until their notes' times
# are older than the kernel's writeback window (a minute or more), as
# summaries need; reused corpora (BENCH_DIR) usually are already.
# It prints a Markdown report and writes it to $BENCH_OUT.
#
# Environment:
#   BENCH_DIR    where corpora go (default: a new temporary folder, removed
#                at the end). Reused when it already holds them. Keep it
#                outside any git work tree: ripgrep skips git-ignored files.
#   BENCH_OUT    report file (default: .corpus/bench.md, git-ignored)
#   BENCH_CALLS  measured calls per phrase and corpus (default 100)
#   BENCH_SPAWNS server starts timed per corpus (default 30)
#   BENCH_BASE   a git revision to build and measure beside this one on the
#                large folders, in the same rounds (default: none)
#   BENCH_SCALE_ONLY  set to 1 to measure the large folders only
#   BENCH_SCALE_ROUNDS  steady rounds per large folder (default 10)
#   BENCH_SCALE_FIRSTS  first calls timed per large folder (default 5)
#
# Nothing here is a test: no time measured can fail CI.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

calls=${BENCH_CALLS:-100}
spawns=${BENCH_SPAWNS:-30}
out=${BENCH_OUT:-$repo/.corpus/bench.md}
mkdir -p "$(dirname "$out")"

work=$(mktemp -d)
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
if [ -n "${BENCH_DIR:-}" ]; then
  corpora=$BENCH_DIR
  mkdir -p "$corpora"
else
  corpora=$work/corpora
fi

echo "== building" >&2
go build -o "$work/practice-notes" .
go build -o "$work/benchdrive" ./tests/benchdrive
go build -o "$work/gencorpus" ./tests/gencorpus

rg=$(command -v rg || true)
grep=$(command -v grep || true)
if [ -z "$rg" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing ripgrep, which every ratio is measured against" >&2
  apt-get install -y ripgrep >&2 || true
  rg=$(command -v rg || true)
fi
if [ -z "$rg" ]; then
  echo "bench.sh: ripgrep (rg) is required: every target is a ratio to it. Install it (Debian: apt-get install ripgrep) and run again." >&2
  exit 1
fi
if [ -z "$grep" ]; then
  echo "bench.sh: grep is not installed; its column stays empty" >&2
fi

# gen NAME FILES SIZE K [GENCORPUS FLAGS...]: generate a corpus unless an
# identical one is there.
gen() {
  local dir=$corpora/$1 stamp="files=$2 size=$3 k=$4 seed=1${5:+ ${*:5}}"
  if [ -f "$dir.stamp" ] && [ "$(cat "$dir.stamp")" = "$stamp" ]; then
    return
  fi
  echo "== generating $1 ($stamp)" >&2
  rm -rf "$dir" "$dir.stamp"
  "$work/gencorpus" -files "$2" -size "$3" -k "$4" -seed 1 "${@:5}" -out "$dir" >/dev/null
  echo "$stamp" >"$dir.stamp"
}
scale_only=${BENCH_SCALE_ONLY:-}
if [ "$scale_only" != 1 ]; then
  gen small 1 2500 1
  gen medium 1000 20000 8
  gen large 5000 60000 8
  gen notes10k 10000 2000 8
  gen notes40k 40000 2000 8
fi
# Small notes are too short for the planted phrase; only the absent
# phrases are asked there.
gen small10k 10000 300 0 -per-dir 1000 -age 1h
gen small50k 50000 300 0 -per-dir 1000 -age 1h
gen flat100k 100000 300 0 -per-dir -1 -age 1h

base_bin=
if [ -n "${BENCH_BASE:-}" ]; then
  echo "== building $BENCH_BASE to measure beside this build" >&2
  mkdir -p "$work/base"
  git archive "$BENCH_BASE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/practice-notes-base" .)
  base_bin=$work/practice-notes-base
fi

# The steady case is measured on a settled folder: a note is summarised only
# once its times are older than the kernel's writeback window (see
# boundary.Stamp): twice vm.dirty_expire_centisecs plus
# vm.dirty_writeback_centisecs, and at least 60 s. Wait until the newest
# corpus is that old (a corpus's .stamp file is written after its notes).
expire=$(cat /proc/sys/vm/dirty_expire_centisecs 2>/dev/null || echo 3000)
every=$(cat /proc/sys/vm/dirty_writeback_centisecs 2>/dev/null || echo 500)
settle=$(( (2 * (expire + every) + 99) / 100 ))
[ "$settle" -lt 60 ] && settle=60
newest=$(stat -c %Z "$corpora"/*.stamp | sort -n | tail -1)
wait=$(( newest + settle + 2 - $(date +%s) ))
if [ "$wait" -gt 0 ]; then
  echo "== waiting ${wait}s for the corpora to settle (writeback window ${settle}s)" >&2
  sleep "$wait"
fi

# Both sides search from the page cache.
if [ "$scale_only" != 1 ]; then
  cat "$corpora"/small/*.md "$corpora"/medium/*/*.md "$corpora"/large/*/*.md >/dev/null
fi
find "$corpora"/small10k "$corpora"/small50k "$corpora"/flat100k -type f -exec cat {} + >/dev/null

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo "unknown revision")
if ! git diff --quiet HEAD -- . 2>/dev/null; then
  rev="$rev with uncommitted changes"
fi

echo "== measuring the summaries' memory (TestSummariesCapAndMemory)" >&2
# The test makes summaries of real notes and measures the heap they hold by
# dropping them; it logs the figure.
per_note=$(go test -count=1 -run '^TestSummariesCapAndMemory$' -v ./search/ |
  sed -n 's/.*summaries hold \([0-9]*\) bytes of heap per note.*/\1/p' | head -1)

echo "== measuring (this takes a few minutes)" >&2
: >"$work/table.md"
if [ "$scale_only" != 1 ]; then
  "$work/benchdrive" -bin "$work/practice-notes" -rg "$rg" -grep "$grep" \
    -calls "$calls" -spawns "$spawns" -want 1,8,8 \
    -corpus "small=$corpora/small" \
    -corpus "medium=$corpora/medium" \
    -corpus "large=$corpora/large" \
    -rss-corpus "notes10k=$corpora/notes10k" \
    -rss-corpus "notes40k=$corpora/notes40k" >>"$work/table.md"
fi
echo "== measuring the large folders" >&2
"$work/benchdrive" -bin "$work/practice-notes" -base "$base_bin" -rg "$rg" \
  -scale-rounds "${BENCH_SCALE_ROUNDS:-10}" -scale-firsts "${BENCH_SCALE_FIRSTS:-5}" \
  -scale-corpus "small10k=$corpora/small10k" \
  -scale-corpus "small50k=$corpora/small50k" \
  -scale-corpus "flat100k=$corpora/flat100k" >>"$work/table.md"

{
  echo "## practice-notes benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Build: $rev${BENCH_BASE:+; base (large folders): $(git rev-parse --short "$BENCH_BASE")}."
  echo "Machine: $(nproc) cores (${cpu:-unknown CPU}), $mem RAM, $(uname -sr); $(go version | cut -d' ' -f3)."
  rgv="ripgrep not installed"; [ -n "$rg" ] && rgv=$("$rg" --version | sed -n 1p)
  grepv="grep not installed"; [ -n "$grep" ] && grepv=$("$grep" --version | sed -n 1p)
  echo "Tools: $rgv; $grepv."
  echo "Load average before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg). Page cache warm; medians of interleaved runs."
  echo "Commands: ours is one \`practice-notes serve\` answering \`tools/call search_notes\` over stdio; rg is \`rg -i -F -c PHRASE DIR\`, grep is \`grep -r -i -F -c PHRASE DIR\`, each a whole process."
  echo
  cat "$work/table.md"
  echo
  if [ -n "$per_note" ]; then
    echo "Summary memory: $per_note bytes of heap a note, $(awk -v b="$per_note" 'BEGIN {printf "%.2f", b*1000/1048576}') MiB per 1,000 notes of 50 bytes, within a budget of 10 MiB (TestSummariesCapAndMemory)."
  else
    echo "Summary memory: not measured (TestSummariesCapAndMemory did not log it; the folder's file system may give no Stamps)."
  fi
} | tee "$out"
echo "bench.sh: report written to $out" >&2
