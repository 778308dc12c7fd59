#!/usr/bin/env bash
# The live matrix of the grading harness: real server processes in the
# sandbox, for every learner-style server (Python, Go with `go run`, Node.js
# with the official TypeScript SDK, npx), every fixture and hostile server,
# the real-output blocks of the grading docs (docs/grading*.md) and a class graded end to end.
# These are the tests behind the `live` build tag, with the other tests of
# tests/acceptance around them; `go test ./...` runs only a smoke run.
#
#   scripts/acceptance-matrix.sh [go test flags, e.g. -run TestLearnerServers -v]
#
# It needs python3, node, npm and npx, and as root setpriv; it fails, and
# never skips, when one is missing. npm's registry must be reachable once,
# for the Node.js servers' dependencies (tests/acceptance/.node-demo).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

missing=()
for p in go python3 node npm npx setsid; do
	command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [[ $(id -u) -eq 0 ]]; then
	command -v setpriv >/dev/null 2>&1 || missing+=(setpriv)
	[[ -x /usr/bin/python3 ]] || missing+=(/usr/bin/python3)
fi
if [[ ${#missing[@]} -gt 0 ]]; then
	echo "acceptance-matrix.sh: the live matrix needs ${missing[*]}, not found" >&2
	exit 1
fi
# CI=true: the class test fails too, rather than skip, without python3.
export CI=true
go vet -tags live ./tests/acceptance/...
exec go test -tags live -count=1 -timeout 45m "$@" ./tests/acceptance/...
