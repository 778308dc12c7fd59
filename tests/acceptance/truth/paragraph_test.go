package truth

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParagraphs(t *testing.T) {
	type p struct {
		Text  string
		Line  int
		Forms []string
	}
	tests := []struct {
		name string
		data string
		want []p
	}{
		{"blank lines split", "a\nb\n\nc\n", []p{{"a\nb", 1, nil}, {"c", 4, nil}}},
		{"CRLF kept inside, dropped at the end", "a\r\nb\r\n\r\nc\r\n", []p{{"a\r\nb", 1, nil}, {"c", 4, nil}}},
		{"blank line of spaces, tabs and CR", "a\n \t\r\nb", []p{{"a", 1, nil}, {"b", 3, nil}}},
		{"heading touching text", "# H\ntext\nmore\n\n## K\n", []p{
			{"# H", 1, []string{"# H\ntext\nmore"}},
			{"text\nmore", 2, []string{"# H\ntext\nmore"}},
			{"## K", 5, nil},
		}},
		{"not headings", "#tag\n####### seven\n    # indented four\n", []p{{"#tag\n####### seven\n    # indented four", 1, nil}}},
		{"heading of hashes alone", "text\n##\n", []p{{"text", 1, []string{"text\n##"}}, {"##", 2, []string{"text\n##"}}}},
		{"lone CR, FF, LS and NEL stay inside a line", "a\rb\fc\u2028d\u0085e\n\nf", []p{{"a\rb\fc\u2028d\u0085e", 1, nil}, {"f", 3, nil}}},
		{"a line of a form feed is not blank", "a\n\f\nb", []p{{"a\n\f\nb", 1, nil}}},
		{"byte-order mark", "\uFEFFfirst\n\nsecond", []p{{"first", 1, []string{"\uFEFFfirst"}}, {"second", 3, nil}}},
		{"byte-order mark before a heading", "\uFEFF# H\ntext", []p{
			{"# H", 1, []string{"# H\ntext", "\uFEFF# H", "\uFEFF# H\ntext"}},
			{"text", 2, []string{"# H\ntext", "\uFEFF# H\ntext"}},
		}},
		{"no final line break", "a\nb", []p{{"a\nb", 1, nil}}},
		{"lone CR at the end stays", "a\r", []p{{"a\r", 1, nil}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []p
			data := []byte(tt.data)
			for _, q := range paragraphs(data) {
				got = append(got, p{string(data[q.start:q.end]), q.line, q.forms})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("paragraphs(%q) (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}
