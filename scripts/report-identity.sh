#!/usr/bin/env bash
# Prove that a change to the acceptance harness changed no report: grade the
# same servers with the harness built from two commits, with one --seed, and
# compare each pair of reports (the JSON report and the Markdown completion
# record with its evidence) after normalising what legitimately varies
# between two runs: times and dates, temp folder names, process ids and the
# random fixture tokens (numbered by first appearance, so a token must recur
# where its counterpart recurs). Anything else that differs is printed as a
# unified diff.
#
#   scripts/report-identity.sh [--seed N] BASE_REF [HEAD_REF]
#
# Without HEAD_REF the head harness is built from the working tree of this
# repository, uncommitted changes included. The servers (this repository's
# and the learner and fixture servers under tests/acceptance/testdata) and
# the practice data come from the head side and are the same for both
# harnesses. Neither ref is checked out: each is extracted with git archive
# into a temp folder. Two servers are graded at a time.
#
# REPORT_IDENTITY_KEEP=1 keeps the temp folder with every report.
#
# Prints one line per server and a total; exits 0 when every pair is
# identical, 1 when any differs (or a run could not be set up), 2 on usage
# or build errors.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seed=1
while [[ $# -gt 0 && "$1" == --* ]]; do
	case "$1" in
	--seed) seed="${2:?--seed needs a number}"; shift 2 ;;
	--seed=*) seed="${1#*=}"; shift ;;
	*) echo "report-identity.sh: unknown flag $1" >&2; exit 2 ;;
	esac
done
if [[ $# -lt 1 || $# -gt 2 ]]; then
	sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
base_ref="$1"
head_ref="${2:-}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/report-identity.XXXXXX")"
# Under isolation as root the server runs as a uid of its own: it must be
# able to reach the servers built here.
chmod 755 "$tmp"
if [[ -n "${REPORT_IDENTITY_KEEP:-}" ]]; then
	echo "report-identity: keeping the reports in $tmp/out" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi

# extract REF DIR: the tree of REF, without touching the caller's checkout.
extract() {
	mkdir -p "$2"
	git -C "$repo" archive --format=tar "$1" | tar -x -C "$2"
}

start=$SECONDS
extract "$base_ref" "$tmp/base-src"
head_src="$repo"
head_name="the working tree"
if [[ -n "$head_ref" ]]; then
	extract "$head_ref" "$tmp/head-src"
	head_src="$tmp/head-src"
	head_name="$head_ref ($(git -C "$repo" rev-parse --short "$head_ref"))"
fi
echo "report-identity: base $base_ref ($(git -C "$repo" rev-parse --short "$base_ref")), head $head_name, seed $seed" >&2

mkdir -p "$tmp/bin" "$tmp/srv"
go -C "$tmp/base-src" build -o "$tmp/bin/acceptance-base" ./tests/acceptance/cmd/acceptance
go -C "$head_src" build -o "$tmp/bin/acceptance-head" ./tests/acceptance/cmd/acceptance
go -C "$repo" build -o "$tmp/bin/reportnorm" ./tests/acceptance/cmd/reportnorm

# The servers, all in one folder: under isolation it is the one folder of
# the grader's the server sees.
srv="$tmp/srv"
td="$head_src/tests/acceptance/testdata"
go -C "$head_src" build -o "$srv/practice-notes" .
go -C "$head_src" build -o "$srv/" ./tests/acceptance/testdata/servers/...
for name in go gotyped; do
	go -C "$head_src" build -o "$srv/$name" "./tests/acceptance/testdata/learners/$name"
done
go -C "$td/learners/mcpgo" build -o "$srv/mcpgo" .
for name in python pyclass pyarray pyquote noderaw; do
	mkdir -p "$srv/$name"
	cp "$td/learners/$name"/server.* "$srv/$name/"
done
# Quoted for the command lines below, which the harness runs in a shell.
python="$(printf '%q' "$(command -v python3)")"
node="$(printf '%q' "$(command -v node)")"
srvq="$(printf '%q' "$srv")"
echo "report-identity: built in $((SECONDS - start)) s" >&2

# NAME|COMMAND of every server graded; none needs the network.
servers=(
	"practice-notes|$srvq/practice-notes serve -root {root}"
	"python|$python $srvq/python/server.py --root {root}"
	"pyclass|$python $srvq/pyclass/server.py --root {root}"
	"pyarray|$python $srvq/pyarray/server.py {root}"
	"pyquote|$python $srvq/pyquote/server.py --notes-dir {root}"
	"noderaw|$node $srvq/noderaw/server.js --vault {root}"
	"go|$srvq/go -root {root}"
	"gotyped|$srvq/gotyped -root {root}"
	"mcpgo|$srvq/mcpgo -root {root}"
)
for path in "$td"/servers/*/; do
	name="$(basename "$path")"
	if [[ -x "$tmp/srv/$name" ]]; then
		servers+=("$name|$srvq/$name serve -root {root}")
	fi
done

# grade SIDE NAME COMMAND SLOT: one run of one harness, its reports and
# exit status into $tmp/out/NAME/SIDE.
grade() {
	local out="$tmp/out/$2/$1" code=0
	mkdir -p "$out"
	(cd "$out" && "$tmp/bin/acceptance-$1" --server "$3" --server-dir "$tmp/srv" \
		--practice-data "$head_src/practice-data" --seed "$seed" --slot "$4" \
		--json --record record.md >report.json 2>"$tmp/out/$2/$1.stderr") || code=$?
	echo "exit status $code" >"$out/exit-status"
}

# compare NAME COMMAND SLOT: grade with both harnesses, print the verdict.
compare() {
	local dir="$tmp/out/$1" t0=$SECONDS
	grade base "$1" "$2" "$3"
	grade head "$1" "$2" "$3"
	# Exit status 2: the run could not be set up, so there is no report.
	if grep -q 'status 2$' "$dir/base/exit-status" "$dir/head/exit-status"; then
		printf 'NOT RUN    %-20s (a run could not be set up)\n' "$1"
		cat "$dir/base.stderr" "$dir/head.stderr"
		return
	fi
	if ! "$tmp/bin/reportnorm" "$dir/base" "$dir/head" "$dir/norm"; then
		printf 'NOT RUN    %-20s (the reports could not be normalised)\n' "$1"
		return
	fi
	local file same=1
	: >"$dir/diff"
	for file in "$dir"/norm/base/*; do
		file="$(basename "$file")"
		diff -u --label "$1 base/$file" --label "$1 head/$file" \
			"$dir/norm/base/$file" "$dir/norm/head/$file" >>"$dir/diff" || same=0
	done
	if [[ $same -eq 1 ]]; then
		printf 'identical  %-20s (%s; %d s)\n' "$1" "$(cat "$dir/base/exit-status")" $((SECONDS - t0))
	else
		printf 'DIFFERENT  %-20s (%d s)\n' "$1" $((SECONDS - t0))
		cat "$dir/diff"
	fi
}

# Two lanes, each with a parallel slot of its own: the pair of runs on one
# server shares a slot, so the uid the reports name is the same.
for lane in 0 1; do
	(
		for i in "${!servers[@]}"; do
			((i % 2 == lane)) || continue
			entry="${servers[$i]}"
			compare "${entry%%|*}" "${entry#*|}" "$lane" >"$tmp/verdict-$(printf '%03d' "$i")"
		done
	) &
done
wait

cat "$tmp"/verdict-*
# The verdicts again, without the diffs between them.
if grep -qv '^identical ' "$tmp"/verdict-*; then
	head -q -n 1 "$tmp"/verdict-*
fi
total=${#servers[@]}
same=$(cat "$tmp"/verdict-* | grep -c '^identical ' || true)
echo "report-identity: $same of $total servers identical (seed $seed, $((SECONDS - start)) s in all)"
[[ $same -eq $total ]] || exit 1
