package harness

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// maxListed bounds the resources read from resources/list, and
// maxPages its pages.
const (
	maxListed = 1000
	maxPages  = 50
)

// listResourcePages asks resources/list page by page, each page an
// exchange of its own, until a page has no next cursor or fails, or the
// bounds are reached.
func (s *session) listResourcePages(ctx context.Context) []*checks.Exchange {
	var out []*checks.Exchange
	cursor, n := "", 0
	for {
		ex := &checks.Exchange{Check: s.check, Method: "resources/list", Request: "{}"}
		if cursor != "" {
			ex.Request = marshal(map[string]string{"cursor": cursor})
		}
		out = append(out, ex)
		if s.skipStuck(ex) {
			return out
		}
		res, err := s.listResourcePage(ctx, ex, cursor)
		if err != nil || res.NextCursor == "" {
			return out
		}
		if n += len(res.Resources); n > maxListed || len(out) >= maxPages {
			return out
		}
		cursor = res.NextCursor
	}
}

func (s *session) listResourcePage(ctx context.Context, ex *checks.Exchange, cursor string) (*mcp.ListResourcesResult, error) {
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := s.begin()
	res, err := s.cs.ListResources(cctx, &mcp.ListResourcesParams{Cursor: cursor})
	if err == nil {
		ex.Decoded = marshal(map[string]any{"resources": res.Resources})
		s.calls.of(ex).text = ex.Decoded
	}
	s.record(ex, t0, mark, cctx, err)
	return res, err
}

// listTemplates asks resources/templates/list; a server that answers
// with an error or not at all offers none.
func (s *session) listTemplates(ctx context.Context) *checks.Exchange {
	ex := &checks.Exchange{Check: s.check, Method: "resources/templates/list", Request: "{}"}
	if s.skipStuck(ex) {
		return ex
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0, mark := s.begin()
	var list []*mcp.ResourceTemplate
	var err error
	for t, e := range s.cs.ResourceTemplates(cctx, nil) {
		if e != nil {
			err = e
			break
		}
		list = append(list, t)
		if len(list) > 100 {
			break
		}
	}
	if err == nil {
		ex.Decoded = marshal(map[string]any{"resourceTemplates": list})
		s.calls.of(ex).text = ex.Decoded
	}
	s.record(ex, t0, mark, cctx, err)
	return ex
}
