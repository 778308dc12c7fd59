package record

import "testing"

// md writes the six fields as "Label: value" lines after a title, so
// that the fields stand on lines 3 to 8.
func md(source, boundary, passage, transport, integration, unverified string) string {
	return six("plain", source, boundary, passage, transport, integration, unverified)
}

// shapeRecords are records in the shapes people write them in: markups,
// data formats, prose, placeholders, claims outside the fields, counts,
// rules named by their words, dates and people, and ten languages.
var shapeRecords = []learnerRecord{
	// Markdown: headings, tables, merged cells, checklists.
	{why: "markdown headings with the values under them, all true", state: Consistent,
		record: "# Record\n\n## Server source created\n`srv/main.go` at a1b2c3d\n\n## Boundary tests run\nscripts/acceptance.sh: 29 passed, 0 failed\n\n## Exact passage manually checked\nMira Stone, 2026-12-02\n\n## Client and transport\nMCP Inspector, stdio\n\n## Integration demonstrated\nPending\n\n## Unverified behavior\nWindows paths\n"},
	{why: "a table whose value cell runs on in a merged row below it; the admitted failure is the one the run has", state: Consistent,
		record: "| Field | Value |\n|---|---|\n| Server source created | server.py |\n| Boundary tests run | 28 passed, 1 failed |\n| | the failure is check 19, hard links |\n| Exact passage manually checked | Mira Stone, 2 Dec |\n| Client and transport | stdio |\n| Integration demonstrated | pending |\n| Unverified behavior | HTTP |\n",
		failed: []string{"19"}},
	{why: "a table with a merged row that claims check 17 passed while it failed", state: Contradicted,
		record: "| Field | Value |\n|---|---|\n| Server source created | server.py |\n| Boundary tests run | ran the harness |\n| | check 17 passes |\n| Exact passage manually checked | Mira Stone, 2 Dec |\n| Client and transport | stdio |\n| Integration demonstrated | pending |\n| Unverified behavior | HTTP |\n",
		failed: []string{"17"}, refuted: []string{"5: 17"}},
	{why: "a checklist in the specification's numbering: 1-6 and 8 ticked, 7 open with the reason the run shows", state: Consistent,
		record: md("server.py", "see the list below", "Mira Stone, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n- [x] 1 sign-in\n- [x] 2 absent phrase\n- [x] 3 valid file\n- [x] 4 traversal\n- [x] 5 symlink\n- [x] 6 oversized\n- [ ] 7 checksums: the server writes a cache file, not fixed yet\n- [x] 8 discovery and call\n",
		failed: []string{"7"}},
	{why: "the same checklist with 7 ticked while check 7 failed", state: Contradicted,
		record: md("server.py", "see the list below", "Mira Stone, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n- [x] 1 sign-in\n- [x] 2 absent phrase\n- [x] 7 checksums\n",
		failed: []string{"7"}, refuted: []string{"12: 7"}},
	{why: "a numbered list of results with a failure admitted by its number", state: Consistent,
		record: md("server.py", "results below", "Mira Stone, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n1. passed\n2. passed\n6. failed: the 201-character query is accepted\n",
		failed: []string{"6"}},
	{why: "a blockquote holding the fields", state: Consistent,
		record: "> Server source created: main.rs\n> Boundary tests run: all 8 acceptance tests pass\n> Exact passage manually checked: Mira Stone, 2026-12-01\n> Client and transport: stdio\n> Integration demonstrated: pending\n> Unverified behavior: HTTP\n"},
	{why: "bold labels alone on their lines with the values below", state: Contradicted,
		record: "**Server source created**\nmain.rs\n\n**Boundary tests run**\nall 8 acceptance tests pass\n\n**Exact passage manually checked**\nMira Stone, 2026-12-01\n\n**Client and transport**\nstdio\n\n**Integration demonstrated**\npending\n\n**Unverified behavior**\nHTTP\n",
		failed: []string{"4"}, refuted: []string{"5: 4"}},

	// HTML.
	{why: "an HTML table with all six fields, all true", state: Consistent,
		record: "<table>\n<tr><th>Server source created</th><td>server.py</td></tr>\n<tr><th>Boundary tests run</th><td>8/8 acceptance tests pass</td></tr>\n<tr><th>Exact passage manually checked</th><td>Lena Park, 2026-12-03</td></tr>\n<tr><th>Client and transport</th><td>Claude Desktop, stdio</td></tr>\n<tr><th>Integration demonstrated</th><td>yes, searched sign-in from a chat</td></tr>\n<tr><th>Unverified behavior</th><td>HTTP</td></tr>\n</table>\n"},
	{why: "the same HTML table while check 5 failed", state: Contradicted,
		record: "<table>\n<tr><th>Server source created</th><td>server.py</td></tr>\n<tr><th>Boundary tests run</th><td>8/8 acceptance tests pass</td></tr>\n<tr><th>Exact passage manually checked</th><td>Lena Park, 2026-12-03</td></tr>\n<tr><th>Client and transport</th><td>Claude Desktop, stdio</td></tr>\n<tr><th>Integration demonstrated</th><td>pending</td></tr>\n<tr><th>Unverified behavior</th><td>HTTP</td></tr>\n</table>\n",
		failed: []string{"5"}, refuted: []string{"3: 5"}},
	{why: "an HTML table with one cell per line", state: Consistent,
		record: "<table>\n<tr>\n<td>Server source created</td>\n<td>server.py</td>\n</tr>\n<tr>\n<td>Boundary tests run</td>\n<td>28 passed, 1 failed (check 22)</td>\n</tr>\n<tr>\n<td>Exact passage manually checked</td>\n<td>Lena Park, 2026-12-03</td>\n</tr>\n<tr>\n<td>Client and transport</td>\n<td>stdio</td>\n</tr>\n<tr>\n<td>Integration demonstrated</td>\n<td>pending</td>\n</tr>\n<tr>\n<td>Unverified behavior</td>\n<td>HTTP</td>\n</tr>\n</table>\n",
		failed: []string{"22"}},
	{why: "an HTML definition list", state: Consistent,
		record: "<dl>\n<dt>Server source created</dt><dd>server.py</dd>\n<dt>Boundary tests run</dt><dd>all acceptance tests pass</dd>\n<dt>Exact passage manually checked</dt><dd>Lena Park, 3 Dec 2026</dd>\n<dt>Client and transport</dt><dd>stdio</dd>\n<dt>Integration demonstrated</dt><dd>pending</dd>\n<dt>Unverified behavior</dt><dd>HTTP</dd>\n</dl>\n"},
	{why: "HTML headings and paragraphs, the boundary claim refuted", state: Contradicted,
		record: "<h2>Server source created</h2>\n<p>server.py</p>\n<h2>Boundary tests run</h2>\n<p>All boundary tests passed.</p>\n<h2>Exact passage manually checked</h2>\n<p>Lena Park, 2026-12-03</p>\n<h2>Client and transport</h2>\n<p>stdio</p>\n<h2>Integration demonstrated</h2>\n<p>pending</p>\n<h2>Unverified behavior</h2>\n<p>HTTP</p>\n",
		failed: []string{"18"}, refuted: []string{"4: 18"}},
	{why: "an HTML list with checked and unchecked boxes: the unchecked one is the failure", state: Consistent,
		record: md("server.py", "see the list", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP") +
			"<ul>\n<li><input type=\"checkbox\" checked> symlink rejected</li>\n<li><input type=\"checkbox\"> oversized file</li>\n</ul>\n",
		failed: []string{"6"}},
	{why: "HTML entities and strong labels in list items", state: Consistent,
		record: "<ul>\n<li><strong>Server source created:</strong> server.py</li>\n<li><strong>Boundary tests run:</strong> 8/8 &mdash; all pass</li>\n<li><strong>Exact passage manually checked:</strong> Lena Park, 2026-12-03</li>\n<li><strong>Client and transport:</strong> stdio</li>\n<li><strong>Integration demonstrated:</strong> pending</li>\n<li><strong>Unverified behavior:</strong> HTTP &amp; SSE</li>\n</ul>\n"},

	// YAML front matter.
	{why: "YAML front matter with quoted values, all true", state: Consistent,
		record: "---\nserver_source_created: \"server.py\"\nboundary_tests_run: \"29 passed, 0 failed\"\nexact_passage_manually_checked: \"Omar Haddad, 2026-12-02\"\nclient_and_transport: \"stdio\"\nintegration_demonstrated: \"pending\"\nunverified_behavior: \"HTTP\"\n---\n"},
	{why: "YAML front matter claiming 29 passed while check 16 failed", state: Contradicted,
		record: "---\nserver_source_created: server.py\nboundary_tests_run: 29 passed, 0 failed\nexact_passage_manually_checked: Omar Haddad, 2026-12-02\nclient_and_transport: stdio\nintegration_demonstrated: pending\nunverified_behavior: HTTP\n---\n",
		failed: []string{"16"}, refuted: []string{"3: 16"}},
	{why: "YAML block values on the lines after their keys", state: Consistent,
		record: "---\nserver_source_created: server.py\nboundary_tests_run: |\n  28 passed, 1 failed\n  the failure is check 12, the empty query\nexact_passage_manually_checked: Omar Haddad, 2026-12-02\nclient_and_transport: stdio\nintegration_demonstrated: pending\nunverified_behavior: HTTP\n---\n",
		failed: []string{"12"}},
	{why: "YAML front matter above a prose body that admits the failure", state: Consistent,
		record: "---\nserver_source_created: server.py\nboundary_tests_run: ran scripts/acceptance.sh\nexact_passage_manually_checked: Omar Haddad, 2026-12-02\nclient_and_transport: stdio\nintegration_demonstrated: pending\nunverified_behavior: HTTP\n---\n\nThe symlink test fails: the server follows links.\n",
		failed: []string{"5"}},

	// JSON.
	{why: "a JSON block holding the six fields, all true", state: Consistent,
		record: "```json\n{\n  \"server_source_created\": \"server.py\",\n  \"boundary_tests_run\": \"scripts/acceptance.sh 28/29, check 20 fails\",\n  \"exact_passage_manually_checked\": \"Ines Duarte, 2026-12-01\",\n  \"client_and_transport\": \"stdio\",\n  \"integration_demonstrated\": \"pending\",\n  \"unverified_behavior\": \"HTTP\"\n}\n```\n",
		failed: []string{"20"}},
	{why: "a JSON block claiming 29/29 while the run had 28/29", state: Contradicted,
		record: "```json\n{\n  \"server_source_created\": \"server.py\",\n  \"boundary_tests_run\": \"scripts/acceptance.sh 29/29\",\n  \"exact_passage_manually_checked\": \"Ines Duarte, 2026-12-01\",\n  \"client_and_transport\": \"stdio\",\n  \"integration_demonstrated\": \"pending\",\n  \"unverified_behavior\": \"HTTP\"\n}\n```\n",
		failed: []string{"20"}, refuted: []string{"4: 20"}},
	{why: "a pasted JSON summary, \"passed\": 29, while one check failed", state: Contradicted,
		record: md("server.py", "summary below", "Ines Duarte, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n```json\n{\"passed\": 29, \"failed\": 0, \"warnings\": 0}\n```\n",
		failed: []string{"9"}, refuted: []string{"11: 9"}},
	{why: "a pasted JSON summary that matches the run", state: Consistent,
		record: md("server.py", "summary below", "Ines Duarte, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n```json\n{\"passed\": 28, \"failed\": 1, \"warnings\": 0}\n```\n",
		failed: []string{"9"}},
	{why: "a JSON summary with its counts on lines of their own, \"passed\": 29 refuted", state: Contradicted,
		record: md("server.py", "summary below", "Ines Duarte, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n```json\n{\n  \"passed\": 29\n}\n```\n",
		failed: []string{"15"}, refuted: []string{"12: 15"}},
	{why: "JSON without a fence", state: Consistent,
		record: "{\n\"Server source created\": \"server.py\",\n\"Boundary tests run\": \"all 8 acceptance tests pass\",\n\"Exact passage manually checked\": \"Ines Duarte, 2026-12-01\",\n\"Client and transport\": \"stdio\",\n\"Integration demonstrated\": \"pending\",\n\"Unverified behavior\": \"HTTP\"\n}\n"},

	// TOML.
	{why: "a TOML block, all true", state: Consistent,
		record: "```toml\nserver_source_created = \"server.py\"\nboundary_tests_run = \"28 passed, 1 failed: check 21\"\nexact_passage_manually_checked = \"Kai Brandt, 2026-12-02\"\nclient_and_transport = \"stdio\"\nintegration_demonstrated = \"pending\"\nunverified_behavior = \"HTTP\"\n```\n",
		failed: []string{"21"}},
	{why: "a TOML block claiming every check passed while 21 failed", state: Contradicted,
		record: "```toml\nserver_source_created = \"server.py\"\nboundary_tests_run = \"every check passed\"\nexact_passage_manually_checked = \"Kai Brandt, 2026-12-02\"\nclient_and_transport = \"stdio\"\nintegration_demonstrated = \"pending\"\nunverified_behavior = \"HTTP\"\n```\n",
		failed: []string{"21"}, refuted: []string{"3: 21"}},
	{why: "TOML keys with spaces in quotes are not labels it reads, but the fields are in order: a person reads them", state: Review, read: []int{1},
		record: "\"source\" = 1\n\"ran\" = \"x\"\n\"who\" = \"y\"\n"},

	// reStructuredText, AsciiDoc, Org.
	{why: "a reStructuredText field list, all true", state: Consistent,
		record: "Completion record\n=================\n\n:Server source created: server.py\n:Boundary tests run: all acceptance tests pass\n:Exact passage manually checked: Noa Levi, 2026-12-01\n:Client and transport: stdio\n:Integration demonstrated: pending\n:Unverified behavior: HTTP\n"},
	{why: "a reStructuredText field list with a refuted claim", state: Contradicted,
		record: ":Server source created: server.py\n:Boundary tests run: all acceptance tests pass\n:Exact passage manually checked: Noa Levi, 2026-12-01\n:Client and transport: stdio\n:Integration demonstrated: pending\n:Unverified behavior: HTTP\n",
		failed: []string{"3"}, refuted: []string{"2: 3"}},
	{why: "AsciiDoc attributes with hyphens", state: Consistent,
		record: "= Completion record\n:server-source-created: server.py\n:boundary-tests-run: 8/8\n:exact-passage-manually-checked: Noa Levi, 2026-12-01\n:client-and-transport: stdio\n:integration-demonstrated: pending\n:unverified-behavior: HTTP\n"},
	{why: "an AsciiDoc description list", state: Consistent,
		record: "= Completion record\n\nServer source created:: server.py\nBoundary tests run:: 28 passed, 1 failed (check 10)\nExact passage manually checked:: Noa Levi, 2026-12-01\nClient and transport:: stdio\nIntegration demonstrated:: pending\nUnverified behavior:: HTTP\n",
		failed: []string{"10"}},
	{why: "AsciiDoc section titles with a refuted claim under one", state: Contradicted,
		record: "= Completion record\n\n== Server source created\nserver.py\n\n== Boundary tests run\nAll 8 acceptance tests pass.\n\n== Exact passage manually checked\nNoa Levi, 2026-12-01\n\n== Client and transport\nstdio\n\n== Integration demonstrated\npending\n\n== Unverified behavior\nHTTP\n",
		failed: []string{"6"}, refuted: []string{"7: 6"}},
	{why: "Org headings with the values under them", state: Consistent,
		record: "#+TITLE: Completion record\n** Server source created\nserver.py\n** Boundary tests run\nall 8 acceptance tests pass\n** Exact passage manually checked\nNoa Levi, 2026-12-01\n** Client and transport\nstdio\n** Integration demonstrated\npending\n** Unverified behavior\nHTTP\n"},
	{why: "an Org description list with a refuted claim", state: Contradicted,
		record: "#+TITLE: Completion record\n- Server source created :: server.py\n- Boundary tests run :: symlinks rejected\n- Exact passage manually checked :: Noa Levi, 2026-12-01\n- Client and transport :: stdio\n- Integration demonstrated :: pending\n- Unverified behavior :: HTTP\n",
		failed: []string{"18"}, refuted: []string{"3: 18"}},

	// Prose.
	{why: "a single paragraph of prose with every field, all true", state: Consistent,
		record: "I wrote the server in notes_server.py. I ran scripts/acceptance.sh and it reported 29 passed, 0 failed. Dana Whit compared the sign-in passage with the file on 2026-12-02. I connected it over stdio from the MCP Inspector. Integration with an AI client is pending. I have not verified HTTP.\n"},
	{why: "a paragraph of prose claiming all eight acceptance tests, checksum test included, while check 7 failed", state: Contradicted,
		record: "I wrote the server in notes_server.py. All eight acceptance tests came through, including the checksum test. Dana Whit compared the sign-in passage with the file on 2026-12-02. I connected it over stdio from the MCP Inspector. Integration is pending. I have not verified HTTP.\n",
		failed: []string{"7"}, refuted: []string{"1: 7"}},
	{why: "prose in several paragraphs, a failure admitted", state: Consistent,
		record: "The source is in server.go.\n\nThe harness run shows 28 passed, 1 failed: check 19 (hard links) fails.\n\nI, Dana Whit, checked the exact passage on 1 December.\n\nTransport: stdio, with the Inspector.\n\nIntegration was not demonstrated yet, it is pending.\n\nNot verified: anything on Windows.\n",
		failed: []string{"19"}},
	{why: "prose with a clause that names no test: a person reads it", state: Review, read: []int{1},
		record: "The source is in server.go. The acceptance harness reported 29 passed, 0 failed. Overall it looks good. Dana Whit checked the exact passage on 1 December. It runs over stdio. Integration is pending. I have not tested HTTP.\n"},

	// Blanks.
	{why: "TODO in a field is a blank", state: Incomplete,
		record: md("server.py", "TODO", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP")},
	{why: "TBD in the integration field is a blank", state: Incomplete,
		record: md("server.py", "all acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "TBD", "HTTP")},
	{why: "FIXME in the source field is a blank", state: Incomplete,
		record: md("FIXME add the repo link", "all acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP")},
	{why: "a {{name}} placeholder is a blank", state: Incomplete,
		record: md("server.py", "all acceptance tests pass", "{{checker}}, {{date}}", "stdio", "pending", "HTTP")},
	{why: "an <angle> placeholder is a blank", state: Incomplete,
		record: md("<path to source>", "all acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP")},
	{why: "a [bracket] placeholder is a blank", state: Incomplete,
		record: md("server.py", "all acceptance tests pass", "Kim Lee, 2026-12-01", "[client] over [transport]", "pending", "HTTP")},
	{why: "'see README' with no README in the record or the folder is a blank", state: Incomplete,
		record: md("server.py", "see README", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP")},
	{why: "'see above' with nothing above is a blank", state: Incomplete,
		record: "Server source created: see above\nBoundary tests run: all acceptance tests pass\nExact passage manually checked: Kim Lee, 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n"},
	{why: "'see above' with the source named above it is filled", state: Consistent,
		record: "The server lives in ~/work/notes-server (commit 9f8e7d6).\n\nServer source created: see above\nBoundary tests run: all acceptance tests pass\nExact passage manually checked: Kim Lee, 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n"},
	{why: "'see README.md' where the record has a README section is filled", state: Consistent,
		record: "Server source created: see README.md\nBoundary tests run: all acceptance tests pass\nExact passage manually checked: Kim Lee, 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n\n## README\nThe server is server.py in this folder.\n"},
	{why: "N/A without a reason is a blank", state: Incomplete,
		record: md("server.py", "all acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "N/A", "HTTP")},
	{why: "N/A with a reason is filled", state: Consistent,
		record: md("server.py", "all acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "N/A: no desktop client on this machine, pending", "HTTP")},
	{why: "a value that is the next field's label is a blank", state: Incomplete,
		record: "Server source created: Boundary tests run: all acceptance tests pass\nExact passage manually checked: Kim Lee, 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n"},

	// Claims wherever they stand.
	{why: "'All 29 checks passed and the folder is left as it was' under Unverified behavior, refuted by 16", state: Contradicted,
		record: md("server.py", "ran the harness", "Kim Lee, 2026-12-01", "stdio", "pending", "All 29 checks passed and the notes folder is left exactly as it was"),
		failed: []string{"16"}, refuted: []string{"8: 16"}},
	{why: "a later run the record reports, refuted by the run of the submitted server", state: Contradicted,
		record: md("server.py", "28 passed, 1 failed (check 16: a cache file in HOME)", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n2 Dec, after taking the cache out: 29 passed, 0 failed\n",
		failed: []string{"16"}, refuted: []string{"10: 16"}},
	{why: "a later run the record reports, which the submitted server's run bears out", state: Consistent,
		record: md("server.py", "28 passed, 1 failed (check 16: a cache file in HOME)", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP") +
			"\n2 Dec, after taking the cache out: 29 passed, 0 failed\n"},
	{why: "a claim in the source field about the symlink rule", state: Contradicted,
		record: md("server.py, which rejects symlinks pointing outside", "ran the harness", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"5"}, refuted: []string{"3: 5"}},
	{why: "an honest admission under Unverified behavior", state: Consistent,
		record: md("server.py", "ran the harness", "Kim Lee, 2026-12-01", "stdio", "pending", "hard links: check 19 fails"),
		failed: []string{"19"}},

	// Counts in any form.
	{why: "'28/29' matching the run", state: Consistent,
		record: md("server.py", "28/29 checks pass", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"11"}},
	{why: "'29 passed' alone while a check failed", state: Contradicted,
		record: md("server.py", "29 passed", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"11"}, refuted: []string{"4: 11"}},
	{why: "'28 passed' alone while a check failed: true", state: Consistent,
		record: md("server.py", "28 passed", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"11"}},
	{why: "an impossible count, 30 of 29, is refuted by itself", state: Contradicted,
		record:  md("server.py", "30 of 29 checks passed", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		refuted: []string{"4:"}},
	{why: "'passed: 29, failed: 0' in YAML style while two checks failed", state: Contradicted,
		record: md("server.py", "passed: 29, failed: 0", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"11", "12"}, refuted: []string{"4: 11 12"}},
	{why: "'7 of 8' where two acceptance tests failed", state: Contradicted,
		record: md("server.py", "7 of 8 acceptance tests pass", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"3", "4"}, refuted: []string{"4: 3 4"}},
	{why: "the harness's check numbers 8.1-8.7 read: 8.6 named as failing", state: Consistent,
		record: md("server.py", "all pass except check 8.6", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"8.6"}},
	{why: "check 8.6 named as passing while it failed", state: Contradicted,
		record: md("server.py", "checks 8.1 to 8.7 pass", "Kim Lee, 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"8.6"}, refuted: []string{"4: 8.6"}},
	// The rule, not the check: a claim about one rule of a check is
	// refuted only by a finding of that rule.
	{why: "'the big file one, the symlink one and the traversal one all behave' while check 6 failed on the big file", state: Contradicted,
		record: md("server.py", "the big file one, the symlink one and the traversal one all behave", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"6"}, evidence: map[string]string{"6": "oversized.md (over 102400 bytes) was searched and named as a result"},
		refuted: []string{"4: 6"}},
	{why: "the same claim while check 6 failed on the long query only: the big file rule held", state: Consistent,
		record: md("server.py", "the big file one, the symlink one and the traversal one all behave", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"6"}, evidence: map[string]string{"6": "201-character query was accepted (isError false)"}},
	{why: "'the long query is refused' while check 6 failed on the long query", state: Contradicted,
		record: md("server.py", "ran the harness; the long query is refused", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"6"}, evidence: map[string]string{"6": "201-character query was accepted (isError false)"},
		refuted: []string{"4: 6"}},
	{why: "'the long query is refused' while check 6 failed on the big file only", state: Consistent,
		record: md("server.py", "ran the harness; the long query is refused", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"6"}, evidence: map[string]string{"6": "oversized.md (over 102400 bytes) was searched and named as a result"}},
	{why: "a protocol revision claim refuted by 8.6", state: Contradicted,
		record: md("server.py", "ran the harness", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP") +
			"\nIt answers 2024-11-05 to a client that asks for 2024-11-05.\n",
		failed: []string{"8.6"}, evidence: map[string]string{"8.6": `initialize asking for 2024-11-05 was answered with "2025-11-25"`},
		refuted: []string{"10: 8.6"}},
	{why: "the same protocol revision claim while only 8.3 failed", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP") +
			"\nIt answers 2024-11-05 to a client that asks for 2024-11-05.\n",
		failed: []string{"8.3"}},
	{why: "'exits when stdin closes' while check 8 failed on exactly that", state: Contradicted,
		record: md("server.py", "ran the harness; the server exits when stdin closes ✅", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"8"}, evidence: map[string]string{"8": "process still running 5s after stdin closed; harness sent SIGTERM"},
		refuted: []string{"4: 8"}},
	{why: "'exits when stdin closes' while check 8 failed on tools/list: another rule of the check", state: Consistent,
		record: md("server.py", "ran the harness; the server exits when stdin closes ✅", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"8"}, evidence: map[string]string{"8": "tools/list has no search_notes (tools: [])"}},
	{why: "'logs go to stderr' while check 8 saw a reply with no id on stdout", state: Contradicted,
		record: md("server.py", "ran the harness; clean stdout, logs go to stderr ✅", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"8"}, evidence: map[string]string{"8": "the server wrote a reply with no id (stdout line 3 of this process)"},
		refuted: []string{"4: 8"}},
	{why: "'hard links are rejected' while check 19 failed", state: Contradicted,
		record: md("server.py", "hard links are rejected", "Lena Park, 2026-12-03", "stdio", "pending", "HTTP"),
		failed: []string{"19"}, refuted: []string{"4: 19"}},

	// Dates and people.
	{why: "an ISO date with a time", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park, 2026-12-03T14:00", "stdio", "pending", "HTTP")},
	{why: "an ISO date with a time after a space and a zone", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park, 2026-12-03 14:00 UTC", "stdio", "pending", "HTTP")},
	{why: "'yesterday' in a record dated 3 December", state: Consistent,
		record: "Date: 2026-12-03\n\n" + md("server.py", "ran the harness", "Lena Park, yesterday", "stdio", "pending", "HTTP")},
	{why: "'yesterday' in a record with no date of its own: the day before the run", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park, yesterday", "stdio", "pending", "HTTP")},
	{why: "a weekday, resolved against the record's date", state: Consistent,
		record: "Date: 3 December 2026\n\n" + md("server.py", "ran the harness", "checked by Lena Park on Monday", "stdio", "pending", "HTTP")},
	{why: "3/12 without a year", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park 3/12", "stdio", "pending", "HTTP")},
	{why: "3 Dec", state: Consistent,
		record: md("server.py", "ran the harness", "Lena Park, 3 Dec", "stdio", "pending", "HTTP")},
	{why: "a date in the future: a person reads it", state: Review, read: []int{5},
		record: md("server.py", "ran the harness", "Lena Park, 2027-01-15", "stdio", "pending", "HTTP")},
	{why: "a date long before the workshop: a person reads it", state: Review, read: []int{5},
		record: md("server.py", "ran the harness", "Lena Park, 2025-06-01", "stdio", "pending", "HTTP")},
	{why: "a team is people", state: Consistent,
		record: md("server.py", "ran the harness", "Team Falcon, 2026-12-02", "stdio", "pending", "HTTP")},
	{why: "a team named with its members", state: Consistent,
		record: md("server.py", "ran the harness", "our team (Ana and Ben), 2 Dec", "stdio", "pending", "HTTP")},
	{why: "a date and no one", state: Incomplete,
		record: md("server.py", "ran the harness", "checked on 2026-12-02", "stdio", "pending", "HTTP")},

	// Languages: Dutch, Polish, Japanese, Russian, and more of the five.
	{why: "Dutch labels and claims, honest", state: Consistent,
		record: "Serverbroncode: server.py\nGrenstests uitgevoerd: alle acceptatietests geslaagd\nHandmatige controle: Sanne de Vries, 2 december 2026\nClient en transport: Claude Desktop, stdio\nIntegratie: in afwachting\nNiet geverifieerd: HTTP\n"},
	{why: "Dutch: all acceptance tests passed while check 4 failed", state: Contradicted,
		record: "Serverbroncode: server.py\nGrenstests uitgevoerd: alle acceptatietests geslaagd\nHandmatige controle: Sanne de Vries, 2 december 2026\nClient en transport: stdio\nIntegratie: in afwachting\nNiet geverifieerd: HTTP\n",
		failed: []string{"4"}, refuted: []string{"2: 4"}},
	{why: "Dutch: all passed except test 5, and only check 17 failed", state: Consistent,
		record: "Serverbroncode: server.py\nGrenstests: alles geslaagd behalve test 5\nHandmatige controle: Sanne de Vries, 2 december\nClient en transport: stdio\nIntegratie: in afwachting\nNiet geverifieerd: HTTP\n",
		failed: []string{"17"}},
	{why: "Dutch: test 6 admitted failing", state: Consistent,
		record: "Serverbroncode: server.py\nGrenstests: test 6 mislukt, de rest geslaagd\nHandmatige controle: Sanne de Vries, 2 december\nClient en transport: stdio\nIntegratie: in afwachting\nNiet geverifieerd: HTTP\n",
		failed: []string{"6"}},
	{why: "Polish labels and claims, honest", state: Consistent,
		record: "Kod źródłowy serwera: server.py\nTesty granic: wszystkie testy akceptacyjne zaliczone\nRęczna weryfikacja: Jan Kowalski, 2 grudnia 2026\nKlient i transport: stdio\nIntegracja: w toku\nNiezweryfikowane: HTTP\n"},
	{why: "Polish: all acceptance tests passed while check 5 failed", state: Contradicted,
		record: "Kod źródłowy serwera: server.py\nTesty granic: wszystkie testy akceptacyjne zaliczone\nRęczna weryfikacja: Jan Kowalski, 2 grudnia 2026\nKlient i transport: stdio\nIntegracja: w toku\nNiezweryfikowane: HTTP\n",
		failed: []string{"5"}, refuted: []string{"2: 5"}},
	{why: "Polish: all passed except test 5, and check 18 failed", state: Consistent,
		record: "Kod źródłowy serwera: server.py\nTesty granic: wszystkie zaliczone oprócz testu 5\nRęczna weryfikacja: Jan Kowalski, 2 grudnia\nKlient i transport: stdio\nIntegracja: w toku\nNiezweryfikowane: HTTP\n",
		failed: []string{"18"}},
	{why: "Polish: the symlink test admitted failing", state: Consistent,
		record: "Kod źródłowy serwera: server.py\nTesty granic: test 5 nie przeszedł\nRęczna weryfikacja: Jan Kowalski, 2 grudnia\nKlient i transport: stdio\nIntegracja: w toku\nNiezweryfikowane: HTTP\n",
		failed: []string{"5"}},
	{why: "Japanese labels the reader does not know: fields by order, a person reads them", state: Review, read: []int{1, 2, 3, 4, 5, 6},
		record: "サーバーのソース: server.py\n境界テスト: すべて合格\n手動確認: 田中, 2026-12-02\nクライアントとトランスポート: stdio\n統合: 保留\n未検証: HTTP\n"},
	{why: "Japanese prose with no field the reader can find: a person reads it", state: Review, read: []int{1},
		record: "サーバーは server.py にあります。\n受け入れテストはすべて合格しました。\n田中が12月2日に確認しました。\n"},
	{why: "Russian labels the reader does not know: fields by order, a person reads them", state: Review, read: []int{3, 4, 5, 6, 7, 8},
		record: "# Отчёт\n\nИсходный код сервера: server.py\nГраничные тесты: все прошли\nПроверка фрагмента: Иван Петров, 2026-12-02\nКлиент и транспорт: stdio\nИнтеграция: в ожидании\nНепроверенное поведение: HTTP\n"},
	{why: "Russian prose with no field the reader can find: a person reads it", state: Review, read: []int{1},
		record: "Сервер написан на Python.\nВсе тесты прошли успешно.\nПроверил Иван Петров.\n"},
	{why: "one unknown label between known ones is read by the specification's order", state: Review, read: []int{2},
		record: "Server source created: s.py\nPlumbing: ran the harness\nExact passage manually checked: Kim Lee, 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n"},
	{why: "Portuguese throughout, the failure it admits is the run's", state: Consistent,
		record: "Fonte do servidor: servidor.py\nTestes de limite: 28 passaram, 1 falhou: o teste 6 (arquivo muito grande)\nVerificação manual: Ana Souza, 2 de dezembro\nCliente e transporte: stdio\nIntegração: pendente\nNão verificado: HTTP\n",
		failed: []string{"20"}},
	{why: "Spanish: a symlink claim refuted by check 17", state: Contradicted,
		record: "Fuente del servidor: s.py\nPruebas de límites: los enlaces simbólicos se rechazan ✅\nVerificación manual: Lucía Gómez, 2 de diciembre\nCliente: stdio\nIntegración: pendiente\nNo verificado: HTTP\n",
		failed: []string{"17"}, refuted: []string{"2: 17"}},
	{why: "French: ISO date with a time and 'tous les tests d'acceptation réussis'", state: Consistent,
		record: "Source du serveur : serveur.js\nTests de limites : tous les tests d'acceptation réussis\nVérification manuelle : Camille Martin, 2026-12-02T09:30\nClient et transport : stdio\nIntégration démontrée : en attente\nComportement non vérifié : HTTP\n"},
	{why: "German: 'gestern' in a record dated 3.12.2026", state: Consistent,
		record: "Datum: 3.12.2026\n\nServerquelle: s.py\nGrenztests: alle bestanden\nManuelle Prüfung: Jonas Becker, gestern\nClient: stdio\nIntegration: ausstehend\nNicht geprüft: HTTP\n"},
	{why: "Italian: 'tutti i test di accettazione superati' while check 3 failed", state: Contradicted,
		record: "Sorgente del server: server.py\nTest dei limiti: tutti i test di accettazione superati\nVerifica manuale: Giulia Rossi, 2 dicembre\nClient e trasporto: stdio\nIntegrazione: in sospeso\nNon verificato: HTTP\n",
		failed: []string{"3"}, refuted: []string{"2: 3"}},
}

func TestShapeRecords(t *testing.T) {
	for _, lr := range shapeRecords {
		t.Run(lr.why, func(t *testing.T) { checkLearnerRecord(t, lr) })
	}
}

// The table of records is large enough to speak for the reader, and the
// reader leaves at most one record in ten to a person.
func TestRecordTable(t *testing.T) {
	all := append(append([]learnerRecord(nil), learnerRecords...), shapeRecords...)
	if len(all) < 200 {
		t.Errorf("%d records in the table; it is meant to hold at least 200", len(all))
	}
	review := 0
	for _, lr := range all {
		if lr.state == Review {
			review++
			if len(lr.read) == 0 {
				t.Errorf("%q: a record for review names no line to read", lr.why)
			}
		}
	}
	if review*10 > len(all) {
		t.Errorf("%d of %d records for review: more than one in ten", review, len(all))
	}
	t.Logf("%d records, %d for review", len(all), review)
}
