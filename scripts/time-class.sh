#!/usr/bin/env bash
# Time the grading of a class of copies of one fast server: this
# repository's, which answers in milliseconds, so that what is timed is
# the grading.
#
#   scripts/time-class.sh [-n N] [-j J] [-rounds R] [REF ...]
#
# Builds the server once, and the harness and gradeclass of each REF (a
# commit; "." is the working tree, the default), makes a class of N
# learners (default 40) whose server.cmd starts that one binary, and grades
# the class with each REF in turn, R rounds (default 1), -j J (default 2),
# seed 1 (for a REF whose gradeclass has -seed: those before the generated
# phase have none, and no seed to pass). One line per run on stdout, tab-separated: round, ref, wall
# seconds, CPU seconds (user and system time of gradeclass and of every
# harness and server it started), the largest process's peak memory in
# KiB, the class's summary line, and the 1-minute load average before and
# after. The machine's other work counts in every figure: compare REFs by
# their runs in the same round.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n=40 j=2 rounds=1
while [[ $# -gt 0 ]]; do
	case "$1" in
	-n) n="$2"; shift 2 ;;
	-j) j="$2"; shift 2 ;;
	-rounds) rounds="$2"; shift 2 ;;
	-h | --help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
refs=("$@")
[[ ${#refs[@]} -gt 0 ]] || refs=(.)
if [[ ! -x /usr/bin/time ]]; then
	echo "time-class.sh: needs GNU time as /usr/bin/time (apt-get install time)" >&2
	exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/practice-notes-time-class.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # the sandboxed server's user enters its folder

echo "time-class.sh: building the server and ${#refs[@]} harness(es)" >&2
go -C "$repo" build -o "$tmp/practice-notes" .
for i in "${!refs[@]}"; do
	src="$repo"
	if [[ ${refs[$i]} != . ]]; then
		src="$tmp/src-$i"
		mkdir "$src"
		git -C "$repo" archive "${refs[$i]}" | tar -x -C "$src"
	fi
	go -C "$src" build -o "$tmp/acceptance-$i" ./tests/acceptance/cmd/acceptance
	go -C "$src" build -o "$tmp/gradeclass-$i" ./tests/acceptance/cmd/gradeclass
done

for k in $(seq -f '%04g' 1 "$n"); do
	mkdir -p "$tmp/class/l$k"
	ln "$tmp/practice-notes" "$tmp/class/l$k/practice-notes"
	echo './practice-notes serve -root {root}' >"$tmp/class/l$k/server.cmd"
done

load() { cut -d' ' -f1 /proc/loadavg; }
for r in $(seq 1 "$rounds"); do
	for i in "${!refs[@]}"; do
		before="$(load)"
		rm -rf "$tmp/grades"
		seed=()
		if "$tmp/gradeclass-$i" -h 2>&1 | grep -q -- '-seed'; then
			seed=(-seed 1)
		fi
		/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$tmp/gradeclass-$i" -harness "$tmp/acceptance-$i" \
			-practice-data "$repo/practice-data" -j "$j" "${seed[@]}" -o "$tmp/grades" "$tmp/class" >"$tmp/out" 2>"$tmp/err" || true
		# GNU time puts "Command exited with non-zero status" first.
		read -r wall user sys rss < <(tail -1 "$tmp/time")
		cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s %s\n' "$r" "${refs[$i]}" "$wall" "$cpu" "$rss" "$(tail -1 "$tmp/out")" "$before" "$(load)"
	done
done
