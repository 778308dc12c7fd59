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
	return &checks.Notes{
		N2Err:     n2Err,
		Roots:     []string{l.Root, filepath.Join(l.BaseReal, "root")},
		SampleRel: l.SampleRel,
		N2:        l.N2,
		N2Section: l.N2Section,
		Paras:     l.paras,
	}
}

// rootRel turns a file name from a reply into a root-relative path, or
// reports that it points outside the root.
func (l *layout) rootRel(f string) (string, bool) { return l.notes().RootRel(f) }
