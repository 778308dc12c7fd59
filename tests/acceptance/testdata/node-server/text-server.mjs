// A practice-notes MCP server written the way the official "Build a server"
// guide shows it: McpServer + registerTool + StdioServerTransport. It answers
// in plain text only (no outputSchema, no structuredContent). It is a test
// fixture for the acceptance harness.
//
//   node text-server.mjs --root DIR [--defect NAME]
//   (the root may also come from the PRACTICE_NOTES_ROOT environment variable)
//
// Without --defect the server follows the specification. Each --defect NAME
// switches on exactly one mistake learners make:
//   first-line            each passage is only the paragraph's first line
//   ellipsis              each passage is its first 8 words followed by "..."
//   lowercase             each passage is returned lower-cased
//   no-note-id            the note ID is never named in the reply
//   not-searched-message  a search that finds nothing only says how many files
//                         were not searched, not that nothing matched
//   star-lists-all        the query "*" lists every note file name
//   char-limit            the file size limit counts characters, not bytes
//   read-note-tool        a second tool read_note reads any path (follows
//                         symlinks, allows ../ and absolute paths)
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

const DEFECTS = [
  "first-line",
  "ellipsis",
  "lowercase",
  "no-note-id",
  "not-searched-message",
  "star-lists-all",
  "char-limit",
  "read-note-tool",
];

// ---- command line -------------------------------------------------------

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rootArg = argValue("--root") ?? process.env.PRACTICE_NOTES_ROOT;
const defect = argValue("--defect") ?? "";

if (!rootArg) {
  console.error("usage: node text-server.mjs --root DIR [--defect NAME]");
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
    if (defect !== "char-limit" && st.size > MAX_FILE_BYTES) {
      throw Object.assign(new Error("grew while reading"), { code: "CHANGED" });
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

// Walk the root (sorted, never following links) and hand every note that
// may be searched to visit(relName, text). Returns the files not searched.
function walkNotes(visit) {
  const skipped = [];
  const skip = (file, reason) => skipped.push({ file, reason });

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
        skip(rel, "symbolic link, not followed");
        continue;
      }
      if (st.isDirectory()) {
        if (depth >= MAX_DEPTH) skip(rel, "folder nested too deeply");
        else walk(rel, depth + 1);
        continue;
      }
      if (!name.endsWith(".md")) continue;
      if (!st.isFile()) {
        skip(rel, "not a regular file");
        continue;
      }
      if (st.nlink > 1) {
        skip(rel, "has more than one hard link");
        continue;
      }
      if (defect !== "char-limit" && st.size > MAX_FILE_BYTES) {
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
      if (defect === "char-limit" && [...text].length > MAX_FILE_BYTES) {
        skip(rel, `over ${MAX_FILE_BYTES} characters`);
        continue;
      }
      visit(rel, text);
    }
  };

  walk("", 0);
  return skipped;
}

// fold compares case as Unicode does closely enough for notes: lowercase,
// then the final sigma as the other sigma (toLowerCase keeps ς and σ apart).
const fold = (s) => s.toLowerCase().replaceAll("ς", "σ");

function searchNotes(query) {
  const needle = fold(query);
  const results = [];
  let total = 0;
  const skipped = walkNotes((file, text) => {
    for (const p of splitParagraphs(text)) {
      if (!fold(p.text).includes(needle)) continue;
      total++;
      if (results.length < MAX_PASSAGES) results.push({ file, ...p });
    }
  });
  return { results, total, skipped };
}

function listNoteFiles() {
  const files = [];
  const skipped = walkNotes((file) => files.push(file));
  return { files, skipped };
}

// ---- replies ------------------------------------------------------------

function showPassage(text) {
  switch (defect) {
    case "first-line":
      return text.split("\n")[0].replace(/\r$/, "");
    case "ellipsis":
      return text.split(/\s+/).filter(Boolean).slice(0, 8).join(" ") + "...";
    case "lowercase":
      return text.toLowerCase();
    default:
      return text;
  }
}

function notSearchedLine(skipped) {
  if (skipped.length === 0) return null;
  const shown = skipped.slice(0, MAX_SKIPPED_SHOWN).map((s) => `${s.file} (${s.reason})`);
  const more = skipped.length > MAX_SKIPPED_SHOWN ? ` and ${skipped.length - MAX_SKIPPED_SHOWN} more` : "";
  return `Not searched: ${shown.join(", ")}${more}`;
}

function formatReply(query, { results, total, skipped }) {
  const q = JSON.stringify(query);
  const parts = [];
  if (results.length === 0) {
    if (defect === "not-searched-message") {
      return `Searched the notes. ${skipped.length} files were not searched.`;
    }
    parts.push(`No notes matched ${q}.`);
  } else {
    parts.push(`Found ${total} ${total === 1 ? "passage" : "passages"} for ${q}:`);
    for (const r of results) {
      const label = r.noteId && defect !== "no-note-id" ? `${r.file} (${r.noteId}):` : `${r.file}:`;
      parts.push(`${label}\n${showPassage(r.text)}`);
    }
    if (total > results.length) parts.push(`Showing the first ${results.length} of ${total} passages.`);
  }
  const notSearched = notSearchedLine(skipped);
  if (notSearched) parts.push(notSearched);
  return parts.join("\n\n");
}

const textReply = (text) => ({ content: [{ type: "text", text }] });
const refuse = (text) => ({ isError: true, content: [{ type: "text", text }] });

// ---- the server ---------------------------------------------------------

const server = new McpServer({ name: "practice-notes-text", version: "1.0.0" });

server.registerTool(
  "search_notes",
  {
    title: "Search practice notes",
    description:
      "Search the practice notes for a phrase (case-insensitive, literal text) and quote the matching " +
      `paragraphs exactly as written, with their file and note ID. At most ${MAX_PASSAGES} passages.`,
    inputSchema: z.strictObject({
      query: z.string().describe(`the phrase to look for, 1 to ${MAX_QUERY_CHARS} characters`),
    }),
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
      if (defect === "star-lists-all" && query === "*") {
        const { files } = listNoteFiles();
        return textReply(files.join("\n"));
      }
      return textReply(formatReply(query, searchNotes(query)));
    } catch (err) {
      console.error("search failed:", err);
      return refuse("the search failed; see the server's log");
    }
  },
);

if (defect === "read-note-tool") {
  server.registerTool(
    "read_note",
    {
      title: "Read a note",
      description: "Return the full text of one note file.",
      inputSchema: { path: z.string().describe("the note's path") },
      annotations: { readOnlyHint: true },
    },
    async ({ path: notePath }) => {
      try {
        return textReply(fs.readFileSync(path.resolve(root, notePath), "utf8"));
      } catch (err) {
        return refuse(`cannot read ${notePath}: ${err.message}`);
      }
    },
  );
}

const transport = new StdioServerTransport();
await server.connect(transport);
console.error(`practice-notes text server ready${defect ? ` (defect: ${defect})` : ""}`);

// The stdio transport stops when stdin ends; make sure nothing else can keep
// the process running after that.
process.stdin.on("end", () => {
  setTimeout(() => process.exit(0), 2000).unref();
});
