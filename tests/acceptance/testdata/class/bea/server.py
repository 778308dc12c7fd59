#!/usr/bin/env python3
"""A read-only practice-notes MCP server over stdio, Python 3 standard library only.

    python3 server.py PRACTICE_DATA_DIR

One tool, search_notes(query): a case-insensitive literal phrase search over
the notes under the root, answered as plain text (no structuredContent).
stdout carries only JSON-RPC; every diagnostic goes to stderr.
"""
import json
import os
import stat
import sys

MAX_QUERY = 200
MAX_FILE = 100 * 1024
MAX_RESULTS = 10
VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")

TOOL = {
    "name": "search_notes",
    "description": "Search the practice notes for a short phrase (any capitalisation). Read-only.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string", "maxLength": MAX_QUERY}},
        "required": ["query"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
}


def log(*parts):
    print("[search_notes]", *parts, file=sys.stderr, flush=True)


def inside(root, path):
    real = os.path.realpath(path)
    return real == root or real.startswith(root + os.sep)


def read_note(root, path):
    """Return the note's text, or None for anything that is not a plain,
    small, single-linked UTF-8 file inside the root."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or not inside(root, path):
        return None
    if st.st_size > MAX_FILE:
        raise ValueError("over 100 KB")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise ValueError("over 100 KB")
    if b"\0" in data:
        return None
    return data.decode("utf-8")


def passages(text):
    """Yield (note_id, paragraph) for each blank-line separated paragraph.

    Lines are split at LF only, so a paragraph keeps its CRs and any other
    separator inside it byte for byte (str.splitlines would drop them)."""
    note_id, para = "", []
    for line in text.split("\n") + [""]:
        if line.strip():
            if line.lstrip().startswith("#"):
                words = line.lstrip("# ").split()
                if words and words[0][:1] == "N" and words[0][1:].isdigit():
                    note_id = words[0]
                continue
            para.append(line)
        elif para:
            yield note_id, "\n".join(para).removesuffix("\r")
            para = []


def search(root, query):
    needle = query.casefold()
    found, skipped = [], []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if not name.endswith((".md", ".txt")):
                continue
            try:
                text = read_note(root, path)
            except (OSError, ValueError, UnicodeDecodeError) as e:
                skipped.append(rel + " (" + (str(e) if isinstance(e, ValueError) else "unreadable") + ")")
                continue
            if text is None:
                continue
            for note_id, para in passages(text):
                if needle in para.casefold():
                    found.append((rel, note_id, para))
    return found, skipped


def call_search(root, args):
    extra = sorted(set(args) - {"query"})
    if extra:
        return error_result("search_notes takes only a query; refused: " + ", ".join(extra))
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        return error_result("query must be a non-empty string")
    if len(query) > MAX_QUERY:
        return error_result("query is longer than %d characters" % MAX_QUERY)
    log("query=" + query)
    found, skipped = search(root, query)
    lines = []
    if not found:
        lines.append("No matches found.")
    for rel, note_id, para in found[:MAX_RESULTS]:
        lines.append("File: %s%s\n%s" % (rel, ", note " + note_id if note_id else "", para))
    if len(found) > MAX_RESULTS:
        lines.append("(%d more passages not shown)" % (len(found) - MAX_RESULTS))
    if skipped:
        lines.append("Skipped: " + "; ".join(skipped))
    return {"content": [{"type": "text", "text": "\n\n".join(lines)}], "isError": False}


def error_result(message):
    return {"content": [{"type": "text", "text": message}], "isError": True}


def handle(root, msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "bea-notes", "version": "1.0.0"},
        }, None
    if method == "ping":
        return {}, None
    if method == "tools/list":
        return {"tools": [TOOL]}, None
    if method == "tools/call":
        if params.get("name") != "search_notes":
            return None, (-32602, "unknown tool")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            return None, (-32602, "arguments must be an object")
        return call_search(root, args), None
    return None, (-32601, "method not found")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: server.py PRACTICE_DATA_DIR", file=sys.stderr)
        return 2
    root = os.path.realpath(sys.argv[1])
    log("serving", root)
    for raw in sys.stdin:
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
            print(json.dumps(reply), flush=True)
            continue
        if not isinstance(msg, dict) or "id" not in msg:
            continue  # a notification, or nothing to answer
        try:
            result, err = handle(root, msg)
        except Exception as e:  # an answer beats a crash
            log("error:", type(e).__name__)
            result, err = None, (-32603, "internal error")
        reply = {"jsonrpc": "2.0", "id": msg["id"]}
        if err:
            reply["error"] = {"code": err[0], "message": err[1]}
        else:
            reply["result"] = result
        print(json.dumps(reply), flush=True)
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
