#!/usr/bin/env node
// practice-notes MCP server in plain Node.js: no SDK, no dependencies,
// newline-delimited JSON-RPC on stdin/stdout written by hand.
//
//   node server.js --vault ROOT [--echo] [--defect NAME]
//
// search_notes(query, folder?) answers with one text block per passage,
// each a JSON object {path, noteId, preview}; the optional folder narrows
// the search to a sub-folder of the vault. No resources. Without --defect
// the server follows the specification; each --defect switches on one
// mistake. --echo words replies the way many servers do, still correctly:
// "no passage matched “QUERY”", and refusals that repeat the argument.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const FILE_LIMIT = 102400;
const QUERY_LIMIT = 200;
const RESULT_LIMIT = 10;
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const DEFECTS = {
  'any-word': 'a paragraph matches when it contains any word of the query',
  'folder-startswith': 'checks the folder argument with path.resolve(root, folder).startsWith(root)',
  'folder-unchecked': 'resolves the folder argument against the vault and never checks where it lands',
  'lowercase': 'compares toLowerCase() copies instead of case-folding',
  'notify-error': 'answers a notification it does not know with an error reply that has no id',
  'utf16-limit': 'counts the query limit with .length, in UTF-16 code units',
};

function parseArgs(argv) {
  const out = { vault: '', defect: '', echo: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--vault') out.vault = argv[++i] || '';
    else if (argv[i] === '--defect') out.defect = argv[++i] || '';
    else if (argv[i] === '--echo') out.echo = true;
    else {
      process.stderr.write(`unknown argument ${argv[i]}\n`);
      process.exit(2);
    }
  }
  if (!out.vault || (out.defect && !DEFECTS[out.defect])) {
    process.stderr.write(`usage: node server.js --vault ROOT [--echo] [--defect ${Object.keys(DEFECTS).join('|')}]\n`);
    process.exit(2);
  }
  return out;
}

const opts = parseArgs(process.argv.slice(2));
const ROOT = fs.realpathSync(opts.vault);
const DEFECT = opts.defect;
const ECHO = opts.echo;
const utf8 = new TextDecoder('utf-8', { fatal: true });

class ToolError extends Error {}

// fold makes two strings comparable without capitalization: lowercase,
// then the final sigma, which toLowerCase keeps apart, joins σ.
function fold(s) {
  const lower = s.toLowerCase();
  return DEFECT === 'lowercase' ? lower : lower.replace(/ς/g, 'σ');
}

function squash(s) {
  return fold(s).split(/\s+/u).filter(Boolean).join(' ');
}

// The directory to search: the vault, or a sub-folder of it reached
// without a link and without leaving it.
function searchDir(folder) {
  if (folder === undefined || folder === null || folder === '' || folder === '.') return ROOT;
  if (typeof folder !== 'string') throw new ToolError('folder must be a string');
  if (DEFECT === 'folder-unchecked') return path.resolve(ROOT, folder);
  if (DEFECT === 'folder-startswith') {
    const dir = path.resolve(ROOT, folder);
    if (!dir.startsWith(ROOT)) throw new ToolError('folder is outside the vault');
    return dir;
  }
  const parts = folder.replace(/\\/g, '/').replace(/\/+$/, '').split('/');
  if (path.isAbsolute(folder) || folder.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new ToolError(ECHO ? `not a sub-folder of the vault: ${folder}` : 'folder must be a sub-folder of the vault, written relative to it');
  }
  let dir = ROOT;
  for (const p of parts) {
    dir = path.join(dir, p);
    let st;
    try {
      st = fs.lstatSync(dir);
    } catch {
      throw new ToolError('no such folder in the vault');
    }
    if (!st.isDirectory()) throw new ToolError('no such folder in the vault');
  }
  return dir;
}

// notes lists the regular .md files under dir, sorted, without following
// a link.
function notes(dir) {
  const out = [];
  const visit = (d) => {
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) visit(full);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(full);
    }
  };
  visit(dir);
  return out;
}

function readNote(full) {
  const st = fs.lstatSync(full);
  if (!st.isFile() || st.nlink > 1 || st.size > FILE_LIMIT) return null;
  const fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  let buf;
  try {
    buf = Buffer.alloc(FILE_LIMIT + 1);
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > FILE_LIMIT) return null;
    }
    buf = buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
  if (buf.includes(0)) return null;
  try {
    return utf8.decode(buf);
  } catch {
    return null;
  }
}

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

function paragraphs(text) {
  const out = [];
  let start = -1;
  let end = 0;
  let note = null;
  let pos = 0;
  const flush = () => {
    if (start >= 0) out.push({ text: text.slice(start, end), note });
    start = -1;
  };
  for (const line of text.split('\n')) {
    const lineStart = pos;
    pos += line.length + 1;
    const body = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (/^[ \t\r]*$/.test(body)) {
      flush();
    } else if (HEADING.test(body)) {
      flush();
      const m = /\bN\d+\b/.exec(body);
      note = m ? m[0] : null;
      out.push({ text: body, note });
    } else {
      if (start < 0) start = lineStart;
      end = lineStart + body.length;
    }
  }
  flush();
  return out;
}

function matches(para, query) {
  if (DEFECT === 'any-word') {
    const hay = fold(para);
    return fold(query).split(/\s+/u).filter(Boolean).some((w) => hay.includes(w));
  }
  return squash(para).includes(squash(query));
}

function searchNotes(args) {
  for (const key of Object.keys(args)) {
    if (key !== 'query' && key !== 'folder') throw new ToolError(`unexpected argument "${key}"; the vault is fixed when the server starts`);
  }
  const { query, folder } = args;
  if (typeof query !== 'string') throw new ToolError('query must be a string');
  if (query.trim() === '') throw new ToolError('query is empty');
  const length = DEFECT === 'utf16-limit' ? query.length : [...query].length;
  if (length > QUERY_LIMIT) throw new ToolError(`query is longer than ${QUERY_LIMIT} characters`);
  const dir = searchDir(folder);
  const blocks = [];
  let unreadable = 0;
  let more = false;
  outer: for (const full of notes(dir)) {
    let text;
    try {
      text = readNote(full);
    } catch {
      unreadable++;
      continue;
    }
    if (text === null) continue;
    const rel = path.relative(ROOT, full).split(path.sep).join('/');
    for (const p of paragraphs(text)) {
      if (!matches(p.text, query)) continue;
      if (blocks.length === RESULT_LIMIT) {
        more = true;
        break outer;
      }
      blocks.push({ type: 'text', text: JSON.stringify({ path: rel, noteId: p.note, preview: p.text }) });
    }
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: ECHO ? `no passage matched “${query}”` : 'No matching passages.' });
  if (more) blocks.push({ type: 'text', text: `Stopped at ${RESULT_LIMIT} passages; there are more.` });
  if (unreadable) blocks.push({ type: 'text', text: `${unreadable} note(s) could not be read and were skipped.` });
  return blocks;
}

const TOOLS = [
  {
    name: 'search_notes',
    description: 'Case-insensitive phrase search over the practice notes. Each passage comes back as its own text block: {path, noteId, preview}.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'the phrase to find (max 200 characters)' },
        folder: { type: 'string', description: 'optional sub-folder of the vault to search, e.g. "extra"' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
];

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

function onMessage(msg) {
  const hasId = Object.prototype.hasOwnProperty.call(msg, 'id');
  const reply = (result) => send({ jsonrpc: '2.0', id: msg.id, result });
  const fail = (code, message) => send({ jsonrpc: '2.0', id: msg.id, error: { code, message } });
  const params = msg.params && typeof msg.params === 'object' ? msg.params : {};
  switch (msg.method) {
    case 'initialize':
      return reply({
        protocolVersion: VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : VERSIONS[0],
        capabilities: { tools: {} },
        serverInfo: { name: 'noderaw-notes', version: '0.3.0' },
      });
    case 'notifications/initialized':
    case 'notifications/cancelled':
      if (DEFECT === 'notify-error') break; // forgotten: falls to the default answer
      return;
    case 'ping':
      return reply({});
    case 'tools/list':
      return reply({ tools: TOOLS });
    case 'tools/call': {
      if (params.name !== 'search_notes') return fail(-32602, `unknown tool ${JSON.stringify(params.name)}`);
      const args = params.arguments === undefined ? {} : params.arguments;
      if (!args || typeof args !== 'object' || Array.isArray(args)) return fail(-32602, 'arguments must be an object');
      try {
        return reply({ content: searchNotes(args) });
      } catch (e) {
        if (e instanceof ToolError) return reply({ content: [{ type: 'text', text: e.message }], isError: true });
        process.stderr.write(`noderaw: ${e && e.name}\n`);
        return fail(-32603, 'internal error');
      }
    }
    default:
      if (!hasId && DEFECT !== 'notify-error') return; // notifications get no answer
      return fail(-32601, `method not found: ${msg.method}`);
  }
  if (!hasId && DEFECT !== 'notify-error') return;
  return fail(-32601, `method not found: ${msg.method}`);
}

process.stderr.write(`noderaw: vault ${ROOT}${DEFECT ? ` (defect ${DEFECT})` : ''}\n`);
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.method !== 'string') {
    if (msg && typeof msg === 'object' && ('result' in msg || 'error' in msg)) return;
    return send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
  }
  onMessage(msg);
});
rl.on('close', () => process.exit(0));
