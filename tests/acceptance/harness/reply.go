package harness

import (
	"path/filepath"

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
	var links []checks.Link
	for _, ln := range l.links {
		links = append(links, checks.Link{Rel: ln.Rel, Dir: ln.Dir})
	}
	return &checks.Notes{
		N2Err:     n2Err,
		Roots:     []string{l.Root, filepath.Join(l.BaseReal, "root")},
		SampleRel: l.SampleRel,
		N2:        l.N2,
		N2Section: l.N2Section,
		Paras:     l.paras,
		Links:     links,
	}
}

// rootRel turns a file name from a reply into a root-relative path, or
// reports that it points outside the root.
func (l *layout) rootRel(f string) (string, bool) { return l.notes().RootRel(f) }

// namedFiles reads the root's regular files that the replies name as
// results, for the judges that compare a result with its file.
func (r *runner) namedFiles(shown map[string]*Exchange) map[string]string {
	files := map[string]string{}
	for _, ex := range shown {
		if ex.result == nil {
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
