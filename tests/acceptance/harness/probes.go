package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// Every surface that takes a path is probed, not only search_notes:
// resources, every other tool the harness may call (checks.MayCall:
// annotated read-only, or not annotated at all, and not saying it writes)
// that has a string argument for a path, file, folder, dir, root or note,
// and every string argument search_notes declares besides query; check 4
// also fills every other string argument of those tools. What
// comes back is judged by the run-wide leak rules (outside text or paths,
// and a listing of the folder above the root). A tool annotated
// destructive or not read-only, or whose name or description says it
// writes, is never called (check 14 lists it).

var pathArgRe = regexp.MustCompile(`(?i)path|file|folder|dir|root|note|name|uri|location`)

// pathTool is a tool the harness may call and one string argument of it.
type pathTool struct {
	name, arg string
	// other marks an argument of a tool besides search_notes that is not
	// the one it takes a path in (which pathArg names): only check 4
	// fills it.
	other bool
	array bool // it takes an array
}

// pathTools lists the tools besides search_notes the harness may call
// that take a path, asking tools/list once per process.
func (s *session) pathTools(ctx context.Context) []pathTool {
	var out []pathTool
	for _, t := range s.declared(ctx) {
		if t.name != "search_notes" && !t.other {
			out = append(out, t)
		}
	}
	return out
}

// toolArgs lists the string and string-array arguments search_notes
// declares besides query, and those of the other tools the harness may
// call besides the one pathTools names.
func (s *session) toolArgs(ctx context.Context) []checks.ToolArg {
	var out []checks.ToolArg
	for _, t := range s.declared(ctx) {
		if t.name == "search_notes" || t.other {
			out = append(out, checks.ToolArg{Tool: t.name, Arg: t.arg, Array: t.array})
		}
	}
	return out
}

// declared lists the callable tools that take a path, each with the
// argument it takes it in, and every string argument of search_notes
// besides query and of the callable tools besides that one, asking
// tools/list once per process.
func (s *session) declared(ctx context.Context) []pathTool {
	if s.tools == nil {
		tools, _ := s.listTools(ctx)
		s.tools = declaredArgs(tools)
	}
	return s.tools
}

// declaredArgs reads the arguments the probes fill from a tools/list.
func declaredArgs(tools []*mcp.Tool) []pathTool {
	out := []pathTool{}
	for _, t := range tools {
		props := properties(t.InputSchema)
		switch {
		case t.Name == "search_notes":
			for _, arg := range stringArgs(t.InputSchema) {
				if arg != "query" {
					out = append(out, pathTool{name: t.Name, arg: arg, array: strings.Contains(props[arg], "array")})
				}
			}
		case checks.MayCall(t):
			path := pathArg(t.InputSchema)
			if path != "" {
				out = append(out, pathTool{name: t.Name, arg: path, array: strings.Contains(props[path], "array")})
			}
			for _, arg := range stringArgs(t.InputSchema) {
				if arg != path {
					out = append(out, pathTool{name: t.Name, arg: arg, other: true, array: strings.Contains(props[arg], "array")})
				}
			}
		}
	}
	return out
}

// properties reads the type of each property of a schema, as text
// ("string", "[string null]", "array", "array of string").
func properties(schema any) map[string]string {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var sc struct {
		Properties map[string]struct {
			Type  any `json:"type"`
			Items *struct {
				Type any `json:"type"`
			} `json:"items"`
		} `json:"properties"`
	}
	if json.Unmarshal(b, &sc) != nil {
		return nil
	}
	out := make(map[string]string, len(sc.Properties))
	for n, p := range sc.Properties {
		out[n] = fmt.Sprint(p.Type)
		if p.Items != nil && p.Items.Type != nil && strings.Contains(out[n], "array") {
			out[n] += " of " + fmt.Sprint(p.Items.Type)
		}
	}
	return out
}

// stringArgs names the string and array properties of a schema, sorted
// (a string sent where an array of another kind is declared is refused).
func stringArgs(schema any) []string {
	var names []string
	for n, t := range properties(schema) {
		if strings.Contains(t, "string") || strings.Contains(t, "array") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// pathArg names the first property of a schema (sorted) whose name says
// it takes a path and that takes a string or an array of strings.
func pathArg(schema any) string {
	props := properties(schema)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if pathArgRe.MatchString(n) && strings.Contains(props[n], "string") {
			return n
		}
	}
	return ""
}
