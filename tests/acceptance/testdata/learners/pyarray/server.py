#!/usr/bin/env python3
"""practice-notes over stdio, Python 3.11 standard library only.

    python3 server.py ROOT [--defect NAME]

A search answers with one text block holding a JSON array of entries,
each naming its note root-relative with a leading slash, the way
Obsidian-style servers write vault paths:

    [{"file": "/sample-notes.md", "note": "N2", "excerpt": "..."}]

Notes are also offered as resources under a scheme of the server's own,
notes:///<path>. Without --defect the server follows the specification;
each --defect switches on one mistake.
"""
import argparse
import json
import os
import re
import stat
import sys

FILE_LIMIT = 102400
QUERY_LIMIT = 200
PASSAGE_LIMIT = 10
VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
SCHEME = "notes:///"

DEFECTS = {
    "latin1": "decodes notes as Latin-1 instead of UTF-8",
    "read-note-links": "offers an unannotated read_note(path) tool that refuses .. and absolute paths but follows symlinks",
    "read-notes-links": "the same, as read_notes(paths) taking an array of paths",
    "slice-offsets": "finds the match in a lowercased copy of the note and slices the original at the copy's offsets",
    "home-cache": "writes an index cache under $HOME/.cache",
}

parser = argparse.ArgumentParser()
parser.add_argument("root")
parser.add_argument("--defect", default="", choices=[""] + sorted(DEFECTS))
opts = parser.parse_args()
ROOT = os.path.realpath(opts.root)
DEFECT = opts.defect

HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
NOTE_ID = re.compile(r"\bN\d+\b")


def log(*parts):
    print("pyarray:", *parts, file=sys.stderr, flush=True)


class Refused(Exception):
    """A request the server will not carry out; its text is safe to show."""


def decode(data):
    if b"\x00" in data:
        return None
    if DEFECT == "latin1":
        return data.decode("latin-1")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_regular(full):
    """Return the text of a regular, single-link, small UTF-8 file, or None.
    Raises OSError when the file cannot be read."""
    st = os.lstat(full)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1 or st.st_size > FILE_LIMIT:
        return None
    fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        data = f.read(FILE_LIMIT + 1)
    if len(data) > FILE_LIMIT:
        return None
    return decode(data)


def walk():
    """Yield (relative path, full path) of every regular note, sorted, never
    through a link."""
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        try:
            names = sorted(os.listdir(os.path.join(ROOT, rel_dir)), reverse=True)
        except OSError:
            continue
        subdirs = []
        files = []
        for name in sorted(names):
            rel = name if not rel_dir else rel_dir + "/" + name
            full = os.path.join(ROOT, rel)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                subdirs.append(rel)
            elif stat.S_ISREG(st.st_mode) and name.endswith(".md"):
                files.append((rel, full))
        yield from files
        stack.extend(reversed(subdirs))


def paragraphs(text):
    """Yield (start, end, note id) of every paragraph: runs of non-blank
    lines, a heading line on its own; end excludes the final line ending."""
    spans = []
    pos = 0
    cur = None
    for line in text.split("\n"):
        start = pos
        pos += len(line) + 1
        body = line[:-1] if line.endswith("\r") else line
        end = start + len(body)
        if body.strip(" \t\r") == "":
            if cur:
                spans.append(cur)
                cur = None
            continue
        if HEADING.match(body):
            if cur:
                spans.append(cur)
            spans.append([start, end, True])
            cur = None
            continue
        if cur:
            cur[1] = end
        else:
            cur = [start, end, False]
    if cur:
        spans.append(cur)
    note = None
    for start, end, heading in spans:
        if heading:
            m = NOTE_ID.search(text[start:end])
            note = m.group(0) if m else None
        yield start, end, note


def fold(s):
    return " ".join(s.casefold().split())


def sliced_hits(text, query):
    """The slice-offsets defect: find in a lowercased copy, cut the original."""
    low = text.lower()
    q = query.lower()
    at = low.find(q)
    seen = set()
    while at >= 0:
        before = [m.end() for m in re.finditer(r"\n[ \t\r]*\n", low[:at])]
        start = before[-1] if before else 0
        after = re.search(r"\r?\n[ \t\r]*\n|\r?\n?$", low[at:])
        end = at + after.start()
        if start not in seen:
            seen.add(start)
            ids = NOTE_ID.findall(text[:start])
            yield text[start:end], ids[-1] if ids else None
        at = low.find(q, end)


def search(query):
    q = fold(query)
    hits, unreadable, more = [], 0, False
    for rel, full in walk():
        try:
            text = read_regular(full)
        except OSError:
            unreadable += 1
            continue
        if text is None:
            continue
        if DEFECT == "slice-offsets":
            found = sliced_hits(text, query)
        else:
            found = ((text[s:e], note) for s, e, note in paragraphs(text) if q in fold(text[s:e]))
        for passage, note in found:
            if len(hits) == PASSAGE_LIMIT:
                more = True
                break
            hits.append({"file": "/" + rel, "note": note, "excerpt": passage})
        if more:
            break
    if DEFECT == "home-cache":
        cache = os.path.join(os.path.expanduser("~"), ".cache", "pyarray-notes")
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, "last-search.json"), "w", encoding="utf-8") as f:
            json.dump({"query": query, "files": [h["file"] for h in hits]}, f)
    return hits, unreadable, more


def text_block(s):
    return {"type": "text", "text": s}


def call_search(arguments):
    extra = sorted(set(arguments) - {"query"})
    if extra:
        raise Refused("unknown argument %s: this server searches only its own practice folder" % json.dumps(extra[0]))
    query = arguments.get("query")
    if not isinstance(query, str):
        raise Refused("query must be a string")
    if not query.strip():
        raise Refused("query must not be empty")
    if len(query) > QUERY_LIMIT:
        raise Refused("query is %d characters long; the limit is %d" % (len(query), QUERY_LIMIT))
    hits, unreadable, more = search(query)
    blocks = [text_block(json.dumps(hits, ensure_ascii=False))]
    if not hits:
        blocks.append(text_block("No matches found."))
    if more:
        blocks.append(text_block("Showing the first %d passages; more matched." % PASSAGE_LIMIT))
    if unreadable:
        blocks.append(text_block("%d file(s) could not be read and were not searched." % unreadable))
    return blocks


def call_read_note(arguments):
    path = arguments.get("path")
    if not isinstance(path, str) or not path:
        raise Refused("path must be a non-empty string")
    if os.path.isabs(path) or ".." in path.replace("\\", "/").split("/"):
        raise Refused("path must be relative to the notes folder, without ..")
    full = os.path.join(ROOT, path)
    try:
        with open(full, "rb") as f:  # the defect: a link is followed
            data = f.read(FILE_LIMIT + 1)
    except OSError:
        raise Refused("cannot read that note")
    if len(data) > FILE_LIMIT:
        raise Refused("note is larger than the limit")
    text = decode(data)
    if text is None:
        raise Refused("not a text note")
    return [text_block(text)]


def call_read_notes(arguments):
    paths = arguments.get("paths")
    if not isinstance(paths, list) or not paths:
        raise Refused("paths must be a non-empty array of paths")
    blocks = []
    for path in paths:
        blocks.extend(call_read_note({"path": path}))
    return blocks


def safe_rel(rel):
    """Resolve a root-relative name to its full path without following a
    link, or raise Refused."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts):
        raise Refused("not a note of this folder")
    full = ROOT
    for i, p in enumerate(parts):
        full = os.path.join(full, p)
        try:
            st = os.lstat(full)
        except OSError:
            raise Refused("not a note of this folder")
        if stat.S_ISLNK(st.st_mode) or (i < len(parts) - 1 and not stat.S_ISDIR(st.st_mode)):
            raise Refused("not a note of this folder")
    return full


TOOLS = [{
    "name": "search_notes",
    "description": "Search the practice notes for a phrase, ignoring capitalization. Returns a JSON array of {file, note, excerpt}.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "phrase to find, at most 200 characters"}},
        "required": ["query"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
}]
if DEFECT == "read-note-links":
    TOOLS.append({
        "name": "read_note",
        "description": "Return the whole text of one note, by its path in the notes folder.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    })
if DEFECT == "read-notes-links":
    TOOLS.append({
        "name": "read_notes",
        "description": "Return the whole text of each note named, by its path in the notes folder.",
        "inputSchema": {"type": "object", "properties": {"paths": {"type": "array", "items": {"type": "string"}}}, "required": ["paths"]},
    })
HANDLERS = {"search_notes": call_search, "read_note": call_read_note, "read_notes": call_read_notes}


def list_resources():
    out = []
    for rel, full in walk():
        try:
            if read_regular(full) is None:
                continue
        except OSError:
            continue
        out.append({"uri": SCHEME + rel, "name": rel, "mimeType": "text/markdown"})
    return {"resources": out}


def read_resource(params):
    uri = params.get("uri")
    if not isinstance(uri, str) or not uri.startswith(SCHEME):
        return None
    try:
        full = safe_rel(uri[len(SCHEME):])
        text = read_regular(full)
    except (Refused, OSError):
        return None
    if text is None:
        return None
    return {"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}


def handle(msg):
    method = msg.get("method")
    params = msg.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {"result": {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "pyarray-notes", "version": "1.0.0"},
        }}
    if method == "ping":
        return {"result": {}}
    if method == "tools/list":
        return {"result": {"tools": TOOLS}}
    if method == "resources/list":
        return {"result": list_resources()}
    if method == "resources/templates/list":
        return {"result": {"resourceTemplates": []}}
    if method == "resources/read":
        res = read_resource(params)
        if res is None:
            return {"error": {"code": -32002, "message": "Resource not found"}}
        return {"result": res}
    if method == "tools/call":
        name = params.get("name")
        handler = HANDLERS.get(name) if any(t["name"] == name for t in TOOLS) else None
        if handler is None:
            return {"error": {"code": -32602, "message": "Unknown tool"}}
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            return {"error": {"code": -32602, "message": "arguments must be an object"}}
        try:
            return {"result": {"content": handler(arguments)}}
        except Refused as e:
            return {"result": {"content": [text_block(str(e))], "isError": True}}
    return {"error": {"code": -32601, "message": "Method not found"}}


def send(obj):
    sys.stdout.buffer.write((json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8"))
    sys.stdout.buffer.flush()


def main():
    log("serving", ROOT, "defect " + DEFECT if DEFECT else "")
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(msg, dict) or "method" not in msg:
            if isinstance(msg, dict) and "id" in msg and ("result" in msg or "error" in msg):
                continue  # a reply to nothing we asked
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid request"}})
            continue
        if "id" not in msg:
            continue  # a notification
        try:
            reply = handle(msg)
        except Exception as e:  # a bug must not end the session
            log("internal error:", type(e).__name__)
            reply = {"error": {"code": -32603, "message": "Internal error"}}
        reply.update({"jsonrpc": "2.0", "id": msg["id"]})
        send(reply)


if __name__ == "__main__":
    main()
