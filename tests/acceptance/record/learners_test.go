package record

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

// classRun builds a run in the --json shape with every check of the
// harness's catalog, dated 2026-12-04; the listed ids fail.
func classRun(failed ...string) *Run {
	sections := map[string]string{}
	for _, id := range []string{"8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7"} {
		sections[id] = "protocol"
	}
	for _, id := range []string{"9", "10", "11", "12", "13", "14", "15", "16"} {
		sections[id] = "tool"
	}
	for _, id := range []string{"17", "18", "19", "20", "21", "22"} {
		sections[id] = "boundary"
	}
	r := &Run{Date: time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC), Server: "python3 server.py {root}"}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7",
		"9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22"} {
		c := Check{ID: id, Section: "acceptance", Title: "check " + id, Status: checks.StatusPass}
		if s, ok := sections[id]; ok {
			c.Section = s
		}
		for _, f := range failed {
			if f == id {
				c.Status = checks.StatusFail
				c.Evidence = "FAIL: defect seen by check " + id + "\n   -> tools/call search_notes {\"query\":\"q" + id + "\"}\n   <- reply"
			}
		}
		if c.Status == checks.StatusFail {
			r.Failed++
		} else {
			r.Passed++
		}
		r.Checks = append(r.Checks, c)
	}
	return r
}

// learnerRecord is one record as a learner might write it, the run it is
// graded against, and the state a careful instructor gives it.
type learnerRecord struct {
	why    string // the one-line reason for the state
	record string
	failed []string
	state  State
	// refuted, when set, lists each contradicted line's refuting checks
	// ("line: ids"); read, the lines left to a person to read.
	refuted []string
	read    []int
	// evidence gives a failed check the finding its judge wrote, for a
	// claim about one of its rules.
	evidence map[string]string
}

// six fills the specification's fields with values, one "Label: value"
// line each, in the given style: "bold", "list", "plain".
func six(style, source, boundary, passage, transport, integration, unverified string) string {
	vals := []string{source, boundary, passage, transport, integration, unverified}
	var b strings.Builder
	b.WriteString("# Completion record\n\n")
	for i, name := range fieldNames {
		switch style {
		case "bold":
			b.WriteString("**" + name + ":** " + vals[i] + "\n\n")
		case "list":
			b.WriteString("- " + strings.ToLower(name) + ": " + vals[i] + "\n")
		default:
			b.WriteString(name + ": " + vals[i] + "\n")
		}
	}
	return b.String()
}

var learnerRecords = []learnerRecord{
	{why: "every field filled, the run passed everything", state: Consistent,
		record: six("bold", "`~/mcp/notes_server.py`", "ran the acceptance harness, everything green", "Priya Natarajan, 2026-12-02", "Claude Desktop, stdio", "yes: listed the tool and searched sign-in from a chat", "HTTP, Windows")},
	{why: "everything green while check 17 failed: test 5's symlink rule is broken", state: Contradicted,
		record:  six("bold", "`~/mcp/notes_server.py`", "ran the acceptance harness, everything green", "Priya Natarajan, 2026-12-02", "Claude Desktop, stdio", "yes", "HTTP"),
		failed:  []string{"17"},
		refuted: []string{"5: 17"}},
	{why: "all eight acceptance tests claimed, check 18 refines test 5", state: Contradicted,
		record:  six("list", "src/index.ts", "all eight acceptance tests pass", "checked by tomás on 1 Dec", "Cursor over stdio", "pending", "remote HTTP"),
		failed:  []string{"18"},
		refuted: []string{"4: 18"}},
	{why: "all eight claimed, only protocol check 8.3 failed: not one of the eight", state: Consistent,
		record: six("list", "src/index.ts", "all eight acceptance tests pass", "checked by tomás on 1 Dec", "Cursor over stdio", "pending", "remote HTTP"),
		failed: []string{"8.3"}},
	{why: "symlink test named as the exception, and the symlink check is what failed", state: Consistent,
		record: six("plain", "server.go", "all passed except the symlink test", "Lin Wei 2026/12/03", "MCP Inspector (stdio)", "no, pending", "symlinks inside the root"),
		failed: []string{"5"}},
	{why: "exception names the symlink test but the traversal check failed", state: Contradicted,
		record:  six("plain", "server.go", "all passed except the symlink test", "Lin Wei 2026/12/03", "MCP Inspector (stdio)", "no, pending", "none"),
		failed:  []string{"4"},
		refuted: []string{"4: 4"}},
	{why: "Spanish labels and claim, honest run", state: Consistent,
		record: "## Registro\n\n- **Código fuente del servidor:** servidor.py\n- **Pruebas de límites ejecutadas:** las 8 pruebas de aceptación pasaron\n- **Pasaje exacto verificado manualmente:** Lucía Gómez, 3 de diciembre de 2026\n- **Cliente y transporte:** Claude Desktop, stdio\n- **Integración demostrada:** sí, desde Claude Desktop\n- **Comportamiento no verificado:** HTTP\n"},
	{why: "Spanish claim that the eight passed while check 5 failed", state: Contradicted,
		record:  "- **Código fuente del servidor:** servidor.py\n- **Pruebas de límites ejecutadas:** las 8 pruebas de aceptación pasaron\n- **Pasaje exacto verificado manualmente:** Lucía Gómez, 3 de diciembre de 2026\n- **Cliente y transporte:** Claude Desktop, stdio\n- **Integración demostrada:** pendiente\n- **Comportamiento no verificado:** HTTP\n",
		failed:  []string{"5"},
		refuted: []string{"2: 5"}},
	{why: "French labels, month and day without a year", state: Consistent,
		record: "Source du serveur : serveur.js\nTests de limites : tous réussis\nPassage exact vérifié manuellement : Camille Martin, le 2 décembre\nClient et transport : Claude Desktop (stdio)\nIntégration démontrée : oui\nComportement non vérifié : HTTP distant\n"},
	{why: "French 'tous réussis' in the boundary field while check 22 failed", state: Contradicted,
		record:  "Source du serveur : serveur.js\nTests de limites : tous réussis\nPassage exact vérifié manuellement : Camille Martin, le 2 décembre\nClient et transport : Claude Desktop (stdio)\nIntégration démontrée : en attente\nComportement non vérifié : HTTP distant\n",
		failed:  []string{"22"},
		refuted: []string{"2: 22"}},
	{why: "German labels, all passed, run passed", state: Consistent,
		record: "### Abschluss\n\n| Feld | Wert |\n|---|---|\n| Server-Quellcode | server.py |\n| Grenztests | alle bestanden |\n| Manuelle Prüfung | Jonas Becker, 3.12.2026 |\n| Client und Transport | Claude Desktop, stdio |\n| Integration nachgewiesen | ja |\n| Nicht verifiziertes Verhalten | HTTP |\n"},
	{why: "German table row with a failure admitted for the symlink test while 17 failed", state: Consistent,
		record: "| Server-Quellcode | server.py |\n| Grenztests | Symlink-Test fehlgeschlagen, sonst alles grün |\n| Manuelle Prüfung | Jonas Becker, 3.12.2026 |\n| Client und Transport | stdio |\n| Integration nachgewiesen | ausstehend |\n| Nicht verifiziertes Verhalten | HTTP |\n",
		failed: []string{"17"}},
	{why: "Portuguese labels, honest", state: Consistent,
		record: "**Código-fonte do servidor:** servidor.py\n**Testes de limite:** todos passaram\n**Verificação manual:** Ana Souza, 2 de dezembro\n**Cliente e transporte:** Claude Desktop via stdio\n**Integração demonstrada:** sim\n**Comportamento não verificado:** HTTP\n"},
	{why: "Italian labels, claims the absolute-path test passed while 13 (test 4) failed", state: Contradicted,
		record:  "Sorgente del server: server.py\nTest dei limiti: percorso assoluto rifiutato ✅, symlink rifiutato ✅\nVerifica manuale: Giulia Rossi, 2 dicembre 2026\nClient e trasporto: Claude Desktop, stdio\nIntegrazione dimostrata: in sospeso\nComportamento non verificato: HTTP\n",
		failed:  []string{"13"},
		refuted: []string{"2: 13"}},
	{why: "short labels, a lower-case name and a month-day date", state: Consistent,
		record: "Source: app.py\nBoundary tests: passed\nManual check: jordan, Dec 3\nClient: Claude Desktop over stdio\nIntegration: done in Claude Desktop\nUnverified: Linux only\n"},
	{why: "a chatbot named as the one who checked the passage", state: Incomplete,
		record: "Source: app.py\nBoundary tests: passed\nManual check: ChatGPT compared it on 2026-12-02\nClient: Claude Desktop over stdio\nIntegration: done\nUnverified: Linux only\n"},
	{why: "the harness named as the checker is not a person", state: Incomplete,
		record: "Source: app.py\nBoundary tests: passed\nManual check: the harness, 2026-12-02\nClient: stdio\nIntegration: pending\nUnverified: Linux only\n"},
	{why: "'checked by me' in a record that names its author", state: Consistent,
		record: "# Completion record — Maya Chen\n\nSource: app.py\nBoundary tests: passed\nManual check: checked by me on 2026-12-01\nClient: stdio (MCP Inspector)\nIntegration: pending\nUnverified: HTTP\n"},
	{why: "'checked by me' with no author named anywhere", state: Incomplete,
		record: "Source: app.py\nBoundary tests: passed\nManual check: checked by me on 2026-12-01\nClient: stdio (MCP Inspector)\nIntegration: pending\nUnverified: HTTP\n"},
	{why: "'me' with an Author line", state: Consistent,
		record: "Author: ravi k\n\nSource: app.py\nBoundary tests: passed\nManual check: me, 30 Nov 2026\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n"},
	{why: "a GitHub handle and an ISO date", state: Consistent,
		record: six("plain", "https://github.com/someone/notes-mcp", "passed", "@okafor-dev 2026-12-03", "stdio", "pending", "HTTP")},
	{why: "an email address as the person", state: Consistent,
		record: six("plain", "notes.py", "passed", "sam.o@example.org — Dec 2nd", "stdio", "pending", "HTTP")},
	{why: "passage check dated after the run: a person reads it", state: Review, read: []int{5},
		record: six("plain", "notes.py", "passed", "Sam Ortiz, 2026-12-09", "stdio", "pending", "HTTP")},
	{why: "passage check dated before the run is fine", state: Consistent,
		record: six("plain", "notes.py", "passed", "Sam Ortiz, November 28", "stdio", "pending", "HTTP")},
	{why: "passage check with no date", state: Incomplete,
		record: six("plain", "notes.py", "passed", "Sam Ortiz", "stdio", "pending", "HTTP")},
	{why: "passage check still pending", state: Incomplete,
		record: six("plain", "notes.py", "passed", "not yet, will do after class", "stdio", "pending", "HTTP")},
	{why: "the template untouched", state: Incomplete,
		record: "## Completion record\nServer source created: ___\nBoundary tests run: ___\nExact passage manually checked: ___\nClient and transport: ___\nIntegration demonstrated: ___\nUnverified behavior: ___\n"},
	{why: "two fields missing", state: Incomplete,
		record: "Server source created: main.go\nBoundary tests run: passed\nExact passage manually checked: Ada Obi 2026-12-01\nClient and transport: stdio\n"},
	{why: "own unit tests called green are not a claim about this run", state: Consistent,
		record: six("bold", "main.go", "my unit tests (go test ./...) are green", "Ada Obi 2026-12-01", "stdio, Inspector", "pending", "HTTP"),
		failed: []string{"5"}},
	{why: "pytest output in a code block is the learner's own tests", state: Consistent,
		record: "Server source created: server.py\nBoundary tests run:\n```\n$ pytest tests/test_boundary.py\n===== 9 passed in 0.21s =====\n```\nExact passage manually checked: Noor Haddad, Dec 1, 2026\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed: []string{"17"}},
	{why: "own test script named with its own results, plus a harness claim that is refuted", state: Contradicted,
		record:  "Server source created: server.py\nBoundary tests run: test_boundary.py passes; the acceptance harness also reported 0 failed\nExact passage manually checked: Noor Haddad, Dec 1, 2026\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed:  []string{"16"},
		refuted: []string{"2: 16"}},
	{why: "'it all works' with a failed check", state: Contradicted,
		record:  six("plain", "server.rs", "it all works", "Ola Nowak 2026-12-02", "stdio", "pending", "HTTP"),
		failed:  []string{"10"},
		refuted: []string{"4: 10"}},
	{why: "'never writes anything' while check 16 saw a write to HOME", state: Contradicted,
		record:  six("plain", "server.rs", "done; note: the server never writes anything", "Ola Nowak 2026-12-02", "stdio", "pending", "HTTP"),
		failed:  []string{"16"},
		refuted: []string{"4: 16"}},
	{why: "'no invented passage' while check 2 failed", state: Contradicted,
		record:  "Server source created: server.rs\nBoundary tests run: ran the harness\n- absent phrase: no invented passage\nExact passage manually checked: Ola Nowak 2026-12-02\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed:  []string{"2"},
		refuted: []string{"3: 2"}},
	{why: "'nothing outside the folder is ever returned' while the sibling-prefix check 17 failed", state: Contradicted,
		record:  six("plain", "server.rs", "nothing outside the folder is ever returned", "Ola Nowak 2026-12-02", "stdio", "pending", "HTTP"),
		failed:  []string{"17"},
		refuted: []string{"4: 17"}},
	{why: "a pasted harness output of this very run", state: Consistent,
		record: six("plain", "server.py", "see below", "Kofi Mensah 2026-12-03", "stdio", "pending", "HTTP") +
			"\n```\nPASS 1 sign-in returns the exact N2 passage\nPASS 4 ../outside.md rejected\nFAIL 5 symlink served outside bytes\n    fix: ...\nPASS 17 sibling link rejected\n28 passed, 1 failed\n```\n",
		failed: []string{"5"}},
	{why: "a pasted output with a PASS line for a check this run failed", state: Contradicted,
		record: six("plain", "server.py", "see below", "Kofi Mensah 2026-12-03", "stdio", "pending", "HTTP") +
			"\n```\nPASS 1 sign-in returns the exact N2 passage\nPASS 5 symlink rejected\nPASS 17 sibling link rejected\n29 passed, 0 failed\n```\n",
		failed:  []string{"5"},
		refuted: []string{"12: 5"}},
	{why: "a pasted count alone, fewer failures than the run", state: Contradicted,
		record:  six("plain", "server.py", "harness output:", "Kofi Mensah 2026-12-03", "stdio", "pending", "HTTP") + "\n    27 passed, 2 failed\n",
		failed:  []string{"5", "13", "20"},
		refuted: []string{"10: 5 13 20"}},
	{why: "an inflated ratio: 8/8 claimed, tests 4 and 6 failed", state: Contradicted,
		record:  "- Server source created: server.py\n- Boundary tests run: 8/8 ✅\n- Exact passage manually checked: Rosa Diaz, 12/01/2026\n- Client and transport: stdio\n- Integration demonstrated: yes\n- Unverified behavior: HTTP\n",
		failed:  []string{"4", "6"},
		refuted: []string{"2: 4 6"}},
	{why: "7 of 8 claimed and exactly one acceptance test failed", state: Consistent,
		record: "- Server source created: server.py\n- Boundary tests run: 7 of 8 passed (the oversized file one fails)\n- Exact passage manually checked: Rosa Diaz, 12/01/2026\n- Client and transport: stdio\n- Integration demonstrated: yes\n- Unverified behavior: HTTP\n",
		failed: []string{"20"}},
	{why: "a table with a ✅ per test, only test 7's row is refuted", state: Contradicted,
		record: six("plain", "server.py", "see table", "Rosa Diaz, 12/01/2026", "stdio", "pending", "HTTP") +
			"\n| # | Test | Result |\n|---|---|---|\n| 1 | sign-in | ✅ |\n| 2 | absent phrase | ✅ |\n| 5 | symlink | ✅ |\n| 7 | checksums | ✅ |\n",
		failed:  []string{"7"},
		refuted: []string{"15: 7"}},
	{why: "a table with ❌ where the run failed", state: Consistent,
		record: six("plain", "server.py", "see table", "Rosa Diaz, 12/01/2026", "stdio", "pending", "HTTP") +
			"\n| Test | Status |\n|---|---|\n| Test 5 symlink | ❌ not yet handled |\n| Test 6 oversized | ✅ |\n",
		failed: []string{"5", "18"}},
	{why: "headings with prose under them, a boundary claim refuted by 20", state: Contradicted,
		record:  "# My completion record\n\n## Server source created\nThe server is in `notes/server.py`.\n\n## Boundary tests run\nI ran scripts/acceptance.sh. All the boundary tests passed.\n\n## Exact passage manually checked\nYes, by Olu Adeyemi on 2 December.\n\n## Client and transport\nClaude Desktop, stdio.\n\n## Integration demonstrated\nYes.\n\n## Unverified behavior\nHTTP.\n",
		failed:  []string{"20"},
		refuted: []string{"7: 20"}},
	{why: "integration claimed while check 8 failed", state: Contradicted,
		record:  six("plain", "server.py", "4 and 5 fail, the rest pass", "Olu Adeyemi, 2 December 2026", "Claude Desktop via stdio", "yes — Claude called search_notes", "HTTP"),
		failed:  []string{"4", "5", "8"},
		refuted: []string{"7: 8"}},
	{why: "the server never started; the record plans stdio and leaves integration pending", state: Consistent,
		record: six("plain", "server.py", "could not run them yet, the server crashes on start", "Olu Adeyemi, 2 December 2026", "will use Claude Desktop over stdio", "pending", "everything"),
		failed: []string{"1", "2", "3", "4", "5", "6", "8"}},
	{why: "the server never started; the record says it works over stdio", state: Contradicted,
		record:  six("plain", "server.py", "could not run them", "Olu Adeyemi, 2 December 2026", "stdio, works in the Inspector", "pending", "everything"),
		failed:  []string{"1", "2", "3", "4", "5", "6", "8"},
		refuted: []string{"6: 1 2 8"}},
	{why: "a claim that names no test is left for a person to read", state: Review, read: []int{10},
		record: six("plain", "server.py", "passed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP") + "\nOverall it went fine and the result looks good.\n"},
	{why: "an exception that names no test is left for a person to read", state: Review, read: []int{4},
		record: six("plain", "server.py", "everything passed except the flaky thing I mentioned to the instructor", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"15"}},
	{why: "'all but one' with one failed check", state: Consistent,
		record: six("plain", "server.py", "all but one passed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"19"}},
	{why: "'all but one' with two failed boundary checks", state: Contradicted,
		record:  six("plain", "server.py", "all but one passed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed:  []string{"19", "22"},
		refuted: []string{"4: 19 22"}},
	{why: "a named check in the exception, by number", state: Consistent,
		record: six("plain", "server.py", "all green except check 10 (non-ASCII case)", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"10"}},
	{why: "test named by number: test 3 passed, check 3 failed", state: Contradicted,
		record: six("plain", "server.py", "test 1 ok, test 3 ok; test 6 not done", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"3"}, refuted: []string{"4: 3"}},
	{why: "no network use claimed: no check observes it, left for a person", state: Review, read: []int{10},
		record: six("plain", "server.py", "ran the harness: 0 failed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP") + "\nThe server makes no network calls at all.\n"},
	{why: "a harness-generated record, unchanged run, fields filled in", state: Consistent,
		record: strings.NewReplacer("___ (where the server's source is: folder or repository, and commit)", "~/work/notes at 3f2a1c9",
			"___ (who compared the passage the server returned for sign-in with sample-notes.md, and on what date)", "Ines Duarte, Dec 3",
			"any other client you connected, and its transport: ___", "no other client",
			"with an AI client (name it, or write pending): ___", "with an AI client: pending").Replace(Generate(classRun("19"), ""))},
	{why: "a generated record from a run before check 5 broke", state: Contradicted,
		record: strings.NewReplacer("___ (where the server's source is: folder or repository, and commit)", "~/work/notes",
			"___ (who compared the passage the server returned for sign-in with sample-notes.md, and on what date)", "Ines Duarte, Dec 3",
			"any other client you connected, and its transport: ___", "none",
			"with an AI client (name it, or write pending): ___", "pending").Replace(Generate(classRun(), "")),
		failed: []string{"5"}},
	{why: "a generated record left with its blanks", state: Incomplete,
		record: Generate(classRun(), "")},
	{why: "the learner's own checklist with plans only", state: Consistent,
		record: six("list", "server.ts", "planned for next week: symlink and traversal", "Ben Ito, 2026-11-30", "stdio (planned)", "pending", "all boundary behaviour")},
	{why: "a claim that the symlink test passes in prose outside the fields", state: Contradicted,
		record:  six("plain", "server.ts", "ran", "Ben Ito, 2026-11-30", "stdio", "pending", "HTTP") + "\nSymlinks pointing outside are rejected, tested it.\n",
		failed:  []string{"18"},
		refuted: []string{"10: 18"}},
	{why: "a failure admitted in prose after a broad claim in the same field", state: Consistent,
		record: "Server source created: server.ts\nBoundary tests run: everything passed\n  but the oversized file test fails (hangs on a FIFO)\nExact passage manually checked: Ben Ito, 2026-11-30\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed: []string{"20"}},
	{why: "passage claimed identical while check 1 found it not exact", state: Contradicted,
		record:  six("plain", "server.ts", "see harness", "Ben Ito, 2026-11-30: identical to the file", "stdio", "pending", "HTTP"),
		failed:  []string{"1"},
		refuted: []string{"5: 1"}},
	{why: "checksums claimed unchanged while check 7 failed", state: Contradicted,
		record:  six("plain", "server.ts", "checksums unchanged after all calls", "Ben Ito, 2026-11-30", "stdio", "pending", "HTTP"),
		failed:  []string{"7"},
		refuted: []string{"4: 7"}},
	{why: "discovery claimed in the boundary field while check 8 passed and 21 failed", state: Consistent,
		record: six("plain", "server.ts", "tools/list and tools/call work", "Ben Ito, 2026-11-30", "stdio", "yes", "HTTP"),
		failed: []string{"21"}},
	{why: "a read-only claim with an honest write failure admitted", state: Consistent,
		record: six("plain", "server.ts", "read-only checks: the HOME write check fails (cache file)", "Ben Ito, 2026-11-30", "stdio", "pending", "HTTP"),
		failed: []string{"16"}},
	{why: "'done ✅' in the boundary field speaks for the boundary tests", state: Contradicted,
		record: "Source: s.py\nBoundary tests: done ✅\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"5"}, refuted: []string{"2: 5"}},
	{why: "'yes' says the tests ran, not that they passed", state: Consistent,
		record: "Source: s.py\nBoundary tests: yes\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"5"}},
	{why: "'I didn't write a test' speaks of the learner, not of the server writing", state: Consistent,
		record: "Source: s.py\nBoundary tests: I didn't write a test for symlinks\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"5", "16"}},
	{why: "a task list: the ticked symlink box is refuted, the open one claims nothing", state: Contradicted,
		record: "Source: s.py\nBoundary tests: see list\n- [x] symlink rejected\n- [ ] oversized file\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"5", "6"}, refuted: []string{"3: 5"}},
	{why: "28/29 with the one skipped check 22 failing as root is what the run shows", state: Consistent,
		record: "Source: s.py\nBoundary tests: 28/29 checks pass (22 fails when run as root)\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"22"}},
	{why: "Spanish 'todas pasan' while check 10 failed", state: Contradicted,
		record: "Fuente del servidor: s.py\nPruebas de límites: todo bien, todas pasan\nVerificación manual: ana lima, 1/12/2026\nCliente: stdio\nIntegración: pendiente\nNo verificado: HTTP\n",
		failed: []string{"10"}, refuted: []string{"2: 10"}},
	{why: "German exception names test 6 and only check 20 (test 6) failed", state: Consistent,
		record: "Serverquelle: s.py\nGrenztests: alle Tests grün außer Test 6\nManuelle Prüfung: Jonas, 2.12.\nClient: stdio\nIntegration: ausstehend\nNicht geprüft: HTTP\n",
		failed: []string{"20"}},
	{why: "a range of tests claimed, then the rest deferred: test 5 is in the range", state: Contradicted,
		record: "Source: s.py\nBoundary tests: Tests 1–5 pass, 6-8 pending\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"5"}, refuted: []string{"2: 5"}},
	{why: "a range of tests claimed, the failed test deferred", state: Consistent,
		record: "Source: s.py\nBoundary tests: Tests 1–5 pass, 6-8 pending\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"20"}},
	{why: "hard links named as the exception, check 19 the one that failed", state: Consistent,
		record: "Source: s.py\nBoundary tests: passes everything except hard links\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: hard links\n",
		failed: []string{"19"}},
	{why: "'doesn't follow symlinks' while check 18 (a linked directory) failed", state: Contradicted,
		record: "Source: s.py\nBoundary tests: the server doesn't follow symlinks\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"18"}, refuted: []string{"2: 18"}},
	{why: "the harness's count in prose, fewer failures than the run", state: Contradicted,
		record: "Source: s.py\nBoundary tests: Ran it on Dec 3; results: 29 passed, 0 failed\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"18"}, refuted: []string{"2: 18"}},
	{why: "a count with the failures admitted: 4 and 5 fail, the rest pass", state: Consistent,
		record: "Source: s.py\nBoundary tests: 4 and 5 fail, the rest pass\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"4", "17"}},
	{why: "'the rest pass' after admitting 4 and 5, while check 7 also failed", state: Contradicted,
		record: "Source: s.py\nBoundary tests: 4 and 5 fail, the rest pass\nManual check: Ana Lima 2026-12-01\nClient: stdio\nIntegration: pending\nUnverified: HTTP\n",
		failed: []string{"4", "7"}, refuted: []string{"2: 7"}},
	{why: "a narrative record: own npm tests, a never-modifies claim that holds, the FIFO failure admitted", state: Consistent,
		record: "# What I built\nI wrote a small MCP server in TypeScript using the official SDK. It exposes one tool, search_notes.\n\n## Completion record\n- Server source created: `src/server.ts` (commit a1b2c3)\n- Boundary tests run: yes — see `test/boundary.test.ts` (traversal, absolute path, symlink escape). All pass locally with `npm test`.\n- Exact passage manually checked: I compared the N2 passage by eye — K. Tanaka, 2026-12-02\n- Client and transport: Claude Desktop 0.9, stdio\n- Integration demonstrated: Claude found the sign-in passage when asked.\n- Unverified behavior: Windows paths; very large folders.\n\n## Notes\nThe server reads files only; it never modifies anything. If a file is over 100 KB it is skipped.\nKnown issue: the FIFO test hangs sometimes.\n",
		failed: []string{"20"}},
	{why: "the same narrative, while check 16 saw a write: 'never modifies anything' is refuted", state: Contradicted,
		record: "- Server source created: `src/server.ts`\n- Boundary tests run: see `npm test`, all pass\n- Exact passage manually checked: K. Tanaka, 2026-12-02\n- Client and transport: Claude Desktop, stdio\n- Integration demonstrated: pending\n- Unverified behavior: Windows paths\n\nThe server reads files only; it never modifies anything.\n",
		failed: []string{"16"}, refuted: []string{"8: 16"}},
	{why: "harness output pasted without a fence, its evidence and fix lines are not claims", state: Consistent,
		record: "Server source created: s.py\nBoundary tests run: output below\nExact passage manually checked: li na 2026-12-01\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n\n# practice-notes acceptance harness\n# server command: python3 s.py {root}\nPASS 1 sign-in returns the exact N2 passage\nFAIL 5 a symlink served outside bytes\n    FAIL: escape-link.md returned outside bytes\n    fix: Do not follow symlinks, or resolve them and refuse targets outside the root.\nPASS 6 bounded\n28 passed, 1 failed\n",
		failed: []string{"5"}},
	{why: "the harness's one-page table pasted, its PASS row for check 17 refuted", state: Contradicted,
		record: six("plain", "s.py", "see the table", "li na 2026-12-01", "stdio", "pending", "HTTP") +
			"\n| Id | Section | Result | Check | Evidence |\n|---|---|---|---|---|\n| 5 | acceptance | PASS | symlink | ok |\n| 17 | boundary | PASS | sibling | ok |\n",
		failed: []string{"17"}, refuted: []string{"13: 17"}},
	{why: "Portuguese claim about the absent phrase, while check 11 (test 2's literal phrases) failed", state: Contradicted,
		record: "Fonte do servidor: servidor.py\nTestes de limite: frase ausente sem resultados ✅\nVerificação manual: joão pedro, 2 de dezembro de 2026\nCliente e transporte: stdio\nIntegração: pendente\nNão verificado: HTTP\n",
		failed: []string{"11"}, refuted: []string{"2: 11"}},
	{why: "Italian: everything passed except the symlink test, and only 17 failed", state: Consistent,
		record: "Sorgente del server: server.py\nTest dei limiti: tutti superati tranne il test 5\nVerifica manuale: marco b., 1 dicembre\nClient e trasporto: stdio\nIntegrazione: in sospeso\nNon verificato: HTTP\n",
		failed: []string{"17"}},
	{why: "'all passed but one failed' with one failed check", state: Consistent,
		record: six("plain", "server.py", "all passed but one failed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"12"}},
	{why: "'all passed but one failed' in the boundary field, two boundary checks failed", state: Contradicted,
		record: six("plain", "server.py", "all passed but one failed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"12", "17", "21"}, refuted: []string{"4: 17 21"}},
	{why: "'all passed but one failed' in the boundary field: checks of other rules are not its subject", state: Consistent,
		record: six("plain", "server.py", "all passed but one failed", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"10", "12", "21"}},
	{why: "'the server is read-only' while check 7 saw a changed fixture", state: Contradicted,
		record: six("plain", "server.py", "ran the harness", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP") + "\nThe server is read-only.\n",
		failed: []string{"7"}, refuted: []string{"10: 7"}},
	{why: "'note contents are treated as data' while check 21 saw a note change the tool list", state: Contradicted,
		record: six("plain", "server.py", "ran the harness; note contents are treated as data", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"21"}, refuted: []string{"4: 21"}},
	{why: "'only one tool' and 'read-only' hold when only check 10 failed", state: Consistent,
		record: six("plain", "server.py", "read-only, only one tool (search_notes)", "Olu Adeyemi, 2 December 2026", "stdio", "pending", "HTTP"),
		failed: []string{"10"}},
	{why: "the specification's eight tests copied as the list of tests run, unmarked: they claim nothing", state: Consistent,
		record: "Server source created: server.py\nBoundary tests run:\n1. Search for “sign-in”: return the exact N2 passage with sample-notes.md as the source.\n2. Search for an absent phrase: return no matches, with no invented passage.\n3. Read a valid file inside practice-data: permitted.\n4. Attempt ../outside.md and an absolute path outside the root: rejected.\n5. Place a symlink in practice-data pointing outside it: rejected, no leaked bytes.\n6. Try an oversized file and query: produce bounded errors.\n7. Confirm file checksums are unchanged after all calls.\n8. Complete the client's tool discovery and tool-call flow separately from unit tests.\nExact passage manually checked: Olu Adeyemi, 2 December 2026\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n\nA running process is not evidence that the permission boundary works.\n",
		failed: []string{"5", "16"}},
	{why: "the specification's tests copied with a ✅ on each: test 5's line is refuted", state: Contradicted,
		record: "Server source created: server.py\nBoundary tests run:\n- ✅ Place a symlink in practice-data pointing outside it: rejected, no leaked bytes.\n- ✅ Confirm file checksums are unchanged after all calls.\n- ✅ Complete the client's tool discovery and tool-call flow separately from unit tests.\nExact passage manually checked: Olu Adeyemi, 2 December 2026\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed: []string{"18"}, refuted: []string{"3: 18"}},
	{why: "numbered headings as labels, 'All passing' under the boundary heading while check 4 failed", state: Contradicted,
		record: "## 1. Server source created\nserver.py\n## 2. Boundary tests run\nAll passing.\n## 3. Exact passage manually checked\n✔ 03/12 by Ravi\n## 4. Client and transport\nstdio\n## 5. Integration demonstrated\nNo\n## 6. Unverified behavior\nHTTP\n",
		failed: []string{"4"}, refuted: []string{"4: 4"}},
	{why: "front-matter keys with underscores, 8/8 claimed while check 4 failed", state: Contradicted,
		record: "---\nserver_source_created: server.py\nboundary_tests_run: 8/8\nexact_passage_manually_checked: Ravi 2026-12-01\nclient_and_transport: stdio\nintegration_demonstrated: pending\nunverified_behavior: http\n---\n",
		failed: []string{"4"}, refuted: []string{"3: 4"}},
	{why: "status marks before the labels; the fields are found and the ✅ on 'all 8' is a claim", state: Contradicted,
		record: "✅ Boundary tests run: all 8\n✅ Server source created: s.py\n✅ Exact passage manually checked: ravi, 1 Dec\n✅ Client and transport: stdio\n⏳ Integration demonstrated: pending\n❓ Unverified behavior: HTTP\n",
		failed: []string{"4"}, refuted: []string{"1: 4"}},
	{why: "'all pass on Linux' beside a results table that admits test 4 failed", state: Consistent,
		record: "Source: s.py\nBoundary tests —\n  all pass on Linux; not tested on Windows\nManual check: ravi, 1 Dec\nClient: stdio\nIntegration: nein\nUnverified: HTTP\n\n## Acceptance tests\n| Test | Result | Notes |\n|------|--------|-------|\n| 1. sign-in | PASS | |\n| 4. traversal | FAIL | fixed later? |\n| 5. symlink | PASS | |\n",
		failed: []string{"4"}},
	{why: "the same table while the symlink check 17 failed: its PASS row is refuted", state: Contradicted,
		record: "Source: s.py\nBoundary tests —\n  all pass on Linux; not tested on Windows\nManual check: ravi, 1 Dec\nClient: stdio\nIntegration: nein\nUnverified: HTTP\n\n## Acceptance tests\n| Test | Result | Notes |\n|------|--------|-------|\n| 1. sign-in | PASS | |\n| 4. traversal | FAIL | fixed later? |\n| 5. symlink | PASS | |\n",
		failed: []string{"4", "17"}, refuted: []string{"3: 17", "14: 17"}},
	{why: "a passage check dated with day and month only, written 12/28: after the run, a person reads it", state: Review, read: []int{5},
		record: six("plain", "s.py", "ran", "ravi 12/28", "stdio", "pending", "HTTP")},
	{why: "a pasted PASS line refuted, and its count refuted by a second failure no line shows", state: Contradicted,
		record: six("plain", "server.py", "see below", "Kofi Mensah 2026-12-03", "stdio", "pending", "HTTP") +
			"\n```\nPASS 5 symlink rejected\nPASS 17 sibling link rejected\n29 passed, 0 failed\n```\n",
		failed:  []string{"5", "12"},
		refuted: []string{"11: 5", "13: 5 12"}},
	{why: "'checked by me' in a record signed at its end", state: Consistent,
		record: "Source: app.py\nBoundary tests: passed\nManual check: checked by me on 2026-12-01\nClient: stdio (MCP Inspector)\nIntegration: pending\nUnverified: HTTP\n\n— Maya Chen\n"},
	{why: "'yo mismo' in a Spanish record written by its author", state: Consistent,
		record: "Escrito por Lucía Gómez\n\nFuente del servidor: s.py\nPruebas de límites: pasaron\nVerificación manual: yo mismo, 2 de diciembre\nCliente: stdio\nIntegración: pendiente\nNo verificado: HTTP\n"},
	{why: "'sign-in: not found' admits nothing and claims nothing; the absent phrase's ✅ is a claim that holds", state: Consistent,
		record: six("list", "server.go", "sign-in: not found (still debugging); absent phrase: not found ✅", "Ada Obi 2026-12-01", "stdio", "pending", "HTTP"),
		failed: []string{"1"}},
	{why: "French headings and prose: all green except the symbolic-link test, which is what failed", state: Consistent,
		record: "# Rapport de fin\n\n## Source du serveur\nLe code est dans `serveur/main.py`.\n\n## Tests de limites\nJ'ai lancé scripts/acceptance.sh : tout est vert sauf le test des liens symboliques, qui échoue encore.\n\n## Vérification manuelle\nFaite par moi-même le 3 décembre.\n\nAuteur : Camille Dupont\n\n## Client et transport\nClaude Desktop, stdio.\n\n## Intégration démontrée\nNon, en attente.\n\n## Comportement non vérifié\nHTTP.\n",
		failed: []string{"5", "17"}},
	{why: "a German results table: the traversal row says bestanden while check 13 (test 4) failed", state: Contradicted,
		record: "# Abschlussbericht\n\n| Test | Ergebnis |\n|---|---|\n| Test 1 (sign-in) | bestanden |\n| Test 4 (Pfad-Traversal) | bestanden |\n| Test 5 (Symlink) | fehlgeschlagen |\n\nServerquelle: main.go\nGrenztests: siehe Tabelle\nManuelle Prüfung: Jonas, 2.12.\nClient und Transport: stdio\nIntegration: ausstehend\nNicht geprüft: HTTP\n",
		failed: []string{"5", "13"}, refuted: []string{"6: 13"}},
	{why: "a Portuguese task list: the open box is the oversized-file test, which failed", state: Consistent,
		record: "Fonte do servidor: main.py\nTestes de limite:\n- [x] caminho absoluto rejeitado\n- [x] link simbólico rejeitado\n- [ ] arquivo muito grande\nVerificação manual: Ana, 1/12\nCliente e transporte: stdio\nIntegração demonstrada: não\nNão verificado: tudo sobre HTTP\n",
		failed: []string{"6"}},
	{why: "the template filled in inside a code block: its fields are found and its 8/8 refuted", state: Contradicted,
		record: "```\nServer source created: main.go\nBoundary tests run: 8/8\nExact passage manually checked: lee 2026-12-02\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n```\n",
		failed: []string{"5"}, refuted: []string{"3: 5"}},
	{why: "a rubric with a ticked 'Boundary tests pass' while check 18 failed; an empty rubric label does not hide the real field", state: Contradicted, read: []int{2},
		record: "## Rubric\n- [x] Server runs (2 pts)\n- [x] Boundary tests pass (4 pts)\n- [ ] Integration (2 pts)\n\nServer source created: main.go\nBoundary tests run: see rubric\nExact passage manually checked: lee 2026-12-02\nClient and transport: stdio\nIntegration demonstrated: pending\nUnverified behavior: HTTP\n",
		failed: []string{"18"}, refuted: []string{"3: 18"}},
	{why: "the record is missing entirely", state: Missing, record: "\n   \n"},
}

func TestLearnerRecords(t *testing.T) {
	if len(learnerRecords) < 60 {
		t.Errorf("%d records; the table is meant to hold at least 60", len(learnerRecords))
	}
	for _, lr := range learnerRecords {
		t.Run(lr.why, func(t *testing.T) { checkLearnerRecord(t, lr) })
	}
}

// checkLearnerRecord grades one record of a table and compares its
// state, its contradicted lines and the lines left to a person.
func checkLearnerRecord(t *testing.T, lr learnerRecord) {
	t.Helper()
	run := classRun(lr.failed...)
	for id, ev := range lr.evidence {
		run.Find(id).Evidence = "FAIL: " + ev
	}
	v := Judge(lr.record, run)
	if v.State != lr.state {
		t.Errorf("state %s, want %s (%s)\nproblems %+v\ncontradictions %s\nunread %+v", v.State, lr.state, lr.why, v.Problems, refutedLines(v), v.Unread)
	}
	if lr.refuted != nil {
		if diff := cmp.Diff(lr.refuted, refutedLines(v)); diff != "" {
			t.Errorf("contradicted lines (-want +got):\n%s", diff)
		}
	}
	var read []int
	for _, q := range v.Unread {
		read = append(read, q.Line)
	}
	if diff := cmp.Diff(lr.read, read); diff != "" {
		t.Errorf("lines to read (-want +got):\n%s\n%+v", diff, v.Unread)
	}
}

func refutedLines(v *Verdict) []string {
	var out []string
	for _, c := range v.Contradictions {
		var ids []string
		for _, ch := range c.Checks {
			ids = append(ids, ch.ID)
		}
		out = append(out, strings.TrimSpace(strings.Join(append([]string{strconv.Itoa(c.Line) + ":"}, ids...), " ")))
	}
	return out
}

// The reader's known blind spots, stated in docs/grading.md: each record
// here gets the state shown, which is not the one a careful instructor
// gives. When one of these changes, the documentation changes with it.
func TestBlindSpots(t *testing.T) {
	base := "Source: s.py\nBoundary tests: %s\nManual check: %s\nClient: %s\nIntegration: pending\nUnverified: HTTP\n"
	tests := []struct {
		why                          string
		boundary, passage, transport string
		failed                       []string
		state                        State
		unread                       int
	}{
		{"an adverb outside the common words is taken for a name (an instructor: incomplete)",
			"ran", "checked carefully, 2026-12-01", "stdio", nil, Consistent, 0},
		{"a negation far from its verb is missed (an instructor: consistent)",
			"not a single one of them passed", "Ana Lima 2026-12-01", "stdio", []string{"4"}, Contradicted, 0},
		{"a transport other than stdio is not refuted by a stdio run (an instructor: look at it)",
			"ran", "Ana Lima 2026-12-01", "Claude Desktop over streamable HTTP, works", []string{"1", "2", "8"}, Consistent, 0},
		{"the learner's own tests are taken at their word (an instructor: suspicious)",
			"pytest: symlink escape rejected ✅", "Ana Lima 2026-12-01", "stdio", []string{"5"}, Consistent, 0},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			v := Judge(fmt.Sprintf(base, tt.boundary, tt.passage, tt.transport), classRun(tt.failed...))
			if v.State != tt.state || v.UnreadLines != tt.unread {
				t.Errorf("state %s with %d unread, the blind spot documented is %s with %d: update docs/grading.md", v.State, v.UnreadLines, tt.state, tt.unread)
			}
		})
	}
}

// Each contradicted line is reported once with one evidence line: that of
// the first refuting check not quoted above it; the other refuting checks
// are named for "see check N".
func TestEvidenceQuotedOnce(t *testing.T) {
	record := six("plain", "server.py", "all 8 acceptance tests pass", "Kofi Mensah 2026-12-03", "stdio", "pending", "HTTP") +
		"\nThe symlink test passes and nothing outside the folder is ever returned.\nNo invented passage, ever.\n"
	v := Judge(record, classRun("17", "2"))
	type row struct {
		Line     int
		Check    string
		Evidence string
		See      []string
	}
	var got []row
	for _, c := range v.Contradictions {
		got = append(got, row{c.Line, c.Check, c.Evidence, c.See})
	}
	want := []row{
		{4, "2", "FAIL: defect seen by check 2", []string{"17"}},
		{10, "17", "FAIL: defect seen by check 17", nil},
		{11, "", "", []string{"2"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contradictions (-want +got):\n%s", diff)
	}
}
