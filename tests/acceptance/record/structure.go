package record

import (
	"html"
	"regexp"
	"strings"
)

// The record's structure is read before its words: each line in HTML,
// JSON, TOML, reStructuredText, AsciiDoc or Org is rewritten into the
// Markdown the field and claim readers know, keeping its number; the
// record's own text is what is quoted.

var (
	htmlTagRe     = regexp.MustCompile(`(?i)</?(?:html|head|body|table|thead|tbody|tfoot|tr|td|th|h[1-6]|p|div|span|ul|ol|li|dl|dt|dd|strong|b|em|i|u|code|pre|br|hr|section|article|main|header|footer|a|label|input|details|summary|small|sup|sub|mark|title|meta|style|caption|blockquote|!doctype)\b[^<>]*>`)
	htmlCommentRe = regexp.MustCompile(`<!--.*?-->`)
	htmlHeadRe    = regexp.MustCompile(`(?i)^\s*<h([1-6])\b[^>]*>`)
	htmlCellSepRe = regexp.MustCompile(`(?i)</t[dh]>\s*<t[dh]\b[^>]*>`)
	htmlRowOpenRe = regexp.MustCompile(`(?i)^\s*(?:<tr\b[^>]*>\s*)?<t[dh]\b[^>]*>`)
	htmlRowEndRe  = regexp.MustCompile(`(?i)</t[dh]>\s*(?:</tr>)?\s*$`)
	htmlTermRe    = regexp.MustCompile(`(?i)</dt>\s*<dd\b[^>]*>`)
	htmlLiRe      = regexp.MustCompile(`(?i)^\s*<li\b[^>]*>`)
	htmlBoxRe     = regexp.MustCompile(`(?i)<input\b[^>]*type=["']?checkbox["']?[^>]*>`)
	jsonPairRe    = regexp.MustCompile(`^\s*"([^"]{1,80})"\s*:\s*(.*?)\s*,?\s*$`)
	tomlPairRe    = regexp.MustCompile(`^\s*([A-Za-z_][\w .-]{0,60}?)\s*=\s*(.+?)\s*$`)
	rstFieldRe    = regexp.MustCompile(`^\s*:([^:]{1,80}):(?:\s+(.*))?$`)
	adocHeadRe    = regexp.MustCompile(`^(={1,6})\s+(\S.*)$`)
	orgHeadRe     = regexp.MustCompile(`^(\*{2,6})\s+(\S.*)$`)
)

// lineView rewrites one line of a structured format as Markdown.
func lineView(raw string) string {
	if strings.Contains(raw, "<") {
		raw = htmlView(raw)
	}
	if m := jsonPairRe.FindStringSubmatch(raw); m != nil {
		if _, ok := lookupLabel(m[1]); ok || countKeyRe.MatchString(m[1]) {
			return m[1] + ": " + unquoteValue(m[2])
		}
	}
	if m := tomlPairRe.FindStringSubmatch(raw); m != nil {
		if _, ok := lookupLabel(m[1]); ok {
			return m[1] + ": " + unquoteValue(m[2])
		}
	}
	if m := rstFieldRe.FindStringSubmatch(raw); m != nil {
		if _, ok := lookupLabel(strings.ReplaceAll(m[1], "-", " ")); ok {
			return strings.ReplaceAll(m[1], "-", " ") + ": " + m[2]
		}
	}
	if m := adocHeadRe.FindStringSubmatch(raw); m != nil {
		return strings.Repeat("#", len(m[1])) + " " + m[2]
	}
	if m := orgHeadRe.FindStringSubmatch(raw); m != nil {
		return strings.Repeat("#", len(m[1])) + " " + m[2]
	}
	return raw
}

var countKeyRe = regexp.MustCompile(`^(?:passed|failed|warnings|skipped)$`)

// htmlView rewrites a line of HTML: headings, table rows, definition
// lists, list items and check boxes become Markdown; other tags go.
func htmlView(raw string) string {
	s := htmlCommentRe.ReplaceAllString(raw, "")
	if !htmlTagRe.MatchString(s) {
		return raw
	}
	head := ""
	if m := htmlHeadRe.FindStringSubmatch(s); m != nil {
		head = strings.Repeat("#", int(m[1][0]-'0')) + " "
	}
	row := htmlCellSepRe.MatchString(s) && htmlRowOpenRe.MatchString(s)
	s = htmlCellSepRe.ReplaceAllString(s, " | ")
	if row {
		s = htmlRowOpenRe.ReplaceAllString(s, "| ")
		s = htmlRowEndRe.ReplaceAllString(s, " |")
	}
	s = htmlTermRe.ReplaceAllString(s, ": ")
	li := htmlLiRe.MatchString(s)
	s = htmlBoxRe.ReplaceAllStringFunc(s, func(box string) string {
		if strings.Contains(strings.ToLower(box), "checked") {
			return "[x] "
		}
		return "[ ] "
	})
	s = strings.TrimSpace(html.UnescapeString(htmlTagRe.ReplaceAllString(s, "")))
	if li {
		s = "- " + s
	}
	return head + s
}

// unquoteValue drops the quotes around a JSON, TOML or YAML string.
func unquoteValue(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`)
	}
	return v
}
