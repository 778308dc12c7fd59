package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// ClientRun is what scripts/interop.sh saw when a real MCP client (Claude
// Code) ran the whole client loop against this repository's server with a
// scripted model: tests/interop/claude_code.mjs writes it, one file per
// commit. The record uses it only for the commit it graded, so that no
// run of another build is claimed.
type ClientRun struct {
	Client   string    `json:"client"`
	Version  string    `json:"version"`
	Commit   string    `json:"commit"`
	Modified bool      `json:"modified"`
	Date     time.Time `json:"date"`
	Checks   []struct {
		Transport string `json:"transport"`
		Name      string `json:"name"`
		OK        bool   `json:"ok"`
	} `json:"checks"`
}

// serverInputs are the files this repository's server is built from (the
// Go sources, the embedded instructions, the sample notes): a change to
// any of them makes the working tree another build than its commit.
// scripts/interop.sh uses the same pathspec.
var serverInputs = []string{"*.go", "go.mod", "go.sum", "instructions.md", "practice-data", ":!:tests/**"}

var commitRe = regexp.MustCompile(`^[0-9a-f]{40}$`)

// LoadClientRun reads the client run that dir (a folder inside this
// repository's clone, such as .interop/claude-code-runs) holds for the
// commit checked out now. It returns nil and the reason when there is none
// to use: no file for this commit, a run of a modified tree, or
// uncommitted changes to the server's inputs now. scripts/acceptance.sh
// builds the server it grades from that working tree, so with clean
// inputs the checked-out commit is the one graded.
func LoadClientRun(dir string) (*ClientRun, string, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		return strings.TrimSpace(string(out)), err
	}
	head, err := git("rev-parse", "HEAD")
	top, err2 := git("rev-parse", "--show-toplevel")
	if err != nil || err2 != nil || !commitRe.MatchString(head) {
		return nil, fmt.Sprintf("%s is not inside a git clone, so no commit can be matched", dir), nil
	}
	// Pathspecs are relative to the folder git runs in: run it at the top.
	status := exec.Command("git", append([]string{"-C", top, "status", "--porcelain", "--"}, serverInputs...)...)
	if st, err := status.Output(); err != nil || len(st) != 0 {
		return nil, fmt.Sprintf("the server's sources have uncommitted changes, so commit %.7s is not what was graded", head), nil
	}
	file := filepath.Join(dir, head+".json")
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Sprintf("no client run for commit %.7s in %s (scripts/interop.sh writes it)", head, dir), nil
	}
	if err != nil {
		return nil, "", err
	}
	var cr ClientRun
	if err := json.Unmarshal(b, &cr); err != nil {
		return nil, "", fmt.Errorf("%s: %w", file, err)
	}
	switch {
	case cr.Commit != head:
		return nil, fmt.Sprintf("%s is for commit %.7s, not %.7s", file, cr.Commit, head), nil
	case cr.Modified:
		return nil, fmt.Sprintf("%s was a run of commit %.7s with uncommitted changes", file, head), nil
	case cr.Client == "" || cr.Version == "" || len(cr.Checks) == 0:
		return nil, fmt.Sprintf("%s names no client, version or checks", file), nil
	}
	return &cr, "", nil
}

// claimed are the checks, by a word of their names, that a transport's
// run must hold for the record to say what it says of it.
var claimed = []string{"completed the loop", "the model was shown", "description", "input schema", "N2 passage", "no-match message", "tool error", "Connected"}

// Passed reports whether the run checked transport with every check the
// record speaks of, and every check of it, and of the client's version,
// passed.
func (cr *ClientRun) Passed(transport string) bool {
	if cr == nil {
		return false
	}
	seen := map[string]bool{}
	for _, c := range cr.Checks {
		if c.Transport != transport && c.Transport != "version" {
			continue
		}
		if !c.OK {
			return false
		}
		for _, w := range claimed {
			if c.Transport == transport && strings.Contains(c.Name, w) {
				seen[w] = true
			}
		}
	}
	return len(seen) == len(claimed)
}

// transports names the transports that passed, in words; long adds how
// each was set up.
func (cr *ClientRun) transports(long bool) string {
	var t []string
	if cr.Passed("stdio") {
		t = append(t, "over stdio")
		if long {
			t[len(t)-1] += " (started from the block `practice-notes config -client claude` prints, unchanged, as `--mcp-config`)"
		}
	}
	if cr.Passed("http") {
		t = append(t, "over Streamable HTTP")
		if long {
			t[len(t)-1] += " (`claude mcp add --transport http` against `serve -http` on 127.0.0.1)"
		}
	}
	return strings.Join(t, " and ")
}
