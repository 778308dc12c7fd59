#!/usr/bin/env bash
# Acceptance checks for a practice-notes MCP server, run from the outside over
# stdio (the eight acceptance tests of the practice-notes specification).
#
#   scripts/acceptance.sh                      build and check this repository's server
#   scripts/acceptance.sh --server 'CMD {root}'  check any stdio server, in any language
#
# Options (passed to the harness, tests/acceptance/cmd/acceptance):
#   --server 'CMD'        command line that starts a stdio server; {root} becomes the
#                         practice root built for the run (also in $PRACTICE_NOTES_ROOT)
#   --practice-data DIR   notes copied into that root (default: this repository's practice-data/)
#   --record FILE         write the completion record (Markdown, full evidence)
#   --json                print machine-readable results instead of text
#   --timeout DUR         limit for every request (default 10s)
#   --keep                keep the temp dir for inspection
#
# Output: one PASS/FAIL line per check, then "N passed, M failed". Exit status is
# 0 when all eight passed, 1 when any failed, 2 when the run could not start.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# --completion FILE: also grade that completion record (COMPLETION.md)
# against this run, as scripts/grade-class.sh does for each learner.
completion=""
kept=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	--completion | -completion)
		[[ $# -ge 2 ]] || { echo "acceptance.sh: --completion needs a file" >&2; exit 2; }
		completion="$2"
		shift 2
		;;
	--completion=* | -completion=*) completion="${1#*=}"; shift ;;
	*) kept+=("$1"); shift ;;
	esac
done
set -- ${kept[@]+"${kept[@]}"}

have_server=0
have_data=0
for arg in "$@"; do
	case "$arg" in
	--server | -server | --server=* | -server=*) have_server=1 ;;
	--practice-data | -practice-data | --practice-data=* | -practice-data=*) have_data=1 ;;
	-h | --help | -help)
		sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	esac
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/practice-notes-acceptance-bin.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

go -C "$repo" build -o "$tmp/acceptance" ./tests/acceptance/cmd/acceptance

args=()
if [[ $have_data -eq 0 ]]; then
	args+=(--practice-data "$repo/practice-data")
fi
if [[ $have_server -eq 0 ]]; then
	go -C "$repo" build -o "$tmp/practice-notes" .
	commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	files="$(git -C "$repo" ls-files -- '*.go' ':!:*_test.go' ':!:tests/**' 2>/dev/null | tr '\n' ' ')"
	dirty=""
	if [[ -n "$(git -C "$repo" status --porcelain -- '*.go' ':!:tests/**' 2>/dev/null)" ]]; then
		dirty=" plus uncommitted changes to Go files"
	fi
	sdk="$(go -C "$repo" list -m -f '{{.Path}} {{.Version}}' github.com/modelcontextprotocol/go-sdk 2>/dev/null || echo 'MCP Go SDK')"
	args+=(
		--server "$(printf '%q' "$tmp/practice-notes") serve -root {root}"
		--server-source "this repository's Go server (${files% }) at commit ${commit}${dirty}, built by scripts/acceptance.sh with $(go env GOVERSION) against ${sdk}"
	)
fi

status=0
if [[ -n "$completion" ]]; then
	go -C "$repo" build -o "$tmp/gradeclass" ./tests/acceptance/cmd/gradeclass
	"$tmp/acceptance" "${args[@]}" "$@" --json >"$tmp/run.json" || status=$?
	[[ $status -ne 2 ]] || exit 2
	status=0
	"$tmp/gradeclass" -completion "$completion" -run "$tmp/run.json" || status=$?
	exit "$status"
fi
"$tmp/acceptance" "${args[@]}" "$@" || status=$?
exit "$status"
