package checks

import (
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// saysWritesRe finds a description that says its tool changes or runs
// something.
var saysWritesRe = regexp.MustCompile(`(?i)\b(writes?|deletes?|removes?|moves?|renames?|runs?|executes?|creates?|saves?|overwrites?|modif(?:y|ies)|uploads?|appends?)\b`)

// MayCall reports whether the harness may call a tool the server
// declares, annotated or not: every tool but one annotated
// destructiveHint: true or readOnlyHint: false, or whose name or
// description says it writes, deletes, moves or runs something (check 14
// lists those). What a called tool does is contained by the sandbox and
// seen by check 7.
func MayCall(t *mcp.Tool) bool {
	if a := t.Annotations; a != nil {
		if a.DestructiveHint != nil && *a.DestructiveHint {
			return false
		}
		if !a.ReadOnlyHint {
			return false
		}
	}
	return !writeToolRe.MatchString(t.Name) && !saysWritesRe.MatchString(t.Description)
}
