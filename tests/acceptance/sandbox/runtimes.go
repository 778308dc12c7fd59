package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// runtimeCaches are the variables that send what a toolchain or runtime
// writes by itself, whatever program it runs, to a folder of the run's
// own (toolcache/dir, shared by the run's processes): these are not the
// server's writes, and must not land in its HOME or TMPDIR, where check 16
// would charge them to the server. The comment says where each would go
// otherwise. A cache the server's own code chooses (XDG_CACHE_HOME, say)
// is not redirected: that is the server writing. What a process adds to
// these folders is listed, not charged (RuntimeFiles).
//
// Go's build cache and temporary folder are set apart (see New): under
// isolation each process builds into an overlay of the grader's cache.
var runtimeCaches = []struct{ env, dir, what string }{
	{"npm_config_cache", "npm", "npm's cache"},                                       // ~/.npm: npm's and npx's packages and logs
	{"PYTHONPYCACHEPREFIX", "pycache", "Python's bytecode"},                          // __pycache__ beside each module, should a program turn bytecode back on
	{"UV_CACHE_DIR", "uv", "uv's cache"},                                             // ~/.cache/uv
	{"PIP_CACHE_DIR", "pip", "pip's cache"},                                          // ~/.cache/pip
	{"DENO_DIR", "deno", "Deno's modules and compiled code"},                         // ~/.cache/deno
	{"BUN_INSTALL_CACHE_DIR", "bun", "Bun's packages"},                               // ~/.bun/install/cache
	{"BUN_RUNTIME_TRANSPILER_CACHE_PATH", "bun-transpiler", "Bun's transpiled code"}, // ~/.bun/install/cache/@t@
	{"BUN_TMPDIR", "bun-tmp", "Bun's temporary files"},                               // $TMPDIR/bunx-UID-PACKAGE, and bun install's extraction folders
	{"NODE_COMPILE_CACHE", "node-compile-cache", "Node's compile cache"},             // $TMPDIR/node-compile-cache, once a program (npm 11 does) enables it on Node 22.1 or later
	{"COREPACK_HOME", "corepack", "Corepack's package managers"},                     // ~/.cache/node/corepack
	{"YARN_CACHE_FOLDER", "yarn", "Yarn's cache"},                                    // ~/.cache/yarn
	{"GOTMPDIR", "gotmp", "go run's build folder"},                                   // $TMPDIR/go-build*: the program go run builds
}

// runtimeOff are settings that keep a runtime from writing a cache at all.
//
// Python: PYTHONDONTWRITEBYTECODE rather than PYTHONPYCACHEPREFIX alone.
// Both keep the learner's folder unchanged (without isolation it is
// writable, and __pycache__ would appear beside the server's modules),
// but only PYTHONDONTWRITEBYTECODE does so on every Python (the prefix
// is 3.8 and later), and it writes nothing anywhere, so every process
// starts from the same state. The prefix stays set for a program that
// turns bytecode back on.
var runtimeOff = []struct{ env, value string }{
	{"PYTHONDONTWRITEBYTECODE", "1"},
	{"TSX_DISABLE_CACHE", "1"}, // tsx: $TMPDIR/tsx-UID, its transformed sources
	{"DENO_NO_UPDATE_CHECK", "1"},
	{"npm_config_update_notifier", "false"},
	{"npm_config_fund", "false"},
	{"npm_config_audit", "false"},
}

// runtimeHomePaths are where a runtime writes by itself inside HOME or
// TMPDIR when it does not honour the variable above (an older version):
// what a process leaves there is listed as the runtime's, not charged.
// Each is a folder only that runtime makes, matched by its exact name.
var runtimeHomePaths = []struct{ label, glob, runtime string }{
	{"$HOME", ".bun/install/cache", "Bun"},
	{"$HOME", ".cache/deno", "Deno"},
	{"$TMPDIR", "node-compile-cache", "Node"},
	{"$TMPDIR", "tsx-[0-9]*", "tsx"},
	{"$TMPDIR", "bunx-[0-9]*", "Bun"},
}

// runtimeHomePath returns the runtime path of runtimeHomePaths that rel
// (under label) is or lies in, and the runtime's name; "" when none.
// An ancestor folder of one (.bun, .cache) is the runtime's too.
func runtimeHomePath(label, rel string) (top, runtime string, ancestor bool) {
	for _, p := range runtimeHomePaths {
		if p.label != label {
			continue
		}
		parts := strings.Split(rel, "/")
		want := strings.Split(p.glob, "/")
		if len(parts) < len(want) {
			if ok, _ := path.Match(strings.Join(want[:len(parts)], "/"), rel); ok {
				return "", p.runtime, true
			}
			continue
		}
		head := strings.Join(parts[:len(want)], "/")
		if ok, _ := path.Match(p.glob, head); ok {
			return head, p.runtime, false
		}
	}
	return "", "", false
}

// fileMark is what a runtime cache held when a process started.
type fileMark struct {
	size  int64
	mtime time.Time
}

// markRuntimeCaches records every file in the run's runtime caches, so
// that RuntimeFiles can tell what one process added.
func (sb *Sandbox) markRuntimeCaches() map[string]fileMark {
	marks := map[string]fileMark{}
	for _, rc := range runtimeCaches {
		root := filepath.Join(sb.aux, "toolcache", rc.dir)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				marks[p] = fileMark{info.Size(), info.ModTime()}
			}
			return nil
		})
	}
	return marks
}

// maxRuntimeLines bounds the runtime lines of one process.
const maxRuntimeLines = 8

// RuntimeFiles lists, one line per place, the files the runtime of the
// process whose HOME is home wrote by itself and that check 16 does not
// charge: those it added to the run's runtime caches since ProcessDirs
// made its folders ("$BUN_RUNTIME_TRANSPILER_CACHE_PATH (2 files, 223680
// bytes, Bun's transpiled code)"), and those in its HOME or TMPDIR at a
// runtime's own path ("$HOME/.bun/install/cache (12 files, Bun)"). Names
// are escaped and the list bounded.
func (sb *Sandbox) RuntimeFiles(home, tmp string) []string {
	sb.mu.Lock()
	before := sb.marks[home]
	sb.mu.Unlock()
	var out []string
	for _, rc := range runtimeCaches {
		root := filepath.Join(sb.aux, "toolcache", rc.dir)
		n, size := 0, int64(0)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if m, ok := before[p]; ok && m.size == info.Size() && m.mtime.Equal(info.ModTime()) {
				return nil
			}
			n++
			size += info.Size()
			return nil
		})
		if n > 0 {
			out = append(out, fmt.Sprintf("$%s (%s, %s, %s)", rc.env, fileCount(n), sizeName(size), rc.what))
		}
	}
	for _, d := range []struct{ label, dir string }{{"$HOME", home}, {"$TMPDIR", tmp}} {
		counts := map[string]int{}
		names := map[string]string{}
		_ = filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || p == d.dir {
				return nil
			}
			rel, _ := filepath.Rel(d.dir, p)
			top, runtime, _ := runtimeHomePath(d.label, filepath.ToSlash(rel))
			if top == "" {
				return nil
			}
			names[top] = runtime
			if !e.IsDir() {
				counts[top]++
			}
			return nil
		})
		tops := make([]string, 0, len(names))
		for t := range names {
			tops = append(tops, t)
		}
		sort.Strings(tops)
		for _, t := range tops {
			out = append(out, fmt.Sprintf("%s/%s (%s, %s)", d.label, escapeName(t), fileCount(counts[t]), names[t]))
		}
	}
	if len(out) > maxRuntimeLines {
		out = append(out[:maxRuntimeLines:maxRuntimeLines], fmt.Sprintf("… and %d more places", len(out)-maxRuntimeLines))
	}
	return out
}

func fileCount(n int) string {
	if n == 1 {
		return "1 file"
	}
	return strconv.Itoa(n) + " files"
}

// escapeName bounds a file name made from a server's choices (bunx names
// its folder after the package) and escapes what is not printable.
func escapeName(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i >= 120 {
			b.WriteString("…")
			break
		}
		if unicode.IsPrint(r) && r != '\\' {
			b.WriteRune(r)
		} else {
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		}
	}
	return b.String()
}

// isRuntimePath reports whether rel (under label) is a runtime's own path
// or a folder holding one: RuntimeFiles lists it, Leftovers does not.
func isRuntimePath(label, rel string) bool {
	top, _, ancestor := runtimeHomePath(label, rel)
	return top != "" || ancestor
}

// keepFileMarks records, for RuntimeFiles, the state of the runtime caches
// as the process whose HOME is home starts.
func (sb *Sandbox) keepFileMarks(home string) {
	marks := sb.markRuntimeCaches()
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.marks == nil {
		sb.marks = map[string]map[string]fileMark{}
	}
	sb.marks[home] = marks
}
