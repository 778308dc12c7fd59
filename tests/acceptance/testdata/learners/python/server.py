#!/usr/bin/env python3
"""A practice-notes MCP server written as a learner might: Python 3 standard
library only, JSON-RPC over stdio by hand, text results only, protocol
revision 2024-11-05 only.

    python3 server.py --root DIR [--style text|pretty|blocks] [--delay SECONDS] [--spin SECONDS]
                      [--defect NAME]

The acceptance harness's own tests grade it. Without --defect it is a
correct server that logs every query on stderr; each --defect switches on
one mistake learners make, so that the test can show the harness catches it.
"""
import argparse
import io
import json
import os
import random
import re
import stat
import sys
import tempfile
import time

FILE_LIMIT = 102400
MAX_QUERY = 200
MAX_PASSAGES = 10
PROTOCOL = "2024-11-05"

DEFECTS = {
    "case-sensitive": "matches the query with its capitalisation",
    "regex": "compiles the query as a regular expression",
    "empty-matches-all": "searches for an empty query, which every paragraph contains",
    "startswith-root": "follows symlinks, checking realpath(p).startswith(ROOT) without a separator",
    "linked-dir": "skips symlinked files but walks into symlinked directories",
    "one-level-links": "resolves a symlink one level and checks only that target",
    "hardlink": "reads files with several hard links",
    "fifo": "opens every .md entry, even a FIFO",
    "dir-md": "treats every name ending in .md as a file",
    "dangling": "does not catch a missing file",
    "binary": "does not catch undecodable bytes",
    "root-arg": "honours a root or path argument",
    "write-tool": "offers a save_note tool",
    "readonly-false": "annotates search_notes with readOnlyHint false",
    "write-home": "appends every query to ~/.practice_notes_history",
    "write-tmp": "caches results in the system temp folder",
    "nondeterministic": "returns the passages in random order",
    "include": "expands <!-- include: FILE --> lines in notes",
    "protocol-sloppy": "no ping, a result for unknown methods, isError for unknown tools, exits on a line that is not JSON, no tools capability",
    "trim-right": "strips the spaces and tabs that end each line of a passage",
    "no-flush": "never searches the paragraph still collected when the lines run out",
    "first-passage": "returns only the first matching passage of each note",
    "dedup-text": "drops a passage whose text was already returned from another note",
    "lenient-utf8": "decodes notes that are not UTF-8 with U+FFFD for the bad bytes",
    "stop-unreadable": "ends the search at the first note it cannot open",
    "read-once": "reads every note once, at the first search, and searches that copy ever after",
}

ap = argparse.ArgumentParser()
ap.add_argument("--root", default=os.environ.get("PRACTICE_NOTES_ROOT"))
ap.add_argument("--style", default="text", choices=["text", "pretty", "blocks"])
ap.add_argument("--delay", type=float, default=0.0)
ap.add_argument("--spin", type=float, default=0.0)  # as --delay, but busy
ap.add_argument("--defect", default="", choices=[""] + sorted(DEFECTS))
args = ap.parse_args()
if not args.root:
    sys.exit("usage: server.py --root DIR")
ROOT = os.path.realpath(args.root)
DEFECT = args.defect


def log(msg):
    print("[practice-notes] " + msg, file=sys.stderr, flush=True)


def inside(path):
    real = os.path.realpath(path)
    if DEFECT == "startswith-root":
        return real.startswith(ROOT)
    return real == ROOT or real.startswith(ROOT + os.sep)


def candidates(root):
    """Yield (relative path, full path) of the notes to read, sorted."""
    if DEFECT == "dir-md":
        stack = [""]
        while stack:
            rel_dir = stack.pop()
            for name in sorted(os.listdir(os.path.join(root, rel_dir))):
                rel = os.path.join(rel_dir, name)
                full = os.path.join(root, rel)
                if name.endswith(".md"):
                    yield rel, full
                elif os.path.isdir(full) and not os.path.islink(full):
                    stack.append(rel)
        return
    follow = DEFECT in ("startswith-root", "linked-dir")
    for dirpath, dirnames, filenames in os.walk(root, followlinks=follow):
        dirnames.sort()
        if DEFECT == "startswith-root" and not inside(dirpath):
            dirnames[:] = []
            continue
        for name in sorted(filenames):
            if name.endswith(".md"):
                full = os.path.join(dirpath, name)
                yield os.path.relpath(full, root), full


def readable(full):
    """Return the text of a note, or None when it must be skipped. Each
    reading defect drops exactly one of the guards below."""
    if DEFECT == "dangling" and os.path.getsize(full) > FILE_LIMIT:  # follows links
        return None
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
        if DEFECT == "startswith-root":
            if not inside(full):
                return None
        elif DEFECT == "one-level-links":
            target = os.path.join(os.path.dirname(full), os.readlink(full))
            if not os.path.normpath(target).startswith(ROOT + os.sep):
                return None
        else:
            return None
        st = os.stat(full)
    if not stat.S_ISREG(st.st_mode) and DEFECT not in ("fifo", "dir-md"):
        return None
    if st.st_nlink > 1 and DEFECT not in ("hardlink", "dir-md"):
        return None
    if st.st_size > FILE_LIMIT:
        return None
    if DEFECT in ("fifo", "dir-md"):
        with open(full, "rb") as f:
            data = f.read(FILE_LIMIT + 1)
    else:
        try:
            with open(full, "rb") as f:
                data = f.read(FILE_LIMIT + 1)
        except OSError as e:
            if DEFECT == "stop-unreadable":
                raise
            log("skipping unreadable note: " + e.strerror)
            return None
    if DEFECT == "binary":
        return data.decode("utf-8")
    if DEFECT == "lenient-utf8":
        data = data.decode("utf-8", errors="replace").encode("utf-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\x00" in text:
        return None
    return text


def paragraphs(text):
    note, out, cur, start = "", [], [], 0
    lines = text.split("\n")
    if DEFECT == "no-flush":
        # Lines as a file yields them: no empty line after the last LF.
        lines = [l[:-1] if l.endswith("\n") else l for l in io.StringIO(text, newline="\n")]
    for i, line in enumerate(lines, 1):
        if line.strip() == "" or re.match(r"#{1,6}[ \t]", line):
            if cur:
                out.append((note, start, "\n".join(cur)))
                cur = []
            m = re.match(r"#{1,6}[ \t]+(N\d+)\b", line)
            if m:
                note = m.group(1)
            elif line.strip():
                note = ""
            continue
        if not cur:
            start = i
        if DEFECT == "trim-right":
            line = line.rstrip(" \t")
        cur.append(line)
    if cur and DEFECT != "no-flush":
        out.append((note, start, "\n".join(cur)))
    return out


def expand_includes(text, full):
    def repl(m):
        with open(os.path.join(os.path.dirname(full), m.group(1)), encoding="utf-8") as f:
            return f.read()
    return re.sub(r"<!-- include: (\S+) -->", repl, text)


def matches(query, para):
    if DEFECT == "case-sensitive":
        return query in para
    if DEFECT == "regex":
        return re.search(query, para, re.IGNORECASE) is not None
    return query.casefold() in para.casefold()


CACHE = []


def notes(root):
    """Yield (relative path, full path, text or None) of every note."""
    if DEFECT == "read-once":
        if not CACHE:
            CACHE.append([(rel, full, readable(full)) for rel, full in candidates(root)])
        yield from CACHE[0]
        return
    for rel, full in candidates(root):
        if DEFECT == "stop-unreadable":
            try:
                text = readable(full)
            except OSError:
                return
        else:
            text = readable(full)
        yield rel, full, text


def search(query, root):
    found, seen = [], set()
    for rel, full, text in notes(root):
        if text is None:
            continue
        if DEFECT == "include":
            text = expand_includes(text, full)
        for note, line, para in paragraphs(text):
            if DEFECT == "dedup-text" and para in seen:
                continue
            if matches(query, para):
                seen.add(para)
                found.append({"file": rel, "note": note, "line": line, "passage": para})
                if DEFECT == "first-passage":
                    break
    if DEFECT == "nondeterministic":
        random.shuffle(found)
    return found


def tool_error(msg):
    return {"content": [{"type": "text", "text": msg}], "isError": True}


def search_tool(arguments):
    arguments = arguments or {}
    root = ROOT
    if DEFECT == "root-arg":
        root = arguments.get("root") or arguments.get("path") or ROOT
    else:
        extra = sorted(set(arguments) - {"query"})
        if extra:
            return tool_error("Unknown argument(s): " + ", ".join(extra) + ". search_notes takes only query.")
    query = arguments.get("query")
    if DEFECT != "empty-matches-all":
        if not isinstance(query, str):
            return tool_error("query must be a string.")
        if query.strip() == "":
            return tool_error("query must not be empty.")
    query = query if isinstance(query, str) else str(query)
    if len(query) > MAX_QUERY:
        return tool_error("Query too long: %d characters, the limit is %d." % (len(query), MAX_QUERY))
    log("search query=" + query)
    if DEFECT == "write-home":
        with open(os.path.join(os.path.expanduser("~"), ".practice_notes_history"), "a") as f:
            f.write(query + "\n")
    found = search(query, root)
    if DEFECT == "write-tmp":
        with open(os.path.join(tempfile.gettempdir(), "practice-notes-cache.json"), "w") as f:
            json.dump(found, f)
    truncated = len(found) > MAX_PASSAGES
    found = found[:MAX_PASSAGES]
    if not found:
        return {"content": [{"type": "text", "text": 'No notes matched "%s".' % query}]}
    if args.style == "pretty":
        body = {"query": query, "matches": found, "truncated": truncated,
                "message": "%d passage(s) matched." % len(found)}
        return {"content": [{"type": "text", "text": json.dumps(body, indent=2, ensure_ascii=False)}]}
    if args.style == "blocks":
        blocks = [{"type": "text", "text": "%s (%sline %d):\n%s" % (m["file"], m["note"] + ", " if m["note"] else "", m["line"], m["passage"])} for m in found]
        if truncated:
            blocks.append({"type": "text", "text": "More passages matched; showing the first %d." % MAX_PASSAGES})
        return {"content": blocks}
    lines = ["%d passage(s) matched \"%s\"%s:" % (len(found), query, " (first %d shown)" % MAX_PASSAGES if truncated else "")]
    for m in found:
        lines += ["", "--- %s%s, line %d" % (m["file"], " · " + m["note"] if m["note"] else "", m["line"]), m["passage"]]
    return {"content": [{"type": "text", "text": "\n".join(lines)}]}


SEARCH_TOOL = {
    "name": "search_notes",
    "description": "Search the practice notes for a phrase, ignoring capitalisation.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "phrase to look for, 1 to 200 characters"}},
        "required": ["query"],
        "additionalProperties": False,
    },
}


def tools():
    tool = dict(SEARCH_TOOL)
    if DEFECT == "readonly-false":
        tool["annotations"] = {"readOnlyHint": False}
    out = [tool]
    if DEFECT == "write-tool":
        out.append({"name": "save_note", "description": "Save a note into the practice folder.",
                    "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}, "text": {"type": "string"}}}})
    return out


def handle(msg):
    method, mid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if method == "initialize":
        caps = {} if DEFECT == "protocol-sloppy" else {"tools": {}}
        return {"protocolVersion": PROTOCOL, "capabilities": caps,
                "serverInfo": {"name": "python-practice-notes", "version": "0.1"}}
    if method == "ping" and DEFECT != "protocol-sloppy":
        return {}
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        if args.delay:
            time.sleep(args.delay)
        end = time.monotonic() + args.spin
        while time.monotonic() < end:
            pass
        name = params.get("name")
        if name == "search_notes":
            return search_tool(params.get("arguments"))
        if DEFECT == "protocol-sloppy":
            return tool_error("no such tool")
        raise RpcError(-32602, "Unknown tool: %s" % name)
    if DEFECT == "protocol-sloppy":
        return {}
    raise RpcError(-32601, "Method not found: %s" % method)


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def send(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main():
    log("serving %s over stdio%s" % (ROOT, " with defect " + DEFECT if DEFECT else ""))
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            if DEFECT == "protocol-sloppy":
                raise
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if "id" not in msg:
            continue  # a notification
        try:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg)})
        except RpcError as e:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": e.code, "message": e.message}})
        except Exception as e:  # a learner's catch-all: the error reaches the client
            log("error: %r" % e)
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32603, "message": "Internal error: %s" % e}})
    log("stdin closed, exiting")


if __name__ == "__main__":
    main()
