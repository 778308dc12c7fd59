#!/usr/bin/env python3
"""A notes search server for MCP clients (stdio), standard library only.

    python3 server.py --notes-dir ROOT [--defect NAME]

Answers in Markdown: a heading per passage naming the note, then the
passage as a block quote, every line prefixed with "> ". Offers tools
only, no resources. Without --defect it follows the specification; each
--defect switches on one mistake.
"""
import argparse
import json
import os
import re
import stat
import sys

MAX_FILE_BYTES = 102400
MAX_QUERY_CHARS = 200
MAX_PASSAGES = 10
LATEST = "2025-11-25"
KNOWN = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

DEFECTS = {
    "unreadable-no-match": "any OSError during a search turns the whole answer into 'No matches found.'",
    "text-mode": "reads notes in Python's text mode, so CRLF becomes LF (and a lone CR a line break)",
    "pretty": "writes every JSON-RPC reply indented over several lines",
}

cli = argparse.ArgumentParser(description="practice notes MCP server")
cli.add_argument("--notes-dir", required=True)
cli.add_argument("--defect", default="", choices=[""] + sorted(DEFECTS))
cfg = cli.parse_args()
NOTES = os.path.realpath(cfg.notes_dir)


class ToolError(Exception):
    pass


class Unreadable(Exception):
    pass


def note_files():
    """Every regular .md file under NOTES, sorted, no links followed."""
    found = []
    for dirpath, dirnames, filenames in os.walk(NOTES, followlinks=False):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, NOTES)
        for name in sorted(filenames):
            if not name.endswith(".md"):
                continue
            full = os.path.join(dirpath, name)
            rel = name if rel_dir == "." else os.path.join(rel_dir, name).replace(os.sep, "/")
            found.append((rel, full))
    return found


def load(full):
    """The note's text, None to skip it, or Unreadable."""
    try:
        st = os.lstat(full)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size > MAX_FILE_BYTES:
        return None
    if cfg.defect == "text-mode":
        try:
            with open(full, encoding="utf-8") as f:
                text = f.read(MAX_FILE_BYTES + 1)
        except UnicodeDecodeError:
            return None
        except OSError as e:
            raise Unreadable() from e
        return None if "\x00" in text else text
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        raise Unreadable() from e
    with os.fdopen(fd, "rb") as f:
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES or b"\x00" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def is_heading(line):
    return re.match(r" {0,3}#{1,6}([ \t]|$)", line) is not None


def split_paragraphs(text):
    """(paragraph, note id) pairs; a paragraph keeps its inner line endings."""
    out, block, note = [], [], None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        bare = line.rstrip("\r") if line.endswith("\r") else line
        if bare.strip(" \t\r") == "" or is_heading(bare):
            if block:
                out.append(("\n".join(block), note))
                block = []
            if is_heading(bare):
                m = re.search(r"\bN\d+\b", bare)
                note = m.group(0) if m else None
                out.append((bare, note))
            continue
        block.append(line)
    if block:
        out.append(("\n".join(block), note))
    # the last line of a block ends with its CR (part of the line ending)
    return [(p[:-1] if p.endswith("\r") else p, n) for p, n in out]


def normal(s):
    return " ".join(s.casefold().split())


def search(query):
    want = normal(query)
    passages, skipped, cut = [], 0, False
    for rel, full in note_files():
        try:
            text = load(full)
        except Unreadable:
            if cfg.defect == "unreadable-no-match":
                return [], 0, False
            skipped += 1
            continue
        if text is None:
            continue
        for para, note in split_paragraphs(text):
            if want in normal(para):
                if len(passages) == MAX_PASSAGES:
                    cut = True
                    break
                passages.append((rel, note, para))
        if cut:
            break
    return passages, skipped, cut


def quote(passage):
    return "\n".join("> " + line for line in passage.split("\n"))


def search_notes(arguments):
    for key in arguments:
        if key != "query":
            raise ToolError("This tool takes only a query; '%s' is not accepted." % key)
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolError("Please give a non-empty query string.")
    if len(query) > MAX_QUERY_CHARS:
        raise ToolError("The query is too long (%d characters; at most %d)." % (len(query), MAX_QUERY_CHARS))
    passages, skipped, cut = search(query)
    parts = []
    if not passages:
        parts.append("No matches found.")
    else:
        parts.append("Found %d passage%s:" % (len(passages), "" if len(passages) == 1 else "s"))
        for rel, note, para in passages:
            parts.append("### %s%s\n\n%s" % (rel, " (" + note + ")" if note else "", quote(para)))
    if cut:
        parts.append("_Only the first %d passages are shown._" % MAX_PASSAGES)
    if skipped:
        parts.append("_%d file%s could not be read and %s skipped._" % (skipped, "" if skipped == 1 else "s", "was" if skipped == 1 else "were"))
    return "\n\n".join(parts)


TOOL = {
    "name": "search_notes",
    "title": "Search practice notes",
    "description": "Find a short phrase (any capitalization) in the practice notes; answers in Markdown with each passage quoted.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string", "maxLength": MAX_QUERY_CHARS}},
        "required": ["query"],
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}


def dispatch(method, params):
    if method == "initialize":
        v = params.get("protocolVersion")
        return {
            "protocolVersion": v if v in KNOWN else LATEST,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "quoted-notes", "version": "0.1"},
            "instructions": "Search the practice notes with search_notes.",
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        if params.get("name") != "search_notes":
            raise LookupError("no tool named %s" % json.dumps(params.get("name")))
        args = params.get("arguments")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise LookupError("arguments must be an object")
        try:
            return {"content": [{"type": "text", "text": search_notes(args)}]}
        except ToolError as e:
            return {"content": [{"type": "text", "text": str(e)}], "isError": True}
    raise NotImplementedError(method)


def write(msg):
    if cfg.defect == "pretty":
        text = json.dumps(msg, indent=2, ensure_ascii=False)
    else:
        text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    sys.stdout.buffer.write((text + "\n").encode("utf-8"))
    sys.stdout.buffer.flush()


def serve():
    print("quoted-notes: reading notes under %s" % NOTES, file=sys.stderr, flush=True)
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
            if not (isinstance(msg, dict) and ("result" in msg or "error" in msg)):
                write({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        if "id" not in msg:
            continue
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        try:
            write({"jsonrpc": "2.0", "id": msg["id"], "result": dispatch(msg["method"], params)})
        except NotImplementedError:
            write({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}})
        except LookupError as e:
            write({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": str(e)}})
        except Exception as e:
            print("quoted-notes: error: %s" % type(e).__name__, file=sys.stderr, flush=True)
            write({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32603, "message": "Internal error"}})


if __name__ == "__main__":
    serve()
