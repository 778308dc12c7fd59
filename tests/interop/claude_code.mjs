// Drives Claude Code, Anthropic's CLI client, through the whole MCP client
// loop against practice-notes, with the scripted model of model.mjs in
// place of the Anthropic API: Claude Code starts (or connects to) the
// server, shows search_notes to the model, makes the call the model asks
// for and hands the result back. Checked, over stdio (the block that
// "practice-notes config -client claude" printed, given unchanged to
// --mcp-config) and over Streamable HTTP ("claude mcp add --transport
// http" against "serve -http"):
//
//   - "claude mcp add" then "claude mcp list" says Connected;
//   - the model was shown mcp__practice-notes__search_notes with the
//     server's own description and input schema;
//   - sign-in comes back in the tool_result as the exact N2 passage with
//     its file and note ID, an absent phrase as the no-match message, and
//     a 201-character query as a tool error the model can read.
//
// Every run has a fresh HOME and only loopback addresses.
//
// Usage: node claude_code.mjs --claude BIN --server BIN --root DIR
//
//	--config CLAUDE.json [--evidence OUT.json --commit SHA --modified BOOL]
//
// With --evidence it writes what was checked and what the model was shown,
// for the completion record (tests/acceptance/harness/clientrun.go).
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { check, summary } from "./checks.mjs";
import { startModel, toolName, toolResults } from "./model.mjs";

const { values: opt } = parseArgs({
  options: {
    claude: { type: "string" },
    server: { type: "string" },
    root: { type: "string" },
    config: { type: "string" },
    evidence: { type: "string" },
    commit: { type: "string", default: "" },
    modified: { type: "string", default: "true" },
  },
});

const results = []; // every check, for the evidence file
let transport = "";
function verify(name, ok, detail = "") {
  check(`${transport}: ${name}`, ok, detail);
  results.push({ transport, name, ok: !!ok, detail: String(detail) });
}

// run executes a command without blocking the event loop: the scripted
// model answers from this same process.
function run(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { encoding: "utf8", timeout: 120000, maxBuffer: 16 << 20, ...options },
      (err, stdout, stderr) => resolve({ code: err ? (err.code ?? err.signal) : 0, stdout, stderr }));
    child.stdin.end();
  });
}

// canonical is JSON with sorted keys, so two schemas compare by content.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

const version = JSON.parse(readFileSync(new URL("./claude-code/package.json", import.meta.url), "utf8"))
  .dependencies["@anthropic-ai/claude-code"];
// What the server itself lists: Claude Code must show the model the same.
const listed = JSON.parse((await run(opt.server, ["tools", "-root", opt.root])).stdout);
// The N2 passage as the file holds it: sample-notes.md lines 14-16.
const n2 = readFileSync(join(opt.root, "sample-notes.md"), "utf8").split("\n").slice(13, 16).join("\n");
const model = await startModel();
const homes = [];

function freshEnv() {
  const home = mkdtempSync(join(tmpdir(), "practice-notes-claude-"));
  homes.push(home);
  return {
    home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      ANTHROPIC_BASE_URL: model.url,
      // Any key will do: only the scripted model on loopback reads it.
      ANTHROPIC_API_KEY: "scripted-model-no-key",
      // Without this, MCP tools hide behind a ToolSearch tool and are
      // not in the request's tools list.
      ENABLE_TOOL_SEARCH: "false",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  };
}

const shown = {};
const absent = "absentphrase-claude-code-6e1d";
const long = "q".repeat(201);

// loop asks Claude Code to search for query with extra flags and returns
// the tool_result it handed back to the model.
async function loop(env, home, query, flags) {
  model.requests.length = 0;
  const res = await run(opt.claude, ["-p", `Search my practice notes for: ${query}`, "--output-format", "json",
    "--allowedTools", toolName, ...flags], { env, cwd: home });
  let out = {};
  try {
    out = JSON.parse(res.stdout);
  } catch {
    // reported below
  }
  const label = query.length > 40 ? `${query.length}-character query` : query;
  verify(`claude -p for ${label} completed the loop`, res.code === 0 && out.result === "Scripted model: the tool result was received.",
    `exit ${res.code}, ${model.requests.length} model requests, result ${JSON.stringify(out.result ?? res.stderr.slice(0, 300))}`);
  const first = model.requests.find((r) => (r.tools ?? []).some((t) => t.name === toolName));
  const tool = first?.tools.find((t) => t.name === toolName);
  if (tool && !shown[transport]) {
    shown[transport] = tool;
    verify(`the model was shown ${toolName}`, true, `${first.tools.length} tools offered`);
    verify("with the server's description", tool.description === listed.description, JSON.stringify(tool.description));
    verify("with the server's input schema", canonical(tool.input_schema) === canonical(listed.inputSchema),
      JSON.stringify(tool.input_schema));
  } else if (!tool) {
    verify(`the model was shown ${toolName}`, false, `tools offered: ${(model.requests[0]?.tools ?? []).map((t) => t.name).join(", ")}`);
  }
  const results = toolResults(model.requests);
  if (results.length !== 1) {
    verify(`one tool_result for ${label}`, false, `got ${results.length}`);
    return null;
  }
  return results[0];
}

async function loops(env, home, flags) {
  let r = await loop(env, home, "sign-in", flags);
  if (r) {
    let m;
    try {
      m = JSON.parse(r.text).matches?.[0];
    } catch {
      // reported below
    }
    verify("sign-in: the tool_result holds the exact N2 passage with its file and note ID",
      !r.isError && m?.file === "sample-notes.md" && m?.note_id === "N2" && m?.line === 14 && m?.passage === n2,
      m ? `${m.file}:${m.line} (${m.note_id}) ${JSON.stringify(m.passage)}` : r.text.slice(0, 300));
  }
  r = await loop(env, home, absent, flags);
  if (r) {
    let res = {};
    try {
      res = JSON.parse(r.text);
    } catch {
      // reported below
    }
    verify("an absent phrase: the tool_result is the no-match message",
      !r.isError && Array.isArray(res.matches) && res.matches.length === 0 && res.message === `No notes matched "${absent}".`,
      res.message ?? r.text.slice(0, 300));
  }
  r = await loop(env, home, long, flags);
  if (r) {
    verify("a 201-character query: the tool_result is a tool error the model can read",
      r.isError && r.text.includes("201 characters") && r.text.includes("limit is 200"), JSON.stringify(r.text));
  }
}

async function mcpList(env, home, addArgs) {
  const add = await run(opt.claude, ["mcp", "add", "-s", "user", ...addArgs], { env, cwd: home });
  verify(`claude mcp add ${addArgs.slice(0, 3).join(" ")}`, add.code === 0, (add.stdout + add.stderr).trim().split("\n")[0]);
  const list = await run(opt.claude, ["mcp", "list"], { env, cwd: home });
  const line = list.stdout.split("\n").find((l) => l.startsWith("practice-notes: ")) ?? list.stdout.trim();
  verify("claude mcp list says Connected", list.code === 0 && /practice-notes: .* - ✔ Connected$/.test(line), line);
}

try {
  const v = await run(opt.claude, ["--version"], { env: freshEnv().env });
  transport = "version";
  verify(`claude --version is ${version}`, v.stdout.trim() === `${version} (Claude Code)`, v.stdout.trim());

  transport = "stdio";
  {
    const entry = JSON.parse(readFileSync(opt.config, "utf8")).mcpServers["practice-notes"];
    const { env, home } = freshEnv();
    // The README's line: the block's command and args after "--".
    await mcpList(env, home, ["practice-notes", "--", entry.command, ...entry.args]);
  }
  {
    const { env, home } = freshEnv();
    // The block itself, unchanged, and nothing else.
    await loops(env, home, ["--mcp-config", opt.config, "--strict-mcp-config"]);
  }

  transport = "http";
  const server = spawn(opt.server, ["serve", "-http", "127.0.0.1:0", "-root", opt.root], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    const url = await new Promise((resolve, reject) => {
      let stderr = "";
      const timer = setTimeout(() => reject(new Error(`serve -http printed no url: ${stderr}`)), 10000);
      server.stderr.on("data", (b) => {
        stderr += b;
        const m = stderr.match(/url=(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const { env, home } = freshEnv();
    await mcpList(env, home, ["--transport", "http", "practice-notes", url]);
    // The server from the user config that "claude mcp add" wrote.
    await loops(env, home, []);
  } finally {
    server.kill("SIGTERM");
  }
} finally {
  await model.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
}

if (opt.evidence) {
  writeFileSync(opt.evidence, JSON.stringify({
    client: "Claude Code",
    version,
    commit: opt.commit,
    modified: opt.modified !== "false",
    date: new Date().toISOString(),
    model: "scripted stand-in for the Anthropic Messages API on loopback (tests/interop/model.mjs)",
    shown,
    checks: results,
  }, null, 2) + "\n");
}
summary();
