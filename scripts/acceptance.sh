#!/usr/bin/env bash
# Grade a practice-notes MCP server from the outside over stdio, against the
# practice-notes specification (tests/acceptance/cmd/acceptance does the work).
#
#   scripts/acceptance.sh                        build and grade this repository's server
#   scripts/acceptance.sh --server 'CMD {root}'  grade any stdio server, in any language
#   scripts/acceptance.sh --help                 list every flag (printed by the harness itself)
#
# Without --server the script builds this repository's server and passes
# --server, --server-source and --practice-data for it. With --completion
# FILE it also grades that completion record against the run, as
# scripts/grade-class.sh does for each learner of a class.
# docs/grading-checks.md explains every check.
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
want_help=0
for arg in "$@"; do
	case "$arg" in
	--server | -server | --server=* | -server=*) have_server=1 ;;
	--practice-data | -practice-data | --practice-data=* | -practice-data=*) have_data=1 ;;
	-h | --help | -help) want_help=1 ;;
	esac
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/practice-notes-acceptance-bin.XXXXXX")"
# Under isolation as root the server runs as a uid of its own: it must be
# able to reach the binary built here.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

echo "acceptance.sh: building the harness (with empty Go caches about a minute, else seconds)" >&2
go -C "$repo" build -o "$tmp/acceptance" ./tests/acceptance/cmd/acceptance

if [[ $want_help -eq 1 ]]; then
	sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
	echo
	exec "$tmp/acceptance" --help
fi

args=()
if [[ $have_data -eq 0 ]]; then
	args+=(--practice-data "$repo/practice-data")
fi
if [[ $have_server -eq 0 ]]; then
	go -C "$repo" build -o "$tmp/practice-notes" .
	commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	# The files this build compiled: the module's packages the binary imports.
	files="$(go -C "$repo" list -deps -f '{{with .Module}}{{if eq .Path "practice-notes"}}{{range $.GoFiles}}{{$.ImportPath}}/{{.}} {{end}}{{range $.SFiles}}{{$.ImportPath}}/{{.}} {{end}}{{end}}{{end}}' . | sed -e 's#practice-notes/##g' | tr -s ' \n' ' ')"
	dirty=""
	if [[ -n "$(git -C "$repo" status --porcelain -- '*.go' ':!:tests/**' 2>/dev/null)" ]]; then
		dirty=" plus uncommitted changes to Go files"
	fi
	sdk="$(go -C "$repo" list -m -f '{{.Path}} {{.Version}}' github.com/modelcontextprotocol/go-sdk 2>/dev/null || echo 'MCP Go SDK')"
	args+=(
		--server "$(printf '%q' "$tmp/practice-notes") serve -root {root}"
		--server-dir "$tmp"
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
