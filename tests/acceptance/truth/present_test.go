package truth

import (
	"slices"
	"strings"
	"testing"
)

func TestExact(t *testing.T) {
	const para = "The first line\nthe second line."
	const crlfPara = "The first line\r\nthe second line."
	tests := []struct {
		name      string
		passage   string
		paragraph string
		want      bool
	}{
		{"as is", para, para, true},
		{"with its line ending", para + "\n", para, true},
		{"with its CRLF ending", crlfPara + "\r\n", crlfPara, true},
		{"two line endings", para + "\n\n", para, false},
		{"quoted", "> The first line\n> the second line.", para, true},
		{"quoted, one line not", "> The first line\nthe second line.", para, false},
		{"quoted without the space", ">The first line\n>the second line.", para, false},
		{"quoted CRLF", "> The first line\r\n> the second line.", crlfPara, true},
		{"fenced", "```\n" + para + "\n```", para, true},
		{"fenced with info and tildes", "~~~markdown\n" + para + "\n~~~~\n", para, true},
		{"fenced CRLF", "```\r\n" + crlfPara + "\r\n```", crlfPara, true},
		{"fence not closed", "```\n" + para, para, false},
		{"fence of another kind", "```\n" + para + "\n~~~", para, false},
		{"indented", "    The first line\n    the second line.", para, true},
		{"indented by tab", "\tThe first line\n\tthe second line.", para, true},
		{"list marker, lazy", "- The first line\nthe second line.", para, true},
		{"list marker, continued", "1. The first line\n   the second line.", para, true},
		{"two list markers", "- - The first line\nthe second line.", para, false},
		{"quoted list item", "> * The first line\n>   the second line.", para, true},
		{"quoted fence", "> ```\n> The first line\n> the second line.\n> ```", para, true},
		{"CRs dropped", para, crlfPara, false},
		{"CRs added", crlfPara, para, false},
		{"cut", "The first line", para, false},
		{"re-cased", "the first line\nthe second line.", para, false},
		{"reflowed", "The first line the second line.", para, false},
		{"trimmed of a space it has", "x", " x", false},
		{"glued text", para + " And more.", para, false},
		{"a paragraph that is a list item, as is", "- item", "- item", true},
	}
	for _, tt := range tests {
		if got := Exact(tt.passage, tt.paragraph); got != tt.want {
			t.Errorf("%s: Exact(%q, %q) = %v, want %v", tt.name, tt.passage, tt.paragraph, got, tt.want)
		}
		if got := slices.Contains(Presented(tt.passage), tt.paragraph); got != tt.want {
			t.Errorf("%s: Presented(%q) holds %q: %v, want %v", tt.name, tt.passage, tt.paragraph, got, tt.want)
		}
	}
}

// TestForms checks that every form Forms gives is found exactly once
// presented as a reply would (a list item's after its marker, a code block
// inside its fences), and that each holds the paragraph's words.
func TestForms(t *testing.T) {
	for _, para := range []string{"One line.", "First\nsecond\r\nthird."} {
		forms := Forms(para)
		if len(forms) < 2 {
			t.Fatalf("Forms(%q) = %q", para, forms)
		}
		for _, f := range forms {
			ok := false
			quote, body := "", f
			if rest, found := strings.CutPrefix(f, "> "); found {
				quote, body = "> ", rest
			}
			for _, marker := range []string{"", "- ", "1. ", "10. "} {
				ok = ok || Exact(quote+marker+body, para)
			}
			ok = ok || Exact("```\n"+f+"\n```", para)
			if !ok {
				t.Errorf("form %q of %q: no presentation of it is exact", f, para)
			}
		}
	}
}
