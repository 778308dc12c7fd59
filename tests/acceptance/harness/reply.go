package harness

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// How a reply is read lives with the judges, in package checks.
type (
	reading      = checks.Reading
	paragraph    = checks.Paragraph
	N2Comparison = checks.N2Comparison
)

// readResult reads a tool result against the layout's notes.
func readResult(res *mcp.CallToolResult, query string, lay *layout) *reading {
	var paras []paragraph
	if lay != nil {
		paras = lay.paras
	}
	return checks.ReadResult(res, query, paras)
}

// notes is what the judges know of the root's notes.
func (l *layout) notes() *checks.Notes {
	n2Err := ""
	if l.N2Err != nil {
		n2Err = l.N2Err.Error()
	}
	entries, taken := l.rootEntries()
	return &checks.Notes{
		N2Err:     n2Err,
		Roots:     []string{l.Root, filepath.Join(l.BaseReal, "root")},
		SampleRel: l.SampleRel,
		N2:        l.N2,
		N2Section: l.N2Section,
		Paras:     l.paras,
		Links:     slices.Clone(l.links),
		Entries:   entries,
		Taken:     taken,
	}
}

// rootEntries lists everything in the root, root-relative, without
// following a link, and those whose name with a leading "/" also exists
// on the machine: what reading "/a.md" as a root note needs to know.
func (l *layout) rootEntries() (entries, taken []string) {
	_ = filepath.WalkDir(l.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == l.Root {
			return nil
		}
		rel, _ := filepath.Rel(l.Root, p)
		entries = append(entries, filepath.ToSlash(rel))
		if _, err := os.Lstat(string(filepath.Separator) + rel); err == nil {
			taken = append(taken, filepath.ToSlash(rel))
		}
		return nil
	})
	return entries, taken
}

// rootRel turns a file name from a reply into a root-relative path, or
// reports that it points outside the root.
func (l *layout) rootRel(f string) (string, bool) { return l.notes().RootRel(f) }

// namedFiles reads the root's regular files that the replies name as
// results, for the judges that compare a result with its file.
func (r *runner) namedFiles(shown map[string]*checks.Exchange) map[string]string {
	files := map[string]string{}
	for _, ex := range shown {
		if c := r.calls[ex]; c == nil || c.result == nil {
			continue
		}
		for _, f := range r.read(ex).Results {
			if rel, ok := r.lay.rootRel(f); ok {
				if content, err := r.lay.rootFile(rel); err == nil {
					files[rel] = content
				}
			}
		}
	}
	return files
}
