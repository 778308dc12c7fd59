package class

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/visible"
)

func TestEscapers(t *testing.T) {
	tests := []struct {
		name, in string
		esc      func(string) string
		want     string
	}{
		{"csv formula", `=HYPERLINK("http://x","y")`, csvCell, `'=HYPERLINK("http://x","y")`},
		{"csv plus", "+cmd|' /C calc'!A0", csvCell, "'+cmd|' /C calc'!A0"},
		{"csv minus", "-2+3", csvCell, "'-2+3"},
		{"csv at", "@SUM(1+1)", csvCell, "'@SUM(1+1)"},
		{"csv tab", "\t=1", csvCell, `'\t=1`},
		{"csv carriage return", "\r=1", csvCell, `'\r=1`},
		{"csv controls inside", "ada\x1b[2J\x07", csvCell, `ada\x1b[2J\a`},
		{"csv plain", "bea", csvCell, "bea"},
		{"csv formula later is text", "a=1", csvCell, "a=1"},
		{"terminal escape sequences", "x\x1b]0;title\x07\x1b[2J\u009b1m", term, `x\x1b]0;title\a\x1b[2J\u009b1m`},
		{"terminal bidi", "abc\u202edcba\u2066\u200f", term, `abc\u202edcba\u2066\u200f`},
		{"terminal newline and tab", "a\nb\tc\r", term, `a\nb\tc\r`},
		{"terminal invalid UTF-8", "a\xffb", term, "a\uFFFDb"},
		{"terminal keeps letters", "Zoë 李", term, "Zoë 李"},
		{"html keeps tab and newline", "a\tb\nc\x00\u202e", htmlText, "a\tb\nc\\x00\\u202e"},
		{"markdown html", `<img src=x onerror=alert(1)>`, mdInline, `\<img src=x onerror=alert\(1\)\>`},
		{"markdown link", `[x](javascript:alert(1))`, mdInline, `\[x\]\(javascript:alert\(1\)\)`},
		{"markdown code and emphasis", "`a` *b* _c_ ~~d~~ | e & f", mdInline, "\\`a\\` \\*b\\* \\_c\\_ \\~\\~d\\~\\~ \\| e \\& f"},
		{"markdown autolinks", "http://evil.example www.evil.example a@b.example", mdInline, `http\://evil.example www\.evil.example a\@b.example`},
		{"markdown line break, shown as a backslash and n", "a\n# b", mdInline, `a\\n# b`},
		{"markdown item heading", "# big", mdItem, `\# big`},
		{"markdown item list", "- item", mdItem, `\- item`},
		{"markdown item ordered list", "12. item 3. x", mdItem, `12\. item 3. x`},
		{"markdown item ordered list paren", "1) item", mdItem, `1\) item`},
		{"markdown item plain", "exit status 127.", mdItem, "exit status 127."},
		{"markdown inline keeps a leading number", "8.1", mdInline, "8.1"},
		{"markdown fence short", "a `b` c", mdFence, "````text\na `b` c\n````\n"},
		{"markdown fence longer than any run", "x\n``````\n<b>y</b>\x1b", mdFence, "```````text\nx\n``````\n<b>y</b>\\x1b\n```````\n"},
		{"markdown fence tildes", "~~~~\nz", mdFence, "````text\n~~~~\nz\n````\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.esc(tt.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The learner's .json stays the same document, with no raw character a
// terminal would act on.
func TestJSONText(t *testing.T) {
	in, err := json.Marshal(map[string]string{"a": "x\x1b\u009b\u202e\u007fy", "b": "plain"})
	if err != nil {
		t.Fatal(err)
	}
	out := jsonText(in)
	for _, r := range string(out) {
		if visible.NeedsEscape(r) {
			t.Errorf("raw %U in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"a": "x\x1b\u009b\u202e\u007fy", "b": "plain"}, back); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}
