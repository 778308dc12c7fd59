package harness

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// sandbox decides the environment every server process gets: a fresh,
// empty HOME and TMPDIR per process (checked afterwards), toolchain caches
// pointed elsewhere so that `go run`, npx or python are not accused of the
// writes their toolchains make, and, where the kernel allows, private
// namespaces (see isolate_linux.go).
type sandbox struct {
	aux       string   // temp dir for homes, temp folders and tool caches
	env       []string // environment without HOME and TMPDIR
	writable  []string // folders left writable inside the namespace
	isolated  bool
	isolation string // one sentence for the report
}

// envDropped are variables replaced or removed: each would point a tool at
// the grader's own folders.
var envDropped = []string{"HOME", "TMPDIR", "TMP", "TEMP", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "PRACTICE_NOTES_ROOT"}

func newSandbox(ctx context.Context, base string, mode string) (*sandbox, error) {
	aux, err := os.MkdirTemp("", "practice-notes-acceptance-env-")
	if err != nil {
		return nil, err
	}
	sb := &sandbox{aux: aux, writable: []string{base, aux}}
	cache := func(name string) string {
		p := filepath.Join(aux, "toolcache", name)
		_ = os.MkdirAll(p, 0o755)
		return p
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !contains(envDropped, k) {
			env = append(env, kv)
		}
	}
	set := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	// Go: keep the grader's build and module caches (a fresh cache would
	// rebuild the SDK for every process) but never the fresh HOME.
	for k, v := range goEnv(ctx) {
		if os.Getenv(k) == "" {
			set(k, v)
		}
		if k == "GOCACHE" || k == "GOMODCACHE" {
			if st, err := os.Stat(v); err == nil && st.IsDir() {
				sb.writable = append(sb.writable, v)
			}
		}
	}
	set("GOTMPDIR", cache("gotmp"))
	// Node.js, Python and a few others: caches in the run's own folders.
	set("npm_config_cache", cache("npm"))
	set("npm_config_update_notifier", "false")
	set("npm_config_fund", "false")
	set("npm_config_audit", "false")
	set("PYTHONDONTWRITEBYTECODE", "1")
	set("PYTHONPYCACHEPREFIX", cache("pycache"))
	set("UV_CACHE_DIR", cache("uv"))
	set("PIP_CACHE_DIR", cache("pip"))
	set("DENO_DIR", cache("deno"))
	set("BUN_INSTALL_CACHE_DIR", cache("bun"))
	set("YARN_CACHE_FOLDER", cache("yarn"))
	if home, err := os.UserHomeDir(); err == nil {
		for _, k := range []string{"CARGO_HOME", "RUSTUP_HOME"} {
			dir := filepath.Join(home, "."+strings.ToLower(strings.TrimSuffix(k, "_HOME")))
			if os.Getenv(k) == "" {
				if _, err := os.Stat(dir); err == nil {
					set(k, dir)
				}
			}
		}
	}
	sb.env = env
	sb.isolation = "process group only: isolation was turned off (--isolation off); the server ran with the grader's rights, HOME and TMPDIR pointed at fresh folders"
	if mode != "off" {
		sb.isolated, sb.isolation = probeIsolation(ctx, sb)
	}
	return sb, nil
}

// goEnv asks the go command for the cache locations it would use with the
// grader's own HOME.
func goEnv(ctx context.Context) map[string]string {
	out := map[string]string{}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	keys := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}
	b, err := exec.CommandContext(ctx, goBin, append([]string{"env"}, keys...)...).Output()
	if err != nil {
		return out
	}
	for i, v := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i < len(keys) && v != "" && v != "off" {
			out[keys[i]] = v
		}
	}
	return out
}

// processDirs makes a fresh HOME and TMPDIR for one server process, and
// beside them the folder XDG_CONFIG_HOME points at. The go command writes
// telemetry counters under the user's config folder; that folder holds only
// go/telemetry/mode, set to off, so that `go run` writes nothing.
func (sb *sandbox) processDirs(name string) (home, tmp string, err error) {
	dir := filepath.Join(sb.aux, "process-"+name)
	home, tmp = filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	for _, d := range []string{home, tmp, filepath.Join(dir, "config", "go", "telemetry")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "go", "telemetry", "mode"), []byte("off"), 0o644); err != nil {
		return "", "", err
	}
	return home, tmp, nil
}

// configDir is the XDG_CONFIG_HOME of the process whose HOME is home.
func configDir(home string) string { return filepath.Join(filepath.Dir(home), "config") }

// envFor is the environment of one server process.
func (sb *sandbox) envFor(root, home, tmp string) []string {
	env := append([]string(nil), sb.env...)
	return append(env, "HOME="+home, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp,
		"XDG_CONFIG_HOME="+configDir(home), "PRACTICE_NOTES_ROOT="+root)
}

// leftovers lists what a process left in its HOME or TMPDIR (or config
// folder), with the start of each file's content. Paths for which skip
// returns true are the toolchain's own.
func leftovers(label, dir string, skip func(rel string) bool) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if rel, _ := filepath.Rel(dir, p); skip != nil && skip(filepath.ToSlash(rel)) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s/%s", label, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			line += "/ (directory)"
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			line += fmt.Sprintf(" (%d bytes: %q)", len(b), truncateBytes(string(b), 120))
		default:
			line += " (" + d.Type().String() + ")"
		}
		out = append(out, line)
		return nil
	})
	sort.Strings(out)
	return out
}

func (sb *sandbox) remove() {
	if sb != nil && sb.aux != "" {
		// Module caches are read-only; make everything removable first.
		_ = filepath.WalkDir(sb.aux, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		_ = os.RemoveAll(sb.aux)
	}
}
