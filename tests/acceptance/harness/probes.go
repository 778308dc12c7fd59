package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Every surface that takes a path is probed, not only search_notes:
// resources, and every other tool annotated readOnlyHint: true that has a
// string argument for a path, file, folder, dir, root or note. What comes
// back is judged by the run-wide leak rules (outside text or paths, and a
// listing of the folder above the root). A tool not annotated read-only
// is never called: calling it might change something (check 14 lists it).

var pathArgRe = regexp.MustCompile(`(?i)path|file|folder|dir|root|note|name|uri|location`)

// pathTool is a read-only tool and the argument it takes a path in.
type pathTool struct {
	name, arg string
}

// pathTools lists the read-only tools besides search_notes that take a
// path, asking tools/list once per process.
func (s *session) pathTools(ctx context.Context) []pathTool {
	if s.tools == nil {
		tools, _ := s.listTools(ctx)
		s.tools = []pathTool{}
		for _, t := range tools {
			if t.Name == "search_notes" || t.Annotations == nil || !t.Annotations.ReadOnlyHint {
				continue
			}
			if arg := pathArg(t.InputSchema); arg != "" {
				s.tools = append(s.tools, pathTool{t.Name, arg})
			}
		}
	}
	return s.tools
}

// pathArg names the first string property of a schema (sorted) whose name
// says it takes a path.
func pathArg(schema any) string {
	b, err := json.Marshal(schema)
	if err != nil {
		return ""
	}
	var sc struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(b, &sc) != nil {
		return ""
	}
	names := make([]string, 0, len(sc.Properties))
	for n := range sc.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if pathArgRe.MatchString(n) && strings.Contains(fmt.Sprint(sc.Properties[n].Type), "string") {
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
