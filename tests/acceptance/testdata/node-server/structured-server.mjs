// A practice-notes MCP server written the way the official "Build a server"
// guide shows it: McpServer + registerTool + StdioServerTransport. Every
// search returns structuredContent in this server's own shape, declared as an
// outputSchema, plus a text block holding the same object as JSON. It is a
// test fixture for the acceptance harness.
//
//   node structured-server.mjs --root DIR [--defect NAME]
//   (the root may also come from the PRACTICE_NOTES_ROOT environment variable)
//
// Reply shape:
//   { results: [{ source, id?, text, line }], total, shown, note, not_searched: [{ file, reason }] }
//
// Without --defect the server follows the specification. Each --defect NAME
// switches on exactly one mistake learners make:
//   snippet          each text is cut to about 40 characters around the match
//   whole-file       each result's text is the whole file
//   per-file-limit   the 10-passage limit is applied per file, not in total
//   truncated-false  adds a field truncated that is always false
//   list-notes-tool  a second tool list_notes lists any folder (dir ".." too)
//   filename-match   a file or link whose name contains the query is a result,
//                    with the entry name as its text
//   abs-link-paths   the note lists the skipped symlinks with their resolved
//                    absolute targets
//
// stdout carries only MCP messages; diagnostics go to stderr. The process
// exits when stdin closes.
import fs from "node:fs";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const MAX_QUERY_CHARS = 200;
const MAX_FILE_BYTES = 102400;
const MAX_PASSAGES = 10;
const MAX_SKIPPED_SHOWN = 20;
const MAX_DEPTH = 64;
const SNIPPET_CHARS = 40;

const DEFECTS = [
  "snippet",
  "whole-file",
  "per-file-limit",
  "truncated-false",
  "list-notes-tool",
  "filename-match",
  "abs-link-paths",
];

// ---- command line -------------------------------------------------------

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rootArg = argValue("--root") ?? process.env.PRACTICE_NOTES_ROOT;
const defect = argValue("--defect") ?? "";

if (!rootArg) {
  console.error("usage: node structured-server.mjs --root DIR [--defect NAME]");
  process.exit(2);
}
if (defect && !DEFECTS.includes(defect)) {
  console.error(`unknown --defect ${defect}; known: ${DEFECTS.join(", ")}`);
  process.exit(2);
}

let root;
try {
  root = fs.realpathSync(path.resolve(rootArg));
  if (!fs.statSync(root).isDirectory()) throw new Error("not a directory");
} catch (err) {
  console.error(`the notes root cannot be used: ${err.code ?? err.message}`);
  process.exit(2);
}

// ---- reading the notes --------------------------------------------------

// Split a note into paragraphs. Blank lines and Markdown headings end a
// paragraph; a paragraph keeps its lines exactly as written, joined with the
// "\n" that separated them. The note ID is the N<digits> token that starts the
// nearest heading above the paragraph.
function splitParagraphs(text) {
  const paragraphs = [];
  let noteId = null;
  let current = null;

  const finish = () => {
    if (current) {
      const joined = current.lines.join("\n").replace(/\r$/, "");
      paragraphs.push({ noteId: current.noteId, line: current.line, text: joined });
    }
    current = null;
  };

  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") {
      finish();
      continue;
    }
    if (/^#{1,6}(?:[ \t]|$)/.test(line)) {
      finish();
      const m = /^#{1,6}[ \t]+(N\d+)(?![\p{L}\p{N}_])/u.exec(line);
      noteId = m ? m[1] : null;
      continue;
    }
    if (!current) current = { noteId, line: i + 1, lines: [] };
    current.lines.push(raw);
  }
  finish();
  return paragraphs;
}

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// Read one note that lstat already called a small regular file. The file is
// opened without following a final symlink and checked again on the open
// descriptor, in case it was swapped in between.
function readNote(full) {
  const fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) throw Object.assign(new Error("changed while reading"), { code: "CHANGED" });
    if (st.size > MAX_FILE_BYTES) {
      throw Object.assign(new Error("grew while reading"), { code: "CHANGED" });
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

// Walk the root (sorted, never following links) and hand every note that
// may be searched to visit(relName, text). onEntry(relName, name) sees every
// entry that is not a folder (only the filename-match defect uses it).
// Returns the files not searched.
function walkNotes(visit, onEntry = () => {}) {
  const skipped = [];
  const skip = (file, reason, linkPath) => skipped.push({ file, reason, linkPath });

  const walk = (relDir, depth) => {
    let names;
    try {
      names = fs.readdirSync(relDir ? path.join(root, relDir) : root).sort(byName);
    } catch (err) {
      skip(relDir || ".", `folder could not be read (${err.code ?? "error"})`);
      return;
    }
    for (const name of names) {
      const rel = relDir ? `${relDir}/${name}` : name;
      const full = path.join(root, rel);
      let st;
      try {
        st = fs.lstatSync(full);
      } catch (err) {
        skip(rel, `could not be examined (${err.code ?? "error"})`);
        continue;
      }
      if (st.isSymbolicLink()) {
        onEntry(rel, name);
        skip(rel, "symbolic link, not followed", full);
        continue;
      }
      if (st.isDirectory()) {
        if (depth >= MAX_DEPTH) skip(rel, "folder nested too deeply");
        else walk(rel, depth + 1);
        continue;
      }
      onEntry(rel, name);
      if (!name.endsWith(".md")) continue;
      if (!st.isFile()) {
        skip(rel, "not a regular file");
        continue;
      }
      if (st.nlink > 1) {
        skip(rel, "has more than one hard link");
        continue;
      }
      if (st.size > MAX_FILE_BYTES) {
        skip(rel, `over ${MAX_FILE_BYTES} bytes`);
        continue;
      }
      let text;
      try {
        const bytes = readNote(full);
        if (bytes.includes(0)) {
          skip(rel, "contains NUL bytes");
          continue;
        }
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch (err) {
        if (err instanceof TypeError) skip(rel, "not valid UTF-8 text");
        else skip(rel, `could not be read (${err.code ?? "error"})`);
        continue;
      }
      visit(rel, text);
    }
  };

  walk("", 0);
  return skipped;
}

// ---- searching ----------------------------------------------------------

// snippet defect: about 40 characters around the match, "…" where cut.
function snippetOf(text, needle) {
  const at = Math.max(0, text.toLowerCase().indexOf(needle));
  const width = Math.max(SNIPPET_CHARS, needle.length);
  let start = Math.max(0, at - Math.floor((width - needle.length) / 2));
  const end = Math.min(text.length, start + width);
  start = Math.max(0, end - width);
  return (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
}

// fold compares case as Unicode does closely enough for notes: lowercase,
// then the final sigma as the other sigma (toLowerCase keeps ς and σ apart).
const fold = (s) => s.toLowerCase().replaceAll("ς", "σ");

function searchNotes(query) {
  const needle = fold(query);
  const results = [];
  let total = 0;
  const add = (result, perFileCount) => {
    total++;
    const room = defect === "per-file-limit" ? perFileCount < MAX_PASSAGES : results.length < MAX_PASSAGES;
    if (room) results.push(result);
    return room;
  };

  const onEntry =
    defect === "filename-match"
      ? (rel, name) => {
          if (name.toLowerCase().includes(needle)) add({ source: rel, text: name, line: 0 }, 0);
        }
      : undefined;

  const skipped = walkNotes((file, text) => {
    let inFile = 0;
    for (const p of splitParagraphs(text)) {
      if (!fold(p.text).includes(needle)) continue;
      let shownText = p.text;
      if (defect === "snippet") shownText = snippetOf(p.text, needle);
      if (defect === "whole-file") shownText = text;
      const result = { source: file, ...(p.noteId ? { id: p.noteId } : {}), text: shownText, line: p.line };
      if (add(result, inFile)) inFile++;
    }
  }, onEntry);
  return { results, total, skipped };
}

// abs-link-paths defect: where each skipped link points, as an absolute path.
function linkTarget(linkPath) {
  try {
    return fs.realpathSync(linkPath);
  } catch {
    try {
      return path.resolve(path.dirname(linkPath), fs.readlinkSync(linkPath));
    } catch {
      return "?";
    }
  }
}

function buildReply(query, { results, total, skipped }) {
  let note;
  if (results.length === 0) note = `No matching passages for ${JSON.stringify(query)}.`;
  else if (total > results.length) note = `${total} passages matched; showing ${results.length}.`;
  else note = `${total} ${total === 1 ? "passage" : "passages"} matched.`;

  if (defect === "abs-link-paths") {
    const links = skipped.filter((s) => s.linkPath);
    if (links.length) note += ` skipped links: ${links.map((s) => `${s.file} -> ${linkTarget(s.linkPath)}`).join(", ")}`;
  }

  const reply = { results, total, shown: results.length, note };
  if (defect === "truncated-false") reply.truncated = false;
  reply.not_searched = skipped.slice(0, MAX_SKIPPED_SHOWN).map(({ file, reason }) => ({ file, reason }));
  return reply;
}

const refuse = (text) => ({ isError: true, content: [{ type: "text", text }] });

// ---- the server ---------------------------------------------------------

const server = new McpServer({ name: "practice-notes-structured", version: "1.0.0" });

const resultSchema = z.object({
  source: z.string().describe("the note file, relative to the notes folder"),
  id: z.string().optional().describe("the note ID, e.g. N2, when the passage sits under one"),
  text: z.string().describe("the matching paragraph, exactly as written"),
  line: z.number().int().describe("the line the paragraph starts on"),
});

const outputShape = {
  results: z.array(resultSchema),
  total: z.number().int().describe("how many passages matched in all"),
  shown: z.number().int().describe("how many are listed in results"),
  note: z.string(),
  not_searched: z.array(z.object({ file: z.string(), reason: z.string() })),
};
if (defect === "truncated-false") outputShape.truncated = z.boolean();

server.registerTool(
  "search_notes",
  {
    title: "Search practice notes",
    description:
      "Search the practice notes for a phrase (case-insensitive, literal text) and return the matching " +
      `paragraphs exactly as written, with their file and note ID. At most ${MAX_PASSAGES} passages.`,
    inputSchema: z.strictObject({
      query: z.string().describe(`the phrase to look for, 1 to ${MAX_QUERY_CHARS} characters`),
    }),
    outputSchema: outputShape,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async ({ query }) => {
    const length = [...query].length;
    if (query.trim() === "") {
      return refuse(`query is empty or only whitespace: give a phrase of 1 to ${MAX_QUERY_CHARS} characters to look for`);
    }
    if (length > MAX_QUERY_CHARS) {
      return refuse(`query is too long: ${length} characters, the limit is ${MAX_QUERY_CHARS}`);
    }
    try {
      const reply = buildReply(query, searchNotes(query));
      return { structuredContent: reply, content: [{ type: "text", text: JSON.stringify(reply) }] };
    } catch (err) {
      console.error("search failed:", err);
      return refuse("the search failed; see the server's log");
    }
  },
);

if (defect === "list-notes-tool") {
  server.registerTool(
    "list_notes",
    {
      title: "List notes",
      description: "List the notes in a folder of the practice notes.",
      inputSchema: { dir: z.string().describe("the folder to list") },
      annotations: { readOnlyHint: true },
    },
    async ({ dir }) => {
      try {
        return { content: [{ type: "text", text: fs.readdirSync(path.resolve(root, dir)).join("\n") }] };
      } catch (err) {
        return refuse(`cannot list ${dir}: ${err.message}`);
      }
    },
  );
}

const transport = new StdioServerTransport();
await server.connect(transport);
console.error(`practice-notes structured server ready${defect ? ` (defect: ${defect})` : ""}`);

// The stdio transport stops when stdin ends; make sure nothing else can keep
// the process running after that.
process.stdin.on("end", () => {
  setTimeout(() => process.exit(0), 2000).unref();
});
