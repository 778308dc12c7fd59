package class

import (
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"
	"unicode"

	"practice-notes/tests/acceptance/record"
)

// The page is one file with no external scripts, styles, fonts or images
// and no JavaScript. It is written so that it is also well-formed XML
// (every element closed, attributes quoted, no control characters), which
// lets tests parse it with encoding/xml.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>Class results</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
table { border-collapse: collapse; }
th, td { border: 1px solid #999; padding: 0.2em 0.35em; text-align: center; }
th.learner, td.learner { text-align: left; }
div.wide { overflow-x: auto; }
/* The learner's name stays in view while the checks scroll sideways. */
tr th.learner { position: sticky; left: 0; background: #ffffff; }
td.pass, td.fail, td.warn, td.skip, td.none { font-size: 0.9em; }
td.pass { background: #d8f3dc; color: #14532d; }
td.fail { background: #fcd5d5; color: #7f1d1d; font-weight: bold; }
td.warn { background: #fff0c2; color: #713f12; }
td.skip, td.none { background: #eeeeee; color: #444444; }
td.error { background: #fcd5d5; color: #7f1d1d; text-align: left; }
td.rec-consistent { background: #d8f3dc; }
td.rec-incomplete { background: #fff0c2; }
td.rec-contradicted, td.rec-missing { background: #fcd5d5; font-weight: bold; }
td a { color: inherit; }
pre { background: #f4f4f4; border: 1px solid #ccc; padding: 0.5em; white-space: pre-wrap; overflow-wrap: anywhere; }
section.learner { border-top: 2px solid #999; margin-top: 2em; }
dt { float: left; clear: left; width: 3em; font-weight: bold; }
dd { margin: 0 0 0.25em 3em; }
blockquote { border-left: 4px solid #c33; margin-left: 0; padding-left: 0.75em; }
</style>
</head>
<body>
<h1>Class results</h1>
<p>{{.Summary}}.</p>
<p>Each row is a learner, each column a check. A cell says pass, FAIL, warn or skip; a FAIL or warn cell links to that learner's evidence below. The record column grades the learner's COMPLETION.md against the run.</p>
<div class="wide">
<table>
<thead>
<tr><th class="learner" scope="col">Learner</th><th scope="col">Passed</th><th scope="col">Failed</th><th scope="col">Warnings</th><th scope="col">Record</th>{{range .Columns}}<th scope="col" title="{{.Title}}">{{.ID}}</th>{{end}}</tr>
</thead>
<tbody>
{{range .Rows}}<tr><th class="learner" scope="row"><a href="#{{.Anchor}}">{{.Name}}</a></th>{{if .Graded}}<td>{{.Passed}}</td><td>{{.Failed}}</td><td>{{.Warnings}}</td>{{else}}<td class="error" colspan="3">not graded</td>{{end}}<td class="rec-{{.Record}}"><a href="#{{.Anchor}}-record">{{.Record}}</a></td>{{if .Graded}}{{range .Cells}}<td class="{{.Class}}">{{if .Href}}<a href="#{{.Href}}">{{.Word}}</a>{{else}}{{.Word}}{{end}}</td>{{end}}{{else}}<td class="error" colspan="{{$.NColumns}}"><a href="#{{.Anchor}}">{{.Error}}</a></td>{{end}}</tr>
{{end}}</tbody>
</table>
</div>
<h2>Checks</h2>
<dl>
{{range .Columns}}<dt>{{.ID}}</dt><dd>{{.Title}}</dd>
{{end}}</dl>
{{range .Learners}}<section class="learner" id="{{.Anchor}}">
<h2>{{.Name}}</h2>
<p>Server command: <code>{{.Command}}</code></p>
<p>Result: {{.Result}}. Feedback: <a href="{{.MD}}">{{.Name}}.md</a>; full result: <a href="{{.JSON}}">{{.Name}}.json</a>.</p>
{{if .Isolation}}<p>Isolation: {{.Isolation}}</p>
{{end}}{{if .Stderr}}<p>The harness's last words:</p>
<pre>{{.Stderr}}</pre>
{{end}}<h3 id="{{.Anchor}}-record">Completion record: {{.Record}}</h3>
{{if .Contradictions}}<ul>
{{range .Contradictions}}<li>Line {{.Line}} claims {{.Claim}}:
<blockquote><p>{{.Quote}}</p></blockquote>
<p>but this run failed {{range $i, $c := .Checks}}{{if $i}}, {{end}}<a href="#{{$c.Href}}">check {{$c.ID}}</a>{{end}}.</p></li>
{{end}}</ul>
{{end}}{{if .Problems}}<ul>
{{range .Problems}}<li>Incomplete: {{.}}</li>
{{end}}</ul>
{{end}}{{range .Checks}}<div id="{{.Anchor}}">
<h3>{{.Word}} {{.ID}}: {{.Title}}</h3>
<p>Section: {{.Section}}.{{if .Hint}} What to fix: {{.Hint}}{{end}}</p>
{{if .Evidence}}<pre>{{.Evidence}}</pre>
{{end}}</div>
{{end}}</section>
{{end}}</body>
</html>
`))

type pageColumn struct{ ID, Title string }

type pageCell struct{ Class, Word, Href string }

type pageRow struct {
	Anchor, Name, Record, Error string
	Graded                      bool
	Passed, Failed, Warnings    int
	Cells                       []pageCell
}

type pageContradiction struct {
	Line         int
	Claim, Quote string
	Checks       []pageCheckRef
}

type pageCheckRef struct{ ID, Href string }

type pageCheck struct {
	Anchor, ID, Title, Section, Word, Hint, Evidence string
}

type pageLearner struct {
	Anchor, Name, MD, JSON, Command, Result, Isolation, Record, Stderr string
	Contradictions                                                     []pageContradiction
	Problems                                                           []string
	Checks                                                             []pageCheck
}

type pageView struct {
	Summary  string
	Columns  []pageColumn
	NColumns int
	Rows     []pageRow
	Learners []pageLearner
}

var anchorUnsafe = regexp.MustCompile(`[^A-Za-z0-9.-]`)

func checkAnchor(learner string, id string) string {
	return learner + "-check-" + anchorUnsafe.ReplaceAllString(id, "_")
}

var words = map[string]string{
	record.StatusPass: "pass", record.StatusFail: "FAIL", record.StatusWarn: "warn", record.StatusSkip: "skip",
}

// printable keeps text valid in XML and readable: invalid UTF-8 and
// control characters other than tab and newline become visible escapes.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return r
		}
		if unicode.IsControl(r) || r == '\uFFFE' || r == '\uFFFF' {
			return '\uFFFD'
		}
		return r
	}, s)
}

// writePage writes index.html.
func writePage(w io.Writer, results []*Result) error {
	ids, titles := checkColumns(results)
	v := pageView{Summary: SummaryLine(results), NColumns: len(ids)}
	for _, id := range ids {
		v.Columns = append(v.Columns, pageColumn{ID: id, Title: printable(titles[id])})
	}
	for i, r := range results {
		anchor := fmt.Sprintf("learner-%d", i+1)
		row := pageRow{Anchor: anchor, Name: printable(r.Learner), Record: string(r.Record.State), Error: printable("not graded: " + r.Error)}
		lv := pageLearner{Anchor: anchor, Name: printable(r.Learner), MD: linkTarget(r.Learner, ".md"), JSON: linkTarget(r.Learner, ".json"),
			Command: printable(r.Command), Result: printable(resultWords(r)), Record: string(r.Record.State)}
		if r.RunParsed == nil {
			lv.Stderr = printable(r.HarnessStderr)
		}
		if run := r.RunParsed; run != nil {
			row.Graded = true
			row.Passed, row.Failed, row.Warnings = run.Passed, run.Failed, run.Warnings
			lv.Isolation = printable(run.Isolation)
			for _, id := range ids {
				c := run.Find(id)
				if c == nil {
					row.Cells = append(row.Cells, pageCell{Class: "none", Word: "not run"})
					continue
				}
				cell := pageCell{Class: c.Status, Word: words[c.Status]}
				if c.Status == record.StatusFail || c.Status == record.StatusWarn {
					cell.Href = checkAnchor(anchor, c.ID)
				}
				row.Cells = append(row.Cells, cell)
			}
			for _, c := range run.Checks {
				if c.Status == record.StatusPass {
					continue
				}
				lv.Checks = append(lv.Checks, pageCheck{Anchor: checkAnchor(anchor, c.ID), ID: printable(c.ID), Title: printable(c.Title),
					Section: printable(c.Section), Word: words[c.Status], Hint: printable(c.Hint), Evidence: printable(c.Evidence)})
			}
		}
		for _, c := range r.Record.Contradictions {
			pc := pageContradiction{Line: c.Line, Claim: printable(c.Claim), Quote: printable(c.Quote)}
			for _, ch := range c.Checks {
				pc.Checks = append(pc.Checks, pageCheckRef{ID: printable(ch.ID), Href: checkAnchor(anchor, ch.ID)})
			}
			lv.Contradictions = append(lv.Contradictions, pc)
		}
		for _, p := range r.Record.Problems {
			s := p.Field + ": " + p.Why
			if p.Line > 0 {
				s = fmt.Sprintf("%s (line %d): %s", p.Field, p.Line, p.Why)
			}
			lv.Problems = append(lv.Problems, printable(s))
		}
		v.Rows = append(v.Rows, row)
		v.Learners = append(v.Learners, lv)
	}
	return pageTemplate.Execute(w, v)
}
