// Drives practice-notes over stdio with the official TypeScript SDK, starting
// it exactly as a desktop client would from the config block that
// "practice-notes config -client claude" printed.
//
// Usage: node stdio_client.mjs CONFIG.json
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { check, summary, refusedRead } from "./checks.mjs";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const entry = config.mcpServers["practice-notes"];

const transport = new StdioClientTransport({
  command: entry.command,
  args: entry.args,
  cwd: "/", // not the repository: the block must not depend on it
  stderr: "pipe",
});
let serverStderr = "";
transport.stderr.on("data", (b) => (serverStderr += b));

const client = new Client({ name: "interop-stdio", version: "0" });
await client.connect(transport);
const pid = transport.pid;
check("initialize", client.getServerVersion()?.name === "practice-notes",
  `server ${JSON.stringify(client.getServerVersion())}, capabilities ${JSON.stringify(client.getServerCapabilities())}`);

const { tools } = await client.listTools();
check("tools/list", tools.length === 1 && tools[0].name === "search_notes",
  tools.map((t) => `${t.name} readOnlyHint=${t.annotations?.readOnlyHint}`).join(", "));

const found = await client.callTool({ name: "search_notes", arguments: { query: "sign-in" } });
const m = found.structuredContent?.matches?.[0];
check("tools/call search_notes sign-in", !found.isError && m?.note_id === "N2",
  m && `${m.file}:${m.line} (${m.note_id}) ${JSON.stringify(m.passage.split("\n")[0])}`);

const refused = await client.callTool({ name: "search_notes", arguments: { query: "q".repeat(201) } });
check("201-character query is isError", refused.isError === true, refused.content?.[0]?.text);

const { resources } = await client.listResources();
check("resources/list", resources.some((r) => r.uri === "practice-notes:///sample-notes.md"),
  resources.map((r) => r.uri).join(", "));
const read = await client.readResource({ uri: "practice-notes:///sample-notes.md" });
check("resources/read sample-notes.md", read.contents[0]?.text?.includes("## N2"),
  `${read.contents[0]?.text?.length} characters, ${read.contents[0]?.mimeType}`);
await refusedRead(client, "practice-notes:///..%2F..%2Fetc%2Fpasswd");
await refusedRead(client, "practice-notes:///%252e%252e%252fetc%252fpasswd");

const started = Date.now();
await client.close();
const ms = Date.now() - started;
let alive = true;
try {
  process.kill(pid, 0);
} catch {
  alive = false;
}
// The transport closes stdin and sends SIGTERM only after 2 s: a quick
// close means the server exited on its own at end of input.
check("server exited after stdin closed", !alive && ms < 2000, `pid ${pid} gone ${ms} ms after close`);
// At the default level the audit log on stderr holds the refusals only.
const logLines = serverStderr.trim().split("\n").filter(Boolean);
check("stderr holds only the refusals, at warn", logLines.length === 3 &&
  logLines.every((l) => l.includes("level=WARN msg=call") && !l.includes("qqqq")),
  "\n      " + logLines.join("\n      "));
summary();
