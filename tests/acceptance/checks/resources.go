package checks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

// Checks 3, 4 and 5 read files through resources when the server offers
// them: a file inside the root must come back, a path that leaves it must
// be refused.

// templateVarRe is one variable of a URI template: {path}, {+path}, {/path}.
var templateVarRe = regexp.MustCompile(`\{[+#/.;?&]?[A-Za-z0-9_]+\*?\}`)

// offeredURI finds a URI the server itself offered for rel: a listed
// resource, a resource link in a search reply, or a template with one
// variable filled with rel. It returns "" when the server offered none,
// and where the URI came from.
func offeredURI(rel string, list []*mcp.Resource, templates []*mcp.ResourceTemplate, reply *mcp.CallToolResult) (uri, from string) {
	for _, res := range list {
		if res != nil && strings.HasSuffix(res.URI, rel) {
			return res.URI, "resources/list"
		}
	}
	if reply != nil {
		for _, c := range reply.Content {
			switch b := c.(type) {
			case *mcp.ResourceLink:
				if strings.HasSuffix(b.URI, rel) {
					return b.URI, "a resource link in the search reply"
				}
			case *mcp.EmbeddedResource:
				if b.Resource != nil && strings.HasSuffix(b.Resource.URI, rel) {
					return b.Resource.URI, "a resource in the search reply"
				}
			}
		}
	}
	for _, t := range templates {
		if t == nil || len(templateVarRe.FindAllString(t.URITemplate, -1)) != 1 {
			continue
		}
		v := templateVarRe.FindString(t.URITemplate)
		val := rel
		if !strings.HasPrefix(v, "{+") {
			// Simple expansion escapes '/': a template that wants one
			// segment gets the escaped path, as a client would send it.
			val = strings.ReplaceAll(rel, "/", "%2F")
		}
		return strings.Replace(t.URITemplate, v, val, 1), "the template " + t.URITemplate
	}
	return "", ""
}

// PageStep names page i (from 0) of a listing sent under step.
func PageStep(step string, i int) string {
	if i == 0 {
		return step
	}
	return fmt.Sprintf("%s, page %d", step, i+1)
}

// listed reads every page of the resources/list sent under step, and
// fails the check when a page got no answer.
func (v *Verdict) listed(f *Facts, step string) (list []*mcp.Resource, pages []Exchange, ok bool) {
	for i := 0; ; i++ {
		ex, found := f.step(PageStep(step, i))
		if !found {
			return list, pages, len(pages) > 0
		}
		if !v.got(ex, "resources/list") {
			return nil, nil, false
		}
		pages = append(pages, ex)
		list = append(list, resourcesOf(ex)...)
	}
}

// listedAll reads the resources of every page a probe got, and says
// whether every page was answered.
func listedAll(pages []Exchange) ([]*mcp.Resource, bool) {
	var list []*mcp.Resource
	for _, p := range pages {
		if !answered(p) {
			return nil, false
		}
		list = append(list, resourcesOf(p)...)
	}
	return list, len(pages) > 0
}

// resourcesOf reads the resources of a resources/list reply.
func resourcesOf(ex Exchange) []*mcp.Resource {
	var reply struct {
		Result struct {
			Resources []*mcp.Resource `json:"resources"`
		} `json:"result"`
	}
	_ = json.Unmarshal([]byte(ex.Reply), &reply)
	return reply.Result.Resources
}

// templatesOf reads the templates of a resources/templates/list reply.
func templatesOf(ex Exchange) []*mcp.ResourceTemplate {
	var reply struct {
		Result struct {
			Templates []*mcp.ResourceTemplate `json:"resourceTemplates"`
		} `json:"result"`
	}
	_ = json.Unmarshal([]byte(ex.Reply), &reply)
	return reply.Result.Templates
}

// resourceText joins the contents of a resources/read reply.
func resourceText(ex Exchange) string {
	var reply struct {
		Result *mcp.ReadResourceResult `json:"result"`
	}
	if json.Unmarshal([]byte(ex.Reply), &reply) != nil || reply.Result == nil {
		return ""
	}
	var parts []string
	for _, c := range reply.Result.Contents {
		if c != nil {
			parts = append(parts, c.Text+string(c.Blob))
		}
	}
	return strings.Join(parts, "")
}

// resourcePrefix finds how the server spells a root-relative URI, from a
// listed resource for sample-notes.md or another planted note, defaulting
// to practice-notes:///.
func (f *Facts) resourcePrefix(list []*mcp.Resource) string {
	var known []string
	if f.Notes != nil {
		known = append(known, f.Notes.SampleRel)
	}
	known = append(known, f.of(validNote).Rel)
	known = append(known, f.of(boundPhrase).Files...)
	for _, res := range list {
		for _, k := range known {
			if k != "" && strings.HasSuffix(res.URI, k) {
				return strings.TrimSuffix(res.URI, k)
			}
		}
	}
	return "practice-notes:///"
}

func readStep(i int) string { return fmt.Sprintf("read resource %d", i+1) }

// readAll reads each URI through resources.
func readAll(w Wire, uris []string, sent ...string) {
	for i, u := range uris {
		w.ReadResource(readStep(i), u, sent...)
	}
}

// judgeRefused requires a JSON-RPC error for every URI readAll read, and
// returns how many were refused.
func (v *Verdict) judgeRefused(f *Facts, uris []string) int {
	refused := 0
	for i, u := range uris {
		ex, _ := f.step(readStep(i))
		if ex.Error != "" {
			if ex.TimedOut {
				v.fail(ex, "resources/read %s got no answer within %s", u, f.TimeLimit)
			}
			if !ex.TimedOut && !ex.NotSent {
				refused++
			}
			continue
		}
		v.fail(ex, "resources/read %s was not refused (returned %d bytes)", u, len(resourceText(ex)))
	}
	return refused
}

// got fails the check for a request that got no answer and says whether
// it got one, as Verdict.answered does; a reply that was on stdout but
// that the client could no longer take is said to be so.
func (v *Verdict) got(ex Exchange, method string) bool {
	if ex.NotSent {
		return false // the request the server did not answer is the finding
	}
	if ex.Error == "" {
		return true
	}
	msg := fmt.Sprintf("%s got no answer: %s", method, visible.Clip(ex.Error, 200))
	if n := len(ex.Out); n > 0 && (ex.TimedOut || parse(ex.Out[n-1]).err() == nil) {
		msg = fmt.Sprintf("%s was answered on stdout, but the client had dropped the session and could not read the reply: %s", method, visible.Clip(ex.Error, 200))
	}
	v.Findings = append(v.Findings, Finding{Step: ex.Step, Msg: msg})
	return false
}
