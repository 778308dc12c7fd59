package script

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// nodeVersion reads "22.19" or ">=22.19.0" as comparable numbers.
func nodeVersion(t *testing.T, s string) [3]int {
	t.Helper()
	var v [3]int
	for i, p := range strings.SplitN(strings.TrimPrefix(s, ">="), ".", 3) {
		n, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("version %q: %v", s, err)
		}
		v[i] = n
	}
	return v
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// TestReadmeNodeVersions holds the README to the Node.js tools it names:
// each is pinned at the version the interop lock files test, and the Node
// version the README asks for is at least what each one's engines field
// requires, which the README also states for each.
func TestReadmeNodeVersions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	m := regexp.MustCompile(`\*\*Node\.js (\d+(?:\.\d+)*) or newer\*\*`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal(`README.md does not say "**Node.js X or newer**"`)
	}
	asked := nodeVersion(t, m[1])
	for _, tool := range []struct{ pkg, lock, name string }{
		{"@modelcontextprotocol/inspector", "tests/interop/package-lock.json", "Inspector"},
		{"@anthropic-ai/claude-code", "tests/interop/claude-code/package-lock.json", "Claude Code"},
	} {
		var lock struct {
			Packages map[string]struct {
				Version string            `json:"version"`
				Engines map[string]string `json:"engines"`
			} `json:"packages"`
		}
		lb, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(tool.lock)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(lb, &lock); err != nil {
			t.Fatalf("%s: %v", tool.lock, err)
		}
		p, ok := lock.Packages["node_modules/"+tool.pkg]
		if !ok {
			t.Fatalf("%s does not lock %s", tool.lock, tool.pkg)
		}
		if !strings.Contains(readme, tool.pkg+"@"+p.Version) {
			t.Errorf("README.md does not pin %s@%s, the version %s tests", tool.pkg, p.Version, tool.lock)
		}
		needs := p.Engines["node"]
		if !strings.HasPrefix(needs, ">=") {
			t.Fatalf("%s %s: engines.node %q is not a minimum", tool.pkg, p.Version, needs)
		}
		min := nodeVersion(t, needs)
		if less(asked, min) {
			t.Errorf("README.md asks for Node.js %s, but %s %s requires %s", m[1], tool.pkg, p.Version, needs)
		}
		// "Claude Code 2.1.328 requires 22", "Inspector 2.12.0 requires 22.19".
		short := strconv.Itoa(min[0])
		if min[1] != 0 || min[2] != 0 {
			short += "." + strconv.Itoa(min[1])
		}
		if min[2] != 0 {
			short += "." + strconv.Itoa(min[2])
		}
		if want := tool.name + " " + p.Version + " requires " + short; !strings.Contains(strings.Join(strings.Fields(readme), " "), want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
