package harness

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

func TestClassifyStdoutLine(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		violate bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", true, false},
		{`[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":2,"result":1}]`, true, false},
		{"\n", false, false},
		{"practice-notes ready\n", false, true},
		{`{"id":1,"result":{}}`, false, true},
		{`{"jsonrpc":"1.0","id":1}`, false, true},
		{`[]`, false, true},
		{`[{"jsonrpc":"2.0","id":1},"x"]`, false, true},
		{`{"jsonrpc":"2.0",`, false, true},
	}
	for _, tt := range tests {
		ok, why := classifyStdoutLine([]byte(tt.line))
		if ok != tt.ok || (why != "") != tt.violate {
			t.Errorf("classify(%q) = %v, %q; want ok=%v violation=%v", tt.line, ok, why, tt.ok, tt.violate)
		}
	}
}

func TestSnapshotDiff(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.md"), []byte("one"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "b.md"), []byte("two"), 0o644))
	must(os.Symlink("a.md", filepath.Join(dir, "link.md")))
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{dir, filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")} {
		must(os.Chtimes(p, old, old))
	}
	before, err := takeSnapshot(dir)
	must(err)
	changes := func(after snapshot) []string {
		def, _ := checks.ByID("7")
		var out []string
		for _, f := range def.Judge(&checks.Facts{Files: &checks.FileFacts{Before: before, After: after}, Answered: 1}).Findings {
			out = append(out, f.Msg)
		}
		return out
	}
	if again, _ := takeSnapshot(dir); len(changes(again)) != 0 {
		t.Fatalf("unchanged tree reported changes: %v", changes(again))
	}

	must(os.WriteFile(filepath.Join(dir, "a.md"), []byte("ONE"), 0o644))
	must(os.Chtimes(filepath.Join(dir, "b.md"), time.Now(), time.Now()))
	must(os.Remove(filepath.Join(dir, "link.md")))
	must(os.WriteFile(filepath.Join(dir, "new.md"), nil, 0o644))
	after, err := takeSnapshot(dir)
	must(err)
	got := changes(after)
	var kinds []string
	for _, d := range got {
		f := strings.Fields(d)
		kinds = append(kinds, f[0]+" "+strings.TrimSuffix(f[1], ":"))
	}
	want := []string{"created new.md", "removed link.md", "changed a.md", "changed .", "changed b.md"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("(-want +got):\n%s\nfull: %v", diff, got)
	}
}

func TestExpandCommand(t *testing.T) {
	tests := []struct{ goos, tmpl, root, want string }{
		{"linux", "srv serve -root {root}", "/tmp/x/root", "srv serve -root /tmp/x/root"},
		{"linux", "srv --root {root}", "/tmp/a b/root", "srv --root '/tmp/a b/root'"},
		{"darwin", "srv --root {root}", "/tmp/it's/root", `srv --root '/tmp/it'\''s/root'`},
		{"linux", "srv", "/tmp/x", "srv"},
		// cmd.exe does not know single quotes: they would reach the server.
		{"windows", "srv.exe serve -root {root}", `C:\Users\a b\Temp\x\root`, `srv.exe serve -root "C:\Users\a b\Temp\x\root"`},
		{"windows", "py server.py --root {root}", `C:\Users\it's\root`, `py server.py --root "C:\Users\it's\root"`},
	}
	for _, tt := range tests {
		if got := expandCommandFor(tt.goos, tt.tmpl, tt.root); got != tt.want {
			t.Errorf("%s: expandCommand(%q, %q) = %q, want %q", tt.goos, tt.tmpl, tt.root, got, tt.want)
		}
	}
}

func TestRootFileRefusesEscapes(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(filepath.Join(root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d", "ok.md"), []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "out.md"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../out.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	l := &layout{Root: root}
	if got, err := l.rootFile("d/ok.md"); err != nil || got != "fine" {
		t.Errorf("rootFile(d/ok.md) = %q, %v", got, err)
	}
	for _, bad := range []string{"../out.md", "/etc/passwd", base + "/out.md", "link.md", `d\ok.md`, "", "d"} {
		if got, err := l.rootFile(bad); err == nil {
			t.Errorf("rootFile(%q) = %q, want an error", bad, got)
		}
	}
}

func TestReadLineBoundsLength(t *testing.T) {
	in := strings.Repeat("x", 300) + "\nshort\n" + "tail"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	type res struct {
		Line    string
		TooLong bool
	}
	var got []res
	for {
		line, tooLong, err := readLine(br, 100)
		if len(line) > 0 || tooLong {
			got = append(got, res{string(line), tooLong})
		}
		if err != nil {
			break
		}
	}
	want := []res{{"", true}, {"short\n", false}, {"tail", false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Without --evidence, the evidence goes beside the record.
func TestEvidencePath(t *testing.T) {
	for record, want := range map[string]string{
		"COMPLETION.md":        "COMPLETION.evidence.md",
		"out/record.md":        "out/record.evidence.md",
		"notes/record":         "notes/record.evidence.md",
		"/abs/path/learner.md": "/abs/path/learner.evidence.md",
	} {
		if got := EvidencePath(record); got != want {
			t.Errorf("EvidencePath(%q) = %q, want %q", record, got, want)
		}
	}
}
