package class

import (
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/checks"
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
th, td { border: 1px solid #999; padding: 0.2em 0.35em; text-align: center; vertical-align: top; }
th.learner, td.learner, td.text { text-align: left; }
/* The first table always fits its box: fixed columns, long text wraps. */
table.summary { width: 100%; table-layout: fixed; }
table.summary td, table.summary th.learner { overflow-wrap: anywhere; }
col.learner { width: 14%; } col.count { width: 6.5em; } col.record { width: 9em; }
ul.fails { margin: 0; padding-left: 0; list-style: none; }
ul.fails li { margin: 0.1em 0; }
ul.fails b { color: #7f1d1d; }
/* The grid scrolls sideways in its own box; the learner's name stays in view. */
div.wide { overflow-x: auto; max-width: 100%; border: 1px solid #ccc; }
table.grid th.learner { position: sticky; left: 0; background: #ffffff; min-width: 6em; max-width: 12em; overflow-wrap: anywhere; }
table.grid td { font-size: 0.9em; white-space: nowrap; }
/* One meaning per colour, everywhere: red failed, yellow warning or record to finish, green passed, grey not run. */
.pass, .rec-consistent { background: #d8f3dc; color: #14532d; }
.fail, .rec-contradicted { background: #fcd5d5; color: #7f1d1d; }
.warn, .rec-incomplete, .rec-missing, .rec-review { background: #fff0c2; color: #713f12; }
.skip, .none, .error { background: #eeeeee; color: #333333; }
td a { color: inherit; }
pre { background: #f4f4f4; border: 1px solid #ccc; padding: 0.5em; white-space: pre-wrap; overflow-wrap: anywhere; }
section.learner { border-top: 2px solid #999; margin-top: 2em; }
dt { float: left; clear: left; width: 3em; font-weight: bold; }
dd { margin: 0 0 0.25em 3em; }
</style>
</head>
<body>
<h1>Class results</h1>
<p>{{.Summary}}.</p>
<p>Colours: red failed, yellow a warning or a record to finish, green passed, grey not run or not graded. Each failed check links to its evidence further down; the record column grades the learner's COMPLETION.md against the run.</p>
<table class="summary">
<colgroup><col class="learner"/><col class="count"/><col class="count"/><col class="count"/><col/><col class="record"/></colgroup>
<thead>
<tr><th class="learner" scope="col">Learner</th><th scope="col">Passed</th><th scope="col">Failed</th><th scope="col">Not run</th><th scope="col">Warnings</th><th scope="col">Failed checks</th><th scope="col">Record</th></tr>
</thead>
<tbody>
{{range .Rows}}<tr><th class="learner" scope="row"><a href="#{{.Anchor}}">{{.Name}}</a>{{if .Review}} <a class="warn" href="#{{.Anchor}}-regraded">to review</a>{{end}}</th>{{if .Graded}}<td>{{.Passed}}</td><td{{if .Failed}} class="fail"{{end}}>{{.Failed}}</td><td{{if .NotRun}} class="none"{{end}}>{{.NotRun}}</td><td{{if .Warnings}} class="warn"{{end}}>{{.Warnings}}</td>{{if .NoStart}}<td class="text fail"><a href="#{{.Anchor}}">server did not start</a>: {{.NoStart}}</td>{{else if .Fails}}<td class="text"><ul class="fails">{{range .Fails}}<li><a href="#{{.Href}}"><b>{{.ID}}</b></a> {{.Reason}}</li>{{end}}</ul></td>{{else}}<td class="text">none</td>{{end}}{{else}}<td class="text error" colspan="5"><a href="#{{.Anchor}}">{{.Error}}</a></td>{{end}}<td class="rec-{{.Record}}"><a href="#{{.Anchor}}-record">{{.Record}}</a>{{if .Unread}}, <a href="#{{.Anchor}}-unread">{{.Unread}} to read</a>{{end}}</td></tr>
{{end}}</tbody>
</table>
<h2>Every check</h2>
<p>Learners down, checks across; the box scrolls sideways.</p>
<div class="wide">
<table class="grid">
<thead>
<tr><th class="learner" scope="col">Learner</th>{{range .Columns}}<th scope="col" title="{{.Title}}">{{.ID}}</th>{{end}}</tr>
</thead>
<tbody>
{{range .Rows}}<tr><th class="learner" scope="row"><a href="#{{.Anchor}}">{{.Name}}</a></th>{{if .Graded}}{{range .Cells}}<td class="{{.Class}}">{{if .Href}}<a href="#{{.Href}}">{{.Word}}</a>{{else}}{{.Word}}{{end}}</td>{{end}}{{else}}<td class="error" colspan="{{$.NColumns}}">not graded</td>{{end}}</tr>
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
<p>Result: {{.Result}}. Feedback: <a href="{{.MD}}">{{.File}}.md</a>; full result and transcript: <a href="{{.JSON}}">{{.File}}.json</a>.</p>
{{if .Regraded}}<p id="{{.Anchor}}-regraded"{{if .Review}} class="warn"{{end}}>{{.Regraded}}</p>
{{end}}{{if .Isolation}}<p>{{.Isolation}}</p>
{{end}}{{if .Seed}}<p>{{.Seed}}</p>
{{end}}{{if .Stderr}}<p>The harness's last words:</p>
<pre>{{.Stderr}}</pre>
{{end}}{{with .NoStart}}<h3 id="{{.Anchor}}">The server did not start</h3>
<p>{{.How}}</p>
{{if .Stderr}}<p>Its last lines on stderr:</p>
<pre>{{.Stderr}}</pre>
{{end}}{{if .Stdout}}<p>Its first lines on stdout:</p>
<pre>{{.Stdout}}</pre>
{{end}}<p>Likely cause: {{.Cause}}</p>
<p>Not run, because the server did not start: checks {{.NotRun}}.</p>
{{end}}<h3 id="{{.Anchor}}-record">Completion record: {{.Record}}</h3>
{{if .Contradictions}}<ul>
{{range .Contradictions}}<li>Line {{.Line}} claims {{.Claim}}:
<pre>{{.Quote}}</pre>
<p>{{if .NoStart}}but the server did not start, so no check passed.{{else if .Check}}but {{template "ref" .Check}} failed{{if .See}} (see also {{range $i, $c := .See}}{{if $i}}, {{end}}{{template "ref" $c}}{{end}}){{end}}:{{else if .See}}but this run failed {{range $i, $c := .See}}{{if $i}}, {{end}}{{template "ref" $c}}{{end}}: see above.{{else}}but {{.Evidence}}.{{end}}</p>
{{if and .Check (not .NoStart)}}<pre>{{.Evidence}}</pre>
{{end}}</li>
{{end}}</ul>
{{end}}{{if .Problems}}<ul>
{{range .Problems}}<li>Incomplete: {{.}}</li>
{{end}}</ul>
{{end}}{{if .Unread}}<h4 id="{{.Anchor}}-unread">Read these yourself</h4>
<p>The record check could not tell what these lines claim, so it counted them neither for nor against the record.</p>
<ul>
{{range .Unread}}<li>Line {{.Line}}, {{.Why}}:
<pre>{{.Quote}}</pre></li>
{{end}}</ul>
{{end}}{{if .OwnTests}}<h4>The learner's own tests, not checked by this run</h4>
<ul>
{{range .OwnTests}}<li>Line {{.Line}}:
<pre>{{.Quote}}</pre></li>
{{end}}</ul>
{{end}}{{if .Notes}}<h4>Results from another run</h4>
<p>Results in the record differ from this run without claiming more than it shows:</p>
<ul>
{{range .Notes}}<li>{{.}}</li>
{{end}}</ul>
{{end}}{{if .Regenerate}}<p>The record holds the results that --learner-record wrote; the learner writes it again from a new run with:</p>
<pre>{{.Regenerate}}</pre>
{{end}}{{range .Checks}}<div id="{{.Anchor}}">
<h3>{{.Word}} {{.ID}}: {{.Title}}</h3>
<p>Section: {{.Section}}.{{if .Hint}} What to fix: {{.Hint}}{{end}}</p>
{{if .Evidence}}<pre>{{.Evidence}}</pre>
{{end}}</div>
{{end}}</section>
{{end}}</body>
</html>
{{define "ref"}}{{if .Href}}<a href="#{{.Href}}">check {{.ID}}</a>{{else}}check {{.ID}}{{end}}{{end}}`))

type pageColumn struct{ ID, Title string }

type pageCell struct{ Class, Word, Href string }

type pageFail struct{ ID, Reason, Href string }

type pageRow struct {
	Anchor, Name, Record, Unread, Error, NoStart string
	Graded, Review                               bool
	Passed, Failed, NotRun, Warnings             int
	Fails                                        []pageFail
	Cells                                        []pageCell
}

type pageContradiction struct {
	Line                   int
	Claim, Quote, Evidence string
	NoStart                bool
	Check                  *pageCheckRef
	See                    []pageCheckRef
}

type pageQuote struct {
	Line       int
	Quote, Why string
}

type pageCheckRef struct{ ID, Href string }

type pageCheck struct {
	Anchor, ID, Title, Section, Word, Hint, Evidence string
}

type pageNoStart struct{ Anchor, How, Stderr, Stdout, Cause, NotRun string }

type pageLearner struct {
	Anchor, Name, File, MD, JSON, Command, Result, Isolation, Seed, Record, Stderr, Regenerate string
	Regraded                                                                                   string
	Review                                                                                     bool
	NoStart                                                                                    *pageNoStart
	Contradictions                                                                             []pageContradiction
	Problems, Notes                                                                            []string
	Unread, OwnTests                                                                           []pageQuote
	Checks                                                                                     []pageCheck
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

var words = map[checks.Status]string{
	checks.StatusPass: "pass", checks.StatusFail: "FAIL", checks.StatusWarn: "warn", checks.StatusSkip: "skip",
}

// writePage writes index.html. Text from outside goes through htmlText
// (controls and bidi overrides shown as escapes); html/template then
// escapes it as text, so none of it is markup.
func writePage(w io.Writer, results []*Result) error {
	ids, titles := checkColumns(results)
	v := pageView{Summary: summary(results, htmlText), NColumns: len(ids)}
	for _, id := range ids {
		v.Columns = append(v.Columns, pageColumn{ID: htmlText(id), Title: htmlText(titles[id])})
	}
	for i, r := range results {
		anchor := fmt.Sprintf("learner-%d", i+1)
		row := pageRow{Anchor: anchor, Name: htmlText(r.Learner), Record: string(r.Record.State), Error: htmlText("not graded: " + r.Error)}
		if n := r.Record.UnreadLines; n > 0 {
			row.Unread = lineCount(n)
		}
		lv := pageLearner{Anchor: anchor, Name: htmlText(r.Learner), File: htmlText(fileBase(r.Learner)), MD: linkTarget(r.Learner, ".md"), JSON: linkTarget(r.Learner, ".json"),
			Command: htmlText(r.Command), Result: htmlText(resultWords(r)), Record: string(r.Record.State)}
		row.Review = r.ToReview()
		lv.Review, lv.Regraded = row.Review, htmlText(regradeWords(r))
		if r.RunParsed == nil && !r.DepsMissing {
			lv.Stderr = htmlText(lastLines(r.HarnessStderr, 8))
		}
		ns := serverNeverStarted(r)
		shown := map[string]bool{}
		if run := r.RunParsed; run != nil {
			row.Graded = true
			row.Passed, row.Failed, row.NotRun, row.Warnings = run.Passed, failedCount(r), len(notRun(r)), run.Warnings
			lv.Isolation = isolationLine(run.Isolation)
			if run.Seed != 0 {
				lv.Seed = htmlText(seedLine(run.Seed))
			}
			for _, id := range ids {
				c := run.Find(id)
				if c == nil {
					row.Cells = append(row.Cells, pageCell{Class: "none", Word: "not run"})
					continue
				}
				cell := pageCell{Class: string(c.Status), Word: words[c.Status]}
				if ns != nil && c.ID != checks.ServerStart().ID {
					cell = pageCell{Class: "none", Word: "not run"}
				}
				if cell.Class == string(checks.StatusFail) || cell.Class == string(checks.StatusWarn) {
					cell.Href = checkAnchor(anchor, c.ID)
				}
				row.Cells = append(row.Cells, cell)
			}
			if ns != nil {
				// The starting check's cell links to the section on the start.
				row.NoStart = htmlText(ns.Cause)
				lv.NoStart = noStartView(ns)
				lv.NoStart.Anchor = checkAnchor(anchor, checks.ServerStart().ID)
			} else {
				for _, id := range run.FailedIDs() {
					row.Fails = append(row.Fails, pageFail{ID: htmlText(id), Reason: htmlText(reason(r, id)), Href: checkAnchor(anchor, id)})
				}
				for _, c := range run.Checks {
					if c.Status == checks.StatusPass {
						continue
					}
					ev, _ := cutEvidence(c.Evidence, evidenceLineBytes, evidenceLines)
					lv.Checks = append(lv.Checks, pageCheck{Anchor: checkAnchor(anchor, c.ID), ID: htmlText(c.ID), Title: htmlText(c.Title),
						Section: htmlText(c.Section), Word: words[c.Status], Hint: htmlText(c.Hint), Evidence: htmlText(ev)})
					shown[c.ID] = true
				}
			}
		}
		addRecord(&lv, r, anchor, shown, ns != nil)
		v.Rows = append(v.Rows, row)
		v.Learners = append(v.Learners, lv)
	}
	return pageTemplate.Execute(w, v)
}

// addRecord adds what the learner's completion record shows to lv: its
// contradictions (linking the checks shown above), unread lines, own
// tests, notes, problems and how to regenerate it.
func addRecord(lv *pageLearner, r *Result, anchor string, shown map[string]bool, noStart bool) {
	ref := func(id string) pageCheckRef {
		r := pageCheckRef{ID: htmlText(id)}
		if shown[id] {
			r.Href = checkAnchor(anchor, id)
		}
		return r
	}
	for _, c := range r.Record.Contradictions {
		pc := pageContradiction{Line: c.Line, Claim: htmlText(c.Claim), Quote: htmlText(c.Quote), Evidence: htmlText(c.Evidence), NoStart: noStart}
		if c.Check != "" {
			cr := ref(c.Check)
			pc.Check = &cr
		}
		for _, id := range c.See {
			pc.See = append(pc.See, ref(id))
		}
		lv.Contradictions = append(lv.Contradictions, pc)
	}
	for _, q := range r.Record.Unread {
		lv.Unread = append(lv.Unread, pageQuote{Line: q.Line, Quote: htmlText(q.Quote), Why: htmlText(q.Why)})
	}
	for _, q := range r.Record.OwnTests {
		lv.OwnTests = append(lv.OwnTests, pageQuote{Line: q.Line, Quote: htmlText(q.Quote)})
	}
	for _, n := range r.Record.Notes {
		lv.Notes = append(lv.Notes, htmlText(n))
	}
	if r.Record.Generated {
		lv.Regenerate = htmlText(strings.Join(harnessCommands(r, "--learner-record"), "\n"))
	}
	for _, p := range r.Record.Problems {
		s := p.Field + ": " + p.Why
		if p.Line > 0 {
			s = fmt.Sprintf("%s (line %d): %s", p.Field, p.Line, p.Why)
		}
		lv.Problems = append(lv.Problems, htmlText(s))
	}
}

func noStartView(ns *noStart) *pageNoStart {
	how := "The server did not answer initialize within the start limit."
	if ns.Exit != "" {
		how = "The server ended with " + ns.Exit + " before answering initialize."
	}
	return &pageNoStart{How: htmlText(how), Stderr: htmlText(clipLines(ns.Stderr)), Stdout: htmlText(clipLines(ns.Stdout)),
		Cause: htmlText(ns.Cause), NotRun: htmlText(strings.Join(ns.NotRun, ", "))}
}
