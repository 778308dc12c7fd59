// A practice-notes MCP server in JavaScript, using the official TypeScript
// SDK over stdio. It exists to show that scripts/acceptance.sh --server can
// grade a server in another language: it returns text content only (no
// structuredContent), so the harness grades it on text.
//
//   node server.mjs --root DIR      (or PRACTICE_NOTES_ROOT=DIR node server.mjs)
//        [--chatty] [--style text|pretty|blocks] [--defect regex|write-tool|readonly-false]
//
// stdout carries only MCP messages; diagnostics go to stderr (--chatty logs
// every query there). --style chooses how passages are laid out; --defect
// switches on one mistake learners make, for the harness's own tests. The
// process exits when stdin closes.
import fs from "node:fs";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const FILE_LIMIT = 102400;
const MAX_QUERY = 200;
const MAX_PASSAGES = 10;
const MAX_SKIPPED = 20;

const argv = process.argv.slice(2);
const at = argv.indexOf("--root");
const rootArg = at >= 0 ? argv[at + 1] : process.env.PRACTICE_NOTES_ROOT;
const opt = (name, def) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : def);
const chatty = argv.includes("--chatty");
const style = opt("--style", "text");
const defect = opt("--defect", "");
if (!rootArg) {
  console.error("usage: node server.mjs --root DIR");
  process.exit(2);
}
const root = fs.realpathSync(path.resolve(rootArg));

// readNoFollow opens a file without following a final symlink and checks it
// is a small regular file with a single link.
function readNoFollow(full) {
  const fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink > 1 || st.size > FILE_LIMIT) {
      throw new Error("not a small regular file");
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

// paragraphs splits text at blank lines and headings, keeping each
// paragraph byte-for-byte with its first line number and note id.
function paragraphs(text) {
  const out = [];
  let note = "";
  let cur = null;
  const flush = () => {
    if (cur) out.push({ note: cur.note, line: cur.line, text: cur.lines.join("\n") });
    cur = null;
  };
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return flush();
    const heading = /^#{1,6}[ \t]/.test(line);
    if (heading) {
      flush();
      const m = /^#{1,6}[ \t]+(N\d+)\b/.exec(line);
      note = m ? m[1] : "";
      return;
    }
    if (!cur) cur = { note, line: i + 1, lines: [] };
    cur.lines.push(raw);
  });
  flush();
  return out;
}

// fold compares case as Unicode does closely enough for notes: lowercase,
// then the final sigma as the other sigma (toLowerCase keeps ς and σ apart).
const fold = (s) => s.toLowerCase().replaceAll("ς", "σ");

function search(query) {
  const low = fold(query);
  const matches = [];
  const skipped = [];
  let truncated = false;
  const skip = (file, reason) => {
    if (skipped.length < MAX_SKIPPED) skipped.push({ file, reason });
  };
  const walk = (dir, depth) => {
    if (depth > 20 || truncated) return;
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (truncated) return;
      const rel = dir ? `${dir}/${e.name}` : e.name;
      const full = path.join(root, rel);
      let st;
      try {
        st = fs.lstatSync(full);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) {
        skip(rel, "symbolic link");
        continue;
      }
      if (st.isDirectory()) {
        walk(rel, depth + 1);
        continue;
      }
      if (!/\.(md|markdown|txt)$/i.test(e.name)) continue;
      if (!st.isFile()) {
        skip(rel, "not a regular file");
        continue;
      }
      if (st.size > FILE_LIMIT) {
        skip(rel, "larger than the 100 KiB file limit");
        continue;
      }
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(readNoFollow(full));
      } catch {
        skip(rel, "unreadable or not UTF-8 text");
        continue;
      }
      if (text.includes("\0")) {
        skip(rel, "contains NUL bytes");
        continue;
      }
      for (const p of paragraphs(text)) {
        const hit = defect === "regex" ? new RegExp(query, "i").test(p.text) : fold(p.text).includes(low);
        if (!hit) continue;
        if (matches.length === MAX_PASSAGES) {
          truncated = true;
          return;
        }
        matches.push({ file: rel, ...p });
      }
    }
  };
  walk("", 0);
  return { matches, skipped, truncated };
}

function render(query, { matches, skipped, truncated }) {
  const q = JSON.stringify(query);
  if (matches.length === 0) return `No notes matched ${q}.`;
  if (style === "pretty") {
    return JSON.stringify({ query, matches, truncated, skipped, message: `${matches.length} passage(s) matched.` }, null, 2);
  }
  const head = matches.length === 1 ? `1 passage matched ${q}.` : `${matches.length} passages matched ${q}.`;
  const body = matches.map((m) => `${m.file}${m.note ? ` (${m.note})` : ""}, line ${m.line}:\n${m.text}`);
  const tail = [];
  if (truncated) tail.push(`Showing the first ${MAX_PASSAGES} passages; more matched.`);
  if (skipped.length) tail.push(`Not searched: ${skipped.map((s) => `${s.file} (${s.reason})`).join(", ")}.`);
  return [head, ...body, ...tail].join("\n\n");
}

const server = new McpServer({ name: "practice-notes-node-demo", version: "0.0.1" });
server.registerTool(
  "search_notes",
  {
    description: "Search the practice notes for a phrase (case-insensitive) and quote matching passages.",
    inputSchema: { query: z.string().describe("phrase to look for, 1 to 200 characters") },
    annotations:
      defect === "readonly-false"
        ? { readOnlyHint: false }
        : { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  async ({ query }) => {
    if (chatty) console.error(`[search_notes] query=${query}`);
    const n = [...query].length;
    if (n === 0 || n > MAX_QUERY) {
      return { isError: true, content: [{ type: "text", text: `Query is ${n} characters long; it must be 1 to ${MAX_QUERY}.` }] };
    }
    let found;
    try {
      found = search(query);
    } catch (e) {
      return { isError: true, content: [{ type: "text", text: `Search failed: ${e.message}` }] };
    }
    if (style === "blocks" && found.matches.length > 0) {
      return {
        content: found.matches.map((m) => ({ type: "text", text: `${m.file}${m.note ? ` (${m.note})` : ""}, line ${m.line}:\n${m.text}` })),
      };
    }
    return { content: [{ type: "text", text: render(query, found) }] };
  },
);
if (defect === "write-tool") {
  server.registerTool(
    "write_note",
    { description: "Write a note into the practice folder.", inputSchema: { name: z.string(), text: z.string() } },
    async ({ name, text }) => ({ content: [{ type: "text", text: `would write ${name} (${text.length} bytes)` }] }),
  );
}

await server.connect(new StdioServerTransport());
console.error(`practice-notes node demo serving ${root}`);
