package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
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

// searchArgs lists the string arguments search_notes declares besides
// query.
func (s *session) searchArgs(ctx context.Context) []string {
	var out []string
	for _, t := range s.declared(ctx) {
		if t.name == "search_notes" {
			out = append(out, t.arg)
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
				out = append(out, pathTool{name: t.Name, arg: path})
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
// ("string", "[string null]", "array").
func properties(schema any) map[string]string {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var sc struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(b, &sc) != nil {
		return nil
	}
	out := make(map[string]string, len(sc.Properties))
	for n, p := range sc.Properties {
		out[n] = fmt.Sprint(p.Type)
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

// probeSearchArgs sends search_notes each folder in every string argument
// it declares besides query, with queries that find the files behind
// those folders, and says what was probed ("" when it declares none).
// What comes back is judged by the leak rules, as for any reply.
func (r *runner) probeSearchArgs(ctx context.Context, s *session, c *CheckResult, folders, queries []string) string {
	args := s.searchArgs(ctx)
	if len(args) == 0 || len(queries) == 0 || len(folders) == 0 {
		return ""
	}
	n := 0
	for _, arg := range args {
		for _, dir := range folders {
			for _, q := range queries {
				ex := s.callTool(ctx, "search_notes", map[string]any{"query": q, arg: dir}, dir, q)
				n++
				if ex.TimedOut {
					c.failOn(ex, "search_notes %s=%q got no answer within %s", arg, dir, r.cfg.Timeout)
				}
			}
		}
	}
	return fmt.Sprintf("%d searches with search_notes's own argument(s) %s set to %s", n, strings.Join(args, ", "), strings.Join(folders, ", "))
}

// pathArg names the first string property of a schema (sorted) whose name
// says it takes a path.
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

// probeTools sends each path to every read-only path tool and says what
// was probed ("" when there is no such tool).
func (r *runner) probeTools(ctx context.Context, s *session, c *CheckResult, paths []string) string {
	tools := s.pathTools(ctx)
	if len(tools) == 0 {
		return ""
	}
	var names []string
	for _, t := range tools {
		names = append(names, t.name)
		for _, p := range paths {
			ex := s.callTool(ctx, t.name, map[string]any{t.arg: p}, p)
			if ex.TimedOut {
				c.failOn(ex, "%s %s=%q got no answer within %s", t.name, t.arg, p, r.cfg.Timeout)
			}
		}
	}
	return fmt.Sprintf("%d path(s) sent to the read-only tool(s) %s", len(paths), strings.Join(names, ", "))
}

// probeResources reads root-relative paths through resources, which must
// refuse them, and fails when resources/list offers one of them.
func (r *runner) probeResources(ctx context.Context, s *session, c *CheckResult, paths []string) string {
	if !s.resourcesOffered() || len(paths) == 0 {
		return ""
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return ""
	}
	for _, l := range list {
		for _, p := range paths {
			if strings.HasSuffix(l.URI, p) || strings.Contains(l.URI, "linked-dir/") && strings.HasPrefix(p, "linked-dir") {
				c.failOn(lex, "resources/list offers %s", l.URI)
			}
		}
	}
	pre := r.resourcePrefix(list)
	var uris []string
	for _, p := range paths {
		uris = append(uris, pre+p)
	}
	refused := r.probeRefused(ctx, s, c, uris)
	return fmt.Sprintf("; %d/%d resources/read probes refused", refused, len(uris))
}

// folderProbes are the folders sent in search_notes's own arguments by
// the check id: the links it plants, and for check 17 the sibling folder
// whose name starts with the root's, relative and absolute.
func (r *runner) folderProbes(id string, links []string) []string {
	out := append([]string{}, links...)
	if id == "17" {
		out = append(out, "../"+filepath.Base(r.lay.SiblingDir), r.lay.SiblingDir)
	}
	return out
}
