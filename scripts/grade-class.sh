#!/usr/bin/env bash
# Grade a class: each learner's server through the acceptance checks, and
# each learner's COMPLETION.md against that run.
#
#   scripts/grade-class.sh [-o OUT_DIR] [-j N] CLASS_DIR
#
# CLASS_DIR holds one folder per learner with server.cmd (one line: the
# command that starts the learner's stdio server, {root} as in
# scripts/acceptance.sh --server; it runs through sh -c in the learner's
# folder) and, optionally, the learner's COMPLETION.md.
#
# Options:
#   -o OUT_DIR            where the results go (default ./grades)
#   -j N                  learners graded at once (default: the number of cores)
#   -timeout DUR          limit for every request of the checks (default 10s)
#   -start-timeout DUR    limit for a server to start and answer (default 30s)
#   -learner-timeout DUR  limit for one learner's whole run (default 5m)
#   -no-deps-check        grade every learner even when dependencies look missing
#
# Before a learner is graded, their folder is checked for dependencies that
# are not installed (the server runs without a network): a package.json
# whose dependencies are not in node_modules, a go.mod whose modules are
# not in the module cache, a requirements.txt not installed in the folder's
# .venv (or for python3). Such a learner is reported as "dependencies not
# installed: run npm ci in CLASS_DIR/NAME" and not graded.
#
# Output in OUT_DIR: summary.csv, summary.md, index.html, and <learner>.md
# (feedback) and <learner>.json (full result) for each learner. Progress on
# stderr, one line per learner; the last line on stdout summarises the class.
# Exit status: 0 when every learner was graded, 1 when one could not be,
# 2 for a usage error.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

for arg in "$@"; do
	case "$arg" in
	-h | --help | -help)
		sed -n '2,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	esac
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/practice-notes-grade-class.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The harness is built once for the whole class.
echo "grade-class.sh: building the harness (with empty Go caches about a minute, else seconds)" >&2
go -C "$repo" build -o "$tmp/acceptance" ./tests/acceptance/cmd/acceptance
go -C "$repo" build -o "$tmp/gradeclass" ./tests/acceptance/cmd/gradeclass

status=0
"$tmp/gradeclass" -harness "$tmp/acceptance" -practice-data "$repo/practice-data" "$@" || status=$?
exit "$status"
