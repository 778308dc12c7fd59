package record

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	htmlCellRe   = regexp.MustCompile(`(?i)<t[dh]\b([^>]*)>(.*?)</t[dh]>`)
	htmlSpanRe   = regexp.MustCompile(`(?i)\b(row|col)span\s*=\s*["']?(\d{1,3})`)
	htmlTableEnd = regexp.MustCompile(`(?i)</?table\b`)
	htmlWholeRow = regexp.MustCompile(`(?i)^\s*<tr\b[^>]*>.*</tr>\s*$`)
)

// maxSpanColumn bounds the columns a row may spread over.
const maxSpanColumn = 64

// spans rewrites an HTML table whose rows stand one a line so that every
// row has all its cells: a cell merged down (rowspan) stands again in the
// rows it covers, in the first column as an empty cell (the row goes on
// the field above, as in a Markdown table), elsewhere with its text (the
// value holds for each row it covers); a cell merged across (colspan) is
// followed by empty cells. The record's own line is still what is quoted.
type spans struct {
	// left counts the rows a merged cell still covers, and text is what
	// it shows there, by column.
	left []int
	text []string
}

// row returns the line with the merged cells above it restored.
func (sp *spans) row(raw string) string {
	if htmlTableEnd.MatchString(raw) && !htmlWholeRow.MatchString(raw) {
		sp.left, sp.text = nil, nil
	}
	if !htmlWholeRow.MatchString(raw) {
		return raw
	}
	cells := htmlCellRe.FindAllStringSubmatch(raw, -1)
	if len(cells) == 0 {
		return raw
	}
	var out []string
	col, fill := 0, 0 // fill: the length of out after a colspan's last filler
	carried := func() {
		for col < len(sp.left) && sp.left[col] > 0 {
			sp.left[col]--
			out = append(out, sp.text[col])
			col++
		}
	}
	for _, c := range cells {
		carried()
		rows, cols := 1, 1
		for _, m := range htmlSpanRe.FindAllStringSubmatch(c[1], -1) {
			n, _ := strconv.Atoi(m[2])
			if strings.EqualFold(m[1], "row") {
				rows = max(n, 1)
			} else {
				cols = max(n, 1)
			}
		}
		for k := 0; k < cols && col < maxSpanColumn; k++ {
			text := ""
			if k == 0 {
				text = c[2]
			} else {
				fill = len(out) + 1
			}
			out = append(out, text)
			if rows > 1 {
				sp.cover(col, rows-1, text)
			}
			col++
		}
	}
	if n := len(out); fill == n && n > 0 {
		// A row that ends in a cell merged across is that cell's text,
		// as a line: "<th colspan=2>Label: value</th>".
		for n > 1 && out[n-1] == "" {
			n--
		}
		out = out[:n]
	}
	carried()
	return "<tr><td>" + strings.Join(out, "</td><td>") + "</td></tr>"
}

// cover records that the cell at col stands again in the next n rows.
func (sp *spans) cover(col, n int, text string) {
	for len(sp.left) <= col {
		sp.left = append(sp.left, 0)
		sp.text = append(sp.text, "")
	}
	if col == 0 {
		text = ""
	}
	sp.left[col], sp.text[col] = n, text
}
