//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimesLeaveNoFilesOfTheirOwn starts real runtimes in the sandbox,
// isolated and not, on programs that make them write their caches (a Go
// program built by `go run`, a Python program importing a module of its
// own folder, Node's compile cache where this Node has one, Bun's
// transpiler cache and Deno's compiled code where bun and deno are on
// PATH), and checks that nothing is left in the process's HOME, TMPDIR or
// config folder, nor beside the program (where Python would put
// __pycache__), and that what the runtime cached is listed as its own.
func TestRuntimesLeaveNoFilesOfTheirOwn(t *testing.T) {
	src, err := os.MkdirTemp("", "sandbox-runtimes-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(src) })
	// As root the server runs as a uid of its own, which must read src.
	if err := os.Chmod(src, 0o755); err != nil {
		t.Fatal(err)
	}
	// The server's folder, the one it sees of the grader's files, is the
	// one the sandbox is made in.
	t.Chdir(src)
	files := map[string]string{
		"go.mod":     "module tiny\n\ngo 1.22\n",
		"main.go":    "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built and ran\") }\n",
		"helper.py":  "WORD = 'imported'\n",
		"program.py": "import helper\nprint(helper.WORD)\n",
		// Bun caches the transpiled code of files over 50 KB.
		"helper.ts": "export const WORD: string = 'imported';\nexport const pad: number[] = [\n" + strings.Repeat("  0, 1, 2, 3, 4, 5, 6, 7, 8, 9,\n", 2000) + "];\n",
		"main.ts":   "import { WORD } from './helper.ts';\nconsole.log(WORD);\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	programs := []struct {
		runtime, line, want string
		skip                string
		listed              string // the start of the runtime's line in RuntimeFiles, on the first run
	}{
		{runtime: "go run", line: "cd " + src + " && " + goBin + " run .", want: "built and ran"},
		{runtime: "python3", line: "cd " + src + " && python3 program.py", want: "imported"},
		{runtime: "node", line: `node -e "const m = require('node:module'); console.log(m.enableCompileCache().directory)"`},
		{runtime: "bun", line: "cd " + src + " && bun main.ts", want: "imported", listed: "$BUN_RUNTIME_TRANSPILER_CACHE_PATH ("},
		{runtime: "deno", line: "cd " + src + " && deno run main.ts", want: "imported", listed: "$DENO_DIR ("},
	}
	programs[1].skip = unrunnable("python3", "-c", "pass")
	for i := 3; i < len(programs); i++ {
		programs[i].skip = unrunnable(programs[i].runtime, "--version")
	}
	if why := unrunnable("node", "--version"); why != "" {
		programs[2].skip = why
	} else if out, err := exec.Command("node", "-e", "process.stdout.write(typeof require('node:module').enableCompileCache)").Output(); err != nil || string(out) != "function" {
		programs[2].skip = "this Node has no compile cache (Node 22.1 or later has)"
	}
	for _, mode := range []string{"auto", "off"} {
		base, err := os.MkdirTemp("", "sandbox-runtimes-base-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(base) })
		sb, err := New(context.Background(), Config{Base: base, Isolation: mode, Limits: DefaultLimits()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sb.Remove)
		for _, p := range programs {
			t.Run(mode+"/"+p.runtime, func(t *testing.T) {
				if p.skip != "" {
					t.Skip("SKIP: " + p.skip)
				}
				home, tmp, err := sb.ProcessDirs(strings.ReplaceAll(mode+"-"+p.runtime, " ", "-"))
				if err != nil {
					t.Fatal(err)
				}
				cmd := sb.Command(p.line)
				cmd.Env = append(cmd.Env, sb.Env(base, home, tmp)...)
				var out strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := sb.Start(cmd); err != nil {
					t.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					t.Fatalf("%s: %v\n%s", p.line, err, out.String())
				}
				if !strings.Contains(out.String(), p.want) {
					t.Errorf("%s printed %q, want %q", p.line, out.String(), p.want)
				}
				if p.runtime == "node" && (strings.HasPrefix(out.String(), home) || strings.HasPrefix(out.String(), tmp)) {
					t.Errorf("Node's compile cache is %s, in the server's folders", strings.TrimSpace(out.String()))
				}
				for _, l := range sb.Leftovers(home, tmp) {
					t.Errorf("%s left %s", p.runtime, l)
				}
				if rt := sb.RuntimeFiles(home, tmp); p.listed != "" && (len(rt) == 0 || !strings.HasPrefix(rt[0], p.listed)) {
					t.Errorf("%s's files, listed as its own: %q, want a line starting %q", p.runtime, rt, p.listed)
				}
				if _, err := os.Stat(filepath.Join(src, "__pycache__")); err == nil {
					t.Errorf("%s wrote __pycache__ beside the program", p.runtime)
				}
			})
		}
	}
}

// TestRuntimeFilesListedNotCharged starts real processes in the sandbox,
// isolated and not, and checks what check 16 is given: a Python program
// that turns bytecode writing back on and imports a module of its own
// folder writes into the run's bytecode folder, which is listed, not
// charged; a runtime that ignores its variable (as an older Bun or Node
// would, here a shell writing where they write) leaves files at its own
// path in HOME or TMPDIR, listed, not charged; and a file the program
// writes itself beside them is charged.
func TestRuntimeFilesListedNotCharged(t *testing.T) {
	needRunnable(t, "python3", "-c", "pass")
	src, err := os.MkdirTemp("", "sandbox-runtime-files-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(src) })
	if err := os.Chmod(src, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(src) // the server's folder
	files := map[string]string{
		"helper.py":  "WORD = 'imported'\n",
		"program.py": "import sys\nsys.dont_write_bytecode = False\nimport helper\nprint(helper.WORD)\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	programs := []struct {
		name, line   string
		wantRuntime  []string // prefixes of RuntimeFiles lines, in order
		wantCharged  []string // prefixes of Leftovers lines, in order
		wantPrinted  string
		besideSource bool
	}{
		{name: "python-bytecode", line: "cd " + src + " && python3 program.py", wantPrinted: "imported",
			wantRuntime: []string{"$PYTHONPYCACHEPREFIX (1 file, "}},
		{name: "bun-ignoring-its-variable",
			line:        `mkdir -p "$HOME/.bun/install/cache/@t@" && echo cached > "$HOME/.bun/install/cache/@t@/a.pile" && echo cached > "$HOME/.bun/install/cache/@t@/b.pile" && mkdir -p "$TMPDIR/tsx-1000" && echo x > "$TMPDIR/tsx-1000/c.json" && echo mine > "$HOME/.bunhistory" && echo mine > "$TMPDIR/node-compile-cache-not"`,
			wantRuntime: []string{"$HOME/.bun/install/cache (2 files, Bun)", "$TMPDIR/tsx-1000 (1 file, tsx)"},
			wantCharged: []string{"$HOME/.bunhistory (5 bytes", "$TMPDIR/node-compile-cache-not (5 bytes"}},
	}
	for _, mode := range []string{"auto", "off"} {
		base, err := os.MkdirTemp("", "sandbox-runtime-files-base-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(base) })
		sb, err := New(context.Background(), Config{Base: base, Isolation: mode, Limits: DefaultLimits()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sb.Remove)
		for i := 0; i < 2; i++ { // the second process finds the cache full, and adds nothing
			for _, p := range programs {
				t.Run(fmt.Sprintf("%s/%s/%d", mode, p.name, i), func(t *testing.T) {
					home, tmp, err := sb.ProcessDirs(fmt.Sprintf("%s-%s-%d", mode, p.name, i))
					if err != nil {
						t.Fatal(err)
					}
					cmd := sb.Command(p.line)
					cmd.Env = append(cmd.Env, sb.Env(base, home, tmp)...)
					var out strings.Builder
					cmd.Stdout, cmd.Stderr = &out, &out
					if err := sb.Start(cmd); err != nil {
						t.Fatal(err)
					}
					if err := cmd.Wait(); err != nil {
						t.Fatalf("%s: %v\n%s", p.line, err, out.String())
					}
					if !strings.Contains(out.String(), p.wantPrinted) {
						t.Errorf("printed %q, want %q", out.String(), p.wantPrinted)
					}
					wantRuntime := p.wantRuntime
					if i == 1 && p.name == "python-bytecode" {
						wantRuntime = nil
					}
					if msg := prefixes(sb.RuntimeFiles(home, tmp), wantRuntime); msg != "" {
						t.Errorf("runtime files, not charged: %s", msg)
					}
					if msg := prefixes(sb.Leftovers(home, tmp), p.wantCharged); msg != "" {
						t.Errorf("charged: %s", msg)
					}
					if _, err := os.Stat(filepath.Join(src, "__pycache__")); err == nil {
						t.Errorf("__pycache__ was written beside the program")
					}
				})
			}
		}
	}
}

// prefixes says how lines differ from the prefixes want, one each, or "".
func prefixes(lines, want []string) string {
	if len(lines) != len(want) {
		return fmt.Sprintf("got %q, want lines starting %q", lines, want)
	}
	for i := range lines {
		if !strings.HasPrefix(lines[i], want[i]) {
			return fmt.Sprintf("got %q, want lines starting %q", lines, want)
		}
	}
	return ""
}
