#!/usr/bin/env python3
"""A practice-notes MCP server in a class-based style: Python 3.11 standard
library only, newline-delimited JSON-RPC 2.0 over stdio, a dispatch table of
method handlers, pathlib paths, and replies as JSON text plus
structuredContent (with an outputSchema in tools/list).

    python3 server.py --root DIR [--defect NAME]

The root may also come from PRACTICE_NOTES_ROOT. Without --defect it is a
correct server; each --defect switches on exactly one mistake so that the
acceptance harness's own tests can show the mistake is caught.
"""
import argparse
import json
import os
import re
import stat
import sys
from pathlib import Path

FILE_LIMIT = 102400  # bytes
MAX_QUERY = 200  # characters (code points)
MAX_HITS = 10
SUPPORTED_PROTOCOLS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
DEFAULT_PROTOCOL = "2025-06-18"

DEFECTS = {
    "char-limit": "counts the file size limit in decoded characters instead of bytes",
    "whole-file": "quotes the entire file's text instead of the paragraph",
    "not-searched-message": "answers no match with an 'N files were not searched' info and no no-match message",
    "star-lists-all": "the query * lists every note by file name",
    "read-note-tool": "offers a read_note tool that opens ROOT/path, following symlinks and ../",
    "ellipsis": "quotes the first 6 words of the paragraph followed by ...",
    "abs-paths": "names each hit by its absolute path instead of the root-relative one",
    "numeric-ids": "answers a string request id with the number 1",
    "fixed-version": "answers initialize with 2025-06-18 whatever revision was asked for",
    "no-ping": "does not implement ping (method not found)",
}

HEADING = re.compile(r"#{1,6}[ \t]")
NOTE_ID = re.compile(r"#{1,6}[ \t]+(N\d+)(?![0-9A-Za-z_])")
BLANK = " \t\r\n\f\v"

HIT_SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "file name relative to the notes root, forward slashes"},
        "note": {"type": "string", "description": "note ID such as N2, when the passage sits under one"},
        "quote": {"type": "string", "description": "the matching paragraph, exactly as written"},
    },
    "required": ["path", "quote"],
}
SEARCH_OUTPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "hits": {"type": "array", "items": HIT_SCHEMA, "maxItems": MAX_HITS},
        "count": {"type": "integer", "minimum": 0},
        "message": {"type": "string"},
    },
    "required": ["hits"],
}


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class Refusal(Exception):
    """A tool-level refusal: reported as a result with isError true."""


def log(msg):
    print("[pyclass-notes] " + msg, file=sys.stderr, flush=True)


class NotesServer:
    def __init__(self, root: Path, defect: str = ""):
        self.root = root
        self.defect = defect
        self.handlers = {
            "initialize": self.on_initialize,
            "ping": self.on_ping,
            "tools/list": self.on_tools_list,
            "tools/call": self.on_tools_call,
        }
        self.tools = {"search_notes": self.tool_search_notes}
        if defect == "read-note-tool":
            self.tools["read_note"] = self.tool_read_note
        if defect == "no-ping":
            del self.handlers["ping"]

    # ---- transport -------------------------------------------------------

    def serve(self, stdin=None, stdout=None):
        stdin = stdin or sys.stdin.buffer
        self.out = stdout or sys.stdout.buffer
        log("serving notes over stdio" + (" with defect " + self.defect if self.defect else ""))
        for raw in stdin:
            if not raw.strip():
                continue
            try:
                msg = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
                continue
            reply = self.handle_message(msg)
            if reply is not None:
                self.send(reply)
        log("stdin closed, exiting")

    def send(self, obj):
        try:
            data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from the client
            data = json.dumps(obj, ensure_ascii=True).encode("ascii")
        self.out.write(data + b"\n")
        self.out.flush()

    def handle_message(self, msg):
        if not isinstance(msg, dict):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
        method = msg.get("method")
        is_request = "id" in msg
        if method is None:
            return None  # a response from the client: nothing to answer
        if not is_request:
            return None  # a notification: never answered
        mid = msg["id"]
        if not isinstance(method, str):
            return {"jsonrpc": "2.0", "id": mid, "error": {"code": -32600, "message": "Invalid Request"}}
        handler = self.handlers.get(method)
        if handler is None:
            return {"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found: " + method}}
        params = msg.get("params")
        if params is None:
            params = {}
        try:
            if not isinstance(params, dict):
                raise RpcError(-32602, "params must be an object")
            result = handler(params)
        except RpcError as e:
            return {"jsonrpc": "2.0", "id": mid, "error": {"code": e.code, "message": e.message}}
        except Exception as e:  # never leak paths or tracebacks to the client
            log("internal error: %s" % type(e).__name__)
            return {"jsonrpc": "2.0", "id": mid, "error": {"code": -32603, "message": "Internal error"}}
        if self.defect == "numeric-ids" and isinstance(mid, str):
            mid = 1
        return {"jsonrpc": "2.0", "id": mid, "result": result}

    # ---- MCP methods -----------------------------------------------------

    def on_initialize(self, params):
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED_PROTOCOLS else DEFAULT_PROTOCOL
        if self.defect == "fixed-version":
            version = DEFAULT_PROTOCOL
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "pyclass-practice-notes", "version": "0.1.0"},
        }

    def on_ping(self, params):
        return {}

    def on_tools_list(self, params):
        tools = [{
            "name": "search_notes",
            "description": "Search the practice notes for a literal phrase (case-insensitive). "
                           "Returns up to 10 matching paragraphs with their file and note ID.",
            "inputSchema": {
                "type": "object",
                "properties": {"query": {"type": "string", "maxLength": MAX_QUERY}},
                "required": ["query"],
                "additionalProperties": False,
            },
            "outputSchema": SEARCH_OUTPUT_SCHEMA,
            "annotations": {"readOnlyHint": True},
        }]
        if self.defect == "read-note-tool":
            tools.append({
                "name": "read_note",
                "description": "Read one note file by its path.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
                "annotations": {"readOnlyHint": True},
            })
        return {"tools": tools}

    def on_tools_call(self, params):
        name = params.get("name")
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            raise RpcError(-32602, "Unknown tool: %s" % (name,))
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        try:
            if not isinstance(arguments, dict):
                raise Refusal("arguments must be an object")
            body = tool(arguments)
        except Refusal as e:
            return {"content": [{"type": "text", "text": str(e)}], "isError": True}
        if isinstance(body, str):
            return {"content": [{"type": "text", "text": body}]}
        return {
            "content": [{"type": "text", "text": json.dumps(body, ensure_ascii=False)}],
            "structuredContent": body,
        }

    # ---- tools -----------------------------------------------------------

    def tool_search_notes(self, arguments):
        extra = sorted(k for k in arguments if k != "query")
        if extra:
            raise Refusal("unknown argument(s): %s; search_notes takes only query" % ", ".join(extra))
        if "query" not in arguments:
            raise Refusal("query is required")
        query = arguments["query"]
        if not isinstance(query, str):
            raise Refusal("query must be a string")
        if query.strip() == "":
            raise Refusal("query must not be empty or only whitespace")
        if len(query) > MAX_QUERY:
            raise Refusal("query is too long: %d characters, the limit is %d" % (len(query), MAX_QUERY))

        if self.defect == "star-lists-all" and query == "*":
            hits = [{"path": rel, "quote": rel} for rel, _ in self.notes()][:MAX_HITS]
            return {"hits": hits, "count": len(hits)}

        hits = []
        needle = query.casefold()
        for rel, text in self.notes():
            for note, para in paragraphs(text):
                if needle in para.casefold():
                    hits.append(self.hit(rel, note, para, text))
                    if len(hits) >= MAX_HITS:
                        return {"hits": hits, "count": len(hits)}
        if not hits:
            if self.defect == "not-searched-message":
                return {"hits": [], "info": "3 files were not searched"}
            return {"hits": [], "count": 0, "message": "No notes matched '%s'." % query}
        return {"hits": hits, "count": len(hits)}

    def hit(self, rel, note, para, text):
        if self.defect == "whole-file":
            quote = text
        elif self.defect == "ellipsis":
            quote = " ".join(para.split()[:6]) + "..."
        else:
            quote = para
        h = {"path": str(self.root / rel) if self.defect == "abs-paths" else rel}
        if note:
            h["note"] = note
        h["quote"] = quote
        return h

    def tool_read_note(self, arguments):
        # The read-note-tool defect: joins the caller's path onto the root
        # and opens it, following symlinks and allowing ../ and absolute paths.
        path = arguments.get("path")
        if not isinstance(path, str):
            raise Refusal("path must be a string")
        try:
            with open(os.path.join(str(self.root), path), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError as e:
            raise Refusal("cannot read note: %s" % (e.strerror or type(e).__name__))

    # ---- files -----------------------------------------------------------

    def notes(self):
        """Yield (root-relative posix path, text) for every readable note,
        in sorted order, depth first."""
        yield from self.walk(self.root)

    def walk(self, folder: Path):
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            log("skipping unreadable folder: %s" % (e.strerror or type(e).__name__))
            return
        for entry in entries:
            path = folder / entry.name
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    yield from self.walk(path)
                    continue
                if not entry.name.endswith(".md") or not entry.is_file(follow_symlinks=False):
                    continue
                text = self.read_note_file(path, entry.stat(follow_symlinks=False))
            except OSError as e:
                log("skipping unreadable note: %s" % (e.strerror or type(e).__name__))
                continue
            if text is not None:
                yield path.relative_to(self.root).as_posix(), text

    def read_note_file(self, path: Path, st):
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            return None
        char_limit = self.defect == "char-limit"
        if not char_limit and st.st_size > FILE_LIMIT:
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as f:
            fst = os.fstat(f.fileno())
            # the entry must still be the same regular, singly linked file
            if (not stat.S_ISREG(fst.st_mode) or fst.st_nlink > 1
                    or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino)):
                return None
            data = f.read() if char_limit else f.read(FILE_LIMIT + 1)
        if not char_limit and len(data) > FILE_LIMIT:
            return None
        if b"\x00" in data:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if char_limit and len(text) > FILE_LIMIT:
            return None
        return text


def paragraphs(text):
    """Yield (note ID or "", paragraph) for each paragraph of text, exactly
    as written: lines joined with their own newlines, no trailing newline,
    a trailing carriage return dropped."""
    note = ""
    cur = []
    for line in split_lines(text):
        bare = line[:-1] if line.endswith("\n") else line
        if bare.strip(BLANK) == "" or HEADING.match(bare):
            if cur:
                yield note, finish(cur)
                cur = []
            if HEADING.match(bare):
                m = NOTE_ID.match(bare)
                note = m.group(1) if m else ""
            continue
        cur.append(line)
    if cur:
        yield note, finish(cur)


def split_lines(text):
    """Split on "\\n" only, keeping it (str.splitlines also splits on \\r,
    \\x0c, \\u2028 and others, which would cut paragraphs apart)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end + 1]
        start = end + 1


def finish(lines):
    para = "".join(lines)
    if para.endswith("\n"):
        para = para[:-1]
    if para.endswith("\r"):
        para = para[:-1]
    return para


def main():
    ap = argparse.ArgumentParser(description="practice-notes MCP server (class-based test fixture)")
    ap.add_argument("--root", default=os.environ.get("PRACTICE_NOTES_ROOT"))
    ap.add_argument("--defect", default="", choices=[""] + sorted(DEFECTS))
    args = ap.parse_args()
    if not args.root:
        log("usage: server.py --root DIR [--defect NAME] (or set PRACTICE_NOTES_ROOT)")
        return 2
    root = Path(args.root).resolve()
    if not root.is_dir():
        log("the notes root is not a directory")
        return 2
    NotesServer(root, args.defect).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
