// Drives "practice-notes serve -http 127.0.0.1:0" with the official
// TypeScript SDK's Streamable HTTP client, then checks that requests with a
// foreign Host or Origin are refused with 403.
//
// Usage: node http_client.mjs PRACTICE-NOTES-BINARY NOTES-FOLDER
import { spawn } from "node:child_process";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { check, summary, refusedRead } from "./checks.mjs";

const [bin, root] = process.argv.slice(2);
const server = spawn(bin, ["serve", "-http", "127.0.0.1:0", "-root", root], { stdio: ["ignore", "pipe", "pipe"] });
let stdout = "";
server.stdout.on("data", (b) => (stdout += b));
const exited = new Promise((resolve) => server.on("exit", (code, signal) => resolve({ code, signal })));

// The server logs where it listens; port 0 picks a free port.
const endpoint = await new Promise((resolve, reject) => {
  let stderr = "";
  const timer = setTimeout(() => reject(new Error(`no listening line on stderr: ${stderr}`)), 10000);
  server.stderr.on("data", (b) => {
    stderr += b;
    const m = stderr.match(/url=(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
});
check("serve -http listening", true, endpoint);

const transport = new StreamableHTTPClientTransport(new URL(endpoint));
const client = new Client({ name: "interop-http", version: "0" });
await client.connect(transport);
check("initialize over HTTP", client.getServerVersion()?.name === "practice-notes",
  `protocol ${transport.protocolVersion}, server ${JSON.stringify(client.getServerVersion())}`);

const { tools } = await client.listTools();
check("tools/list", tools.length === 1 && tools[0].name === "search_notes", tools.map((t) => t.name).join(", "));
const found = await client.callTool({ name: "search_notes", arguments: { query: "sign-in" } });
const m = found.structuredContent?.matches?.[0];
check("tools/call search_notes sign-in", !found.isError && m?.note_id === "N2", m && `${m.file}:${m.line} (${m.note_id})`);
const refused = await client.callTool({ name: "search_notes", arguments: { query: "q".repeat(201) } });
check("201-character query is isError", refused.isError === true, refused.content?.[0]?.text);
const read = await client.readResource({ uri: "practice-notes:///sample-notes.md" });
check("resources/read sample-notes.md", read.contents[0]?.text?.includes("## N2"), `${read.contents[0]?.text?.length} characters`);
await refusedRead(client, "practice-notes:///%2e%2e/%2e%2e/etc/passwd");
await client.close();

// raw posts an initialize request with extra headers and returns the status.
function raw(headers) {
  const url = new URL(endpoint);
  const body = JSON.stringify({
    jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    }, (res) => {
      let text = "";
      res.on("data", (b) => (text += b));
      res.on("end", () => resolve({ status: res.statusCode, text: text.trim() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
const port = new URL(endpoint).port;
for (const [name, headers, want] of [
  ["same-origin request", { Origin: `http://127.0.0.1:${port}` }, 200],
  ["foreign Host", { Host: `evil.example:${port}` }, 403],
  ["foreign Origin", { Origin: "http://evil.example" }, 403],
  ["Origin of another local port", { Origin: "http://localhost:3000" }, 403],
]) {
  const res = await raw(headers);
  check(`${name} -> ${want}`, res.status === want, `${res.status} ${want === 200 ? "" : res.text}`);
}

server.kill("SIGTERM");
const { code, signal } = await exited;
check("server stopped on SIGTERM", code === 0 && signal === null, `exit code ${code}`);
check("nothing on stdout", stdout === "", JSON.stringify(stdout));
summary();
