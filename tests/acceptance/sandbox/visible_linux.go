//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// What an isolated server sees of the grader's file system is a list, not
// what is left once some folders are hidden: a server reading its
// classmates' folders, the harness's source or files of the grader's
// other users is a leak whether or not anyone thought of the folder.
// The stage builds a fresh root holding only:
//
//   - its own folder, the one the harness runs in (a learner's folder in
//     a class), read-only, widened to the Go module holding it when it
//     has no go.mod of its own (`go run` needs the module's root);
//   - the run's folders (fixtures, HOME, TMPDIR, caches), writable;
//   - the system's folders (systemDirs) and the toolchains' (the folders
//     on PATH, GOROOT, the module cache, …), read-only;
//   - /dev, /sys and a /proc of its own PID namespace.
//
// Each is mounted at its own path, inside folders of the fresh root that
// anyone may traverse, so that a folder under a parent of mode 0700 is
// reached by the server's uid all the same.

// systemDirs are the folders of the system's programs, libraries and
// settings a runtime may need, where they exist.
var systemDirs = []string{"/bin", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/nix", "/opt", "/sbin", "/snap", "/usr"}

// toolchainVars are the variables naming a toolchain's folders.
var toolchainVars = []string{"GOMODCACHE", "GOROOT", "GOPATH", "CARGO_HOME", "RUSTUP_HOME", "PYENV_ROOT", "NODE_PATH", "VIRTUAL_ENV"}

// projectDir is the folder a server running in dir sees as its own: dir,
// or the Go module holding it when dir has no go.mod and one above it
// does, short of the grader's home and /.
func projectDir(dir, home string) string {
	if exists(filepath.Join(dir, "go.mod")) {
		return dir
	}
	for p := filepath.Dir(dir); p != home && p != filepath.Dir(p); p = filepath.Dir(p) {
		if exists(filepath.Join(p, "go.mod")) {
			return p
		}
	}
	return dir
}

// visiblePaths lists the folders an isolated server sees read-only: the
// system's, the toolchains' named by env (an entry of the grader's home
// as a whole, since a toolchain there keeps its files beside its bin
// folder; elsewhere the folder, or the one holding it when it is a bin
// folder), and project unless it is / or the home itself. The grader's
// Go build cache is never among them: it is seen through an overlay.
func visiblePaths(project, home string, env []string, goCache string) []string {
	var out []string
	for _, d := range systemDirs {
		if _, err := os.Lstat(d); err == nil {
			out = append(out, d)
		}
	}
	var need []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH":
			need = append(need, filepath.SplitList(v)...)
		case slices.Contains(toolchainVars, k):
			need = append(need, v)
		}
	}
	for _, p := range need {
		if !filepath.IsAbs(p) {
			continue // "." or a relative folder: the server's own
		}
		p = filepath.Clean(p)
		if home != "" && home != "/" {
			if rel, err := filepath.Rel(home, p); err == nil && rel != "." && filepath.IsLocal(rel) {
				top := filepath.Join(home, strings.Split(filepath.ToSlash(rel), "/")[0])
				if goCache != "" && (top == goCache || filepath.Dir(goCache) == top) {
					continue // ~/.cache holds the build cache: none of it
				}
				p = top
			}
		}
		if b := filepath.Base(p); (b == "bin" || b == "sbin") && strings.Count(filepath.Dir(p), "/") >= 2 {
			p = filepath.Dir(p) // a toolchain's lib and share folders are beside bin
		}
		if p == "/" || p == home || p == goCache {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	if project != "/" && project != home {
		out = append(out, project)
	}
	return outermost(out)
}

// outermost sorts paths and drops those inside another of them.
func outermost(paths []string) []string {
	sort.Strings(paths)
	var out []string
	for _, p := range paths {
		if !slices.ContainsFunc(out, func(q string) bool { return within(p, q) }) {
			out = append(out, p)
		}
	}
	return out
}

// within reports whether p is q or lies inside it.
func within(p, q string) bool {
	return p == q || strings.HasPrefix(p, strings.TrimSuffix(q, "/")+"/")
}

// besideFolder is an entry of the grader's file system next to the
// server's folder (a classmate's folder in a class), which the probe
// must not see; "" when there is none. An entry that holds, or lies in,
// a folder the server is meant to see (shown: a toolchain in the
// grader's home beside a clone, the run's folders) exists inside the
// sandbox as the way to that folder, so it proves nothing and is passed
// over.
func besideFolder(project string, shown []string) string {
	parent := filepath.Dir(project)
	if parent == project {
		return ""
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		p := filepath.Join(parent, e.Name())
		if p == project || slices.ContainsFunc(shown, func(v string) bool { return within(v, p) || within(p, v) }) {
			continue
		}
		return p
	}
	return ""
}
