package record

import (
	"regexp"
	"strconv"
	"strings"
)

// The word tables a claim is read with, in English, Spanish, French,
// German, Portuguese and Italian. Every entry is folded (see fold): lower
// case, no accents. A trailing * stands for any word ending.

// wordsRe compiles a table into one case-insensitive alternation bounded
// by word edges.
func wordsRe(ws ...string) *regexp.Regexp {
	alts := make([]string, len(ws))
	for i, w := range ws {
		q := regexp.QuoteMeta(strings.TrimSuffix(w, "*"))
		q = strings.ReplaceAll(q, `\ `, `\s+`)
		q = strings.ReplaceAll(q, " ", `\s+`)
		if strings.HasSuffix(w, "*") {
			q += `[\p{L}]*`
		}
		alts[i] = q
	}
	return regexp.MustCompile(`(?:^|[^\p{L}\p{N}_])(?:` + strings.Join(alts, "|") + `)(?:$|[^\p{L}\p{N}_])`)
}

var (
	// passRe: words that say a test or behaviour came out as required.
	passRe = wordsRe(
		"pass", "passes", "passed", "passing", "green", "ok", "okay", "works", "working", "worked", "succeed*", "success*",
		"fine", "good", "correct", "correctly", "as expected", "confirmed", "handled", "rejected", "refused", "blocked", "denied",
		"permitted", "allowed", "unchanged", "returns", "returned", "finds", "found", "rejects", "refuses", "blocks", "denies", "handles", "bounded", "held", "holds", "clean", "all good", "allpass", "came through", "got through", "answers", "answered", "responds", "replies with", "behave", "behaves", "behaved",
		"pasa", "pasan", "paso", "pasaron", "superad*", "aprobad*", "funciona*", "correcto", "correctamente", "exito*", "verde", "rechazad*", "bloquead*", "sin cambios",
		"reussi*", "passe", "passent", "passes", "fonctionne*", "marche", "vert", "verts", "rejete*", "refuse*", "bloque*", "inchange*",
		"bestanden", "erfolgreich", "funktioniert", "grun", "gruen", "korrekt", "abgelehnt", "blockiert", "verweigert", "klappt", "unverandert",
		"passou", "passaram", "passam", "aprovad*", "correto", "corretamente", "sucesso", "rejeitad*", "inalterad*",
		"superat*", "passat*", "passa", "passano", "corrett*", "riuscit*", "rifiutat*", "bloccat*", "invariat*",
		"geslaagd", "slaagt", "slagen", "werkt", "groen", "geweigerd", "geblokkeerd", "afgewezen", "ongewijzigd", "goed",
		"zaliczon*", "przeszl*", "przechodz*", "dziala", "zielon*", "odrzucon*", "zablokowan*", "niezmienion*", "poprawnie",
	)
	// passSymRe: marks that say the same.
	passSymRe = regexp.MustCompile(`✅|✓|✔|☑|🟢|\[x\]`)
	// failRe: words that admit a failure.
	failRe = wordsRe(
		"fail", "fails", "failed", "failing", "failure*", "broken", "wrong", "crash*", "hangs", "hung", "leaks", "leaked bytes",
		"doesn't work", "does not work", "not working", "didn't pass", "did not pass", "not passed", "not passing", "red",
		"falla", "fallan", "fallo", "fallaron", "fallad*", "fallid*", "no pasa", "no paso", "no pasaron", "roto", "rota",
		"echoue*", "echec*", "ne passe pas", "ne passent pas", "casse",
		"fehlgeschlagen", "gescheitert", "nicht bestanden", "schlagt fehl", "rot", "kaputt",
		"falhou", "falharam", "falha", "falham", "nao passou", "nao passa", "quebrad*",
		"fallit*", "fallisce", "falliscono", "non passa", "non passano", "non superat*", "rott*",
		"mislukt", "faalt", "gefaald", "niet geslaagd", "kapot",
		"nie przeszedl", "nie przeszl*", "nie przechodzi", "niezaliczon*", "bled", "blad", "oblal", "nie dziala",
	)
	failSymRe = regexp.MustCompile(`❌|✗|✘|🔴|⛔|\bx\b\s*$`)
	// planRe: words that put something in the future or leave it open.
	planRe = wordsRe(
		"plan", "plans", "planned", "planning", "will", "going to", "pending", "to do", "to-do", "tbd", "later", "next", "not yet",
		"intend*", "would", "should", "want to", "not tried", "not done", "not run", "not tested",
		"pendiente", "planead*", "previst*", "por hacer", "todavia no", "aun no", "sin probar",
		"en attente", "prevu*", "a faire", "pas encore", "pas teste*",
		"ausstehend", "geplant", "noch nicht", "spater", "offen", "nicht getestet",
		"pendente", "planejad*", "ainda nao", "a fazer", "nao testad*",
		"in sospeso", "da fare", "non ancora", "in attesa", "non testat*",
		"gepland", "nog niet", "later", "in afwachting", "niet getest",
		"planowan*", "jeszcze nie", "oczekuj*", "nie testowan*", "w toku",
	)
	// ownRe: the learner's own tests, which this run cannot refute.
	ownRe = regexp.MustCompile(`\bunit[- ]?tests?\b|\bunittest\b|\bpytest\b|\bgo test\b|\bnpm (?:run )?test\b|\byarn test\b|\bpnpm test\b|\bjest\b|\bvitest\b|\bmocha\b|\bcargo test\b|\bdeno test\b|\bnode --test\b|` +
		`\bmy (?:own )?(?:tests?|test script|test suite|script|checks)\b|\bown tests?\b|\btest suite\b|\btest script\b|\btest_[\w-]+\.py\b|\b[\w-]+_test\.(?:go|py)\b|\b[\w-]+\.(?:test|spec)\.[jt]sx?\b|\btests?/[\w./-]+|` +
		`\bpruebas unitarias\b|\bmis pruebas\b|\btests unitaires\b|\bmes tests\b|\bmon script\b|\bunit-?tests\b|\bmeine tests\b|\bmein testskript\b|\btestes unitarios\b|\bmeus testes\b|\btest unitari\b|\bi miei test\b`)
	// harnessRe: the acceptance harness, whose results this run are.
	harnessRe = regexp.MustCompile(`\bthegrader\b|acceptance\.sh|\bharness\b|\bgrader\b|\bscripts/acceptance\b|\bacceptance (?:run|script|checks?)\b`)
	// absenceRe: words that state something is absent.
	absenceRe = wordsRe(
		"never", "no", "not", "nothing", "none", "without", "doesn't", "does not", "don't", "do not", "cannot", "can't", "won't", "zero", "only",
		"nunca", "jamas", "ningun*", "nada", "sin",
		"jamais", "aucun*", "rien", "sans", "ne",
		"nie", "niemals", "kein*", "nichts", "ohne",
		"nenhum*", "sem", "nao",
		"mai", "nessun*", "niente", "nulla", "senza", "non",
		"nooit", "geen", "niets", "zonder", "niet",
		"nigdy", "zaden", "zadn*", "nic", "bez", "nie",
	)
	// negPassRe: a pass verb negated, which admits a failure.
	negPassRe = regexp.MustCompile(`\b(?:not|never|no|didn't|did not|doesn't|does not|nicht|nao|non|pas)\s+(?:all\s+|yet\s+|fully\s+)?(?:pass|passed|passing|bestanden|passou|passato|passati|superat\w*|reussi)\b`)
	// exceptRe introduces the tests a claim leaves out.
	exceptRe = wordsRe(
		"except", "except for", "excepting", "apart from", "other than", "besides", "but", "all but", "save",
		"excepto", "salvo", "menos", "pero", "sauf", "a part", "mais", "ausser", "bis auf", "aber", "exceto", "mas", "tranne", "eccetto", "ma",
		"behalve", "maar", "oprocz", "z wyjatkiem", "ale",
	)
	// noFailRe: "0 failed" and its kin say the same as "all passed".
	noFailRe = regexp.MustCompile(`\b(?:0|zero|no|none|nothing|ningun[oa]?|aucun[e]?|kein[e]?|nenhum[a]?|nessun[oa]?)\s+(?:checks?\s+|tests?\s+|pruebas?\s+|testes?\s+)?(?:failed|failures?|fails|failing|fallos?|fallaron|echecs?|echoue|fehler|fehlgeschlagen|falhas?|falharam|fallit[io])\b|\bnone\s+failed\b|\bnothing\s+failed\b`)
	// countRe: a count of skipped checks or warnings says nothing against a claim.
	countRe = regexp.MustCompile(`(?:^|[,;(]\s*|\s)\d+\s+(?:skipped|warnings?)\b`)
	// ratioRe: "8/8", "7 of 8", "27 de 29".
	ratioRe = regexp.MustCompile(`\b(\d+)\s*(?:/|of|out of|de|sur|von|su|em)\s*(\d+)\b`)
	// passedCountRe: the harness's own "N passed, M failed", in prose or pasted.
	// keyCountRe: a count written as a key and its number, as in JSON
	// or YAML ("passed": 29).
	keyCountRe = regexp.MustCompile(`"?\b(passed|failed|warnings|skipped)"?\s*[:=]\s*(\d+)`)
	// passedAloneRe: "29 passed", "29 checks pass", without a failed count.
	passedAloneRe = regexp.MustCompile(`\b(\d+)\s+(?:checks?\s+|tests?\s+)?(?:passed|pass|passing|passaram|pasaron|bestanden|reussis|superati|passati|geslaagd|zaliczon\w*)\b`)
	passedCountRe = regexp.MustCompile(`\b(\d+)\s+passed,\s+(\d+)\s+failed\b`)
	// stdioRe: the stdio transport.
	stdioRe = regexp.MustCompile(`\bstdio\b|\bstd\s?i/?o\b|\bstandard (?:input|i/o|in)\b|\bstdin\b`)
	// worksRe: words that say a connection was made, for the stdio rule.
	worksRe = wordsRe("works", "working", "worked", "connected", "connects", "tested", "verified", "ran", "running", "demonstrated",
		"used", "funciona*", "conectad*", "fonctionne*", "connecte*", "funktioniert", "verbunden", "conectado", "funziona*", "collegat*")

	scriptRe = regexp.MustCompile(`[\w./-]*\.(?:sh|py|js|ts|go|mjs)\b`)
	// clauseRe splits a line into clauses.
	clauseRe = regexp.MustCompile(`[;]\s*|[.!?]\s+|\s+[-–—]\s+|\s*\|\s*`)
)

// scope words: what a claim speaks for when it names no test.
var (
	acceptanceScopeRe = regexp.MustCompile(`\bacceptance\b|\baceptacion\b|\bacceptation\b|\babnahme\w*|\bakzeptanz\w*|\baceitacao\b|\baccettazione\b|\bacceptatie\w*|\bakceptacyjn\w*|\b8\s*/\s*8\b|\b8 (?:of|out of|de|sur|von|su|em) 8\b|\ball 8\b|\beight\b|\bocho\b|\bhuit\b|\bacht\b|\boito\b|\bthe 8 tests\b|\bspec(?:ification)?(?:'s)? tests\b`)
	boundaryScopeRe   = regexp.MustCompile(`\bboundary\b|\bboundaries\b|\bsecurity\b|\blimites\b|\bfrontera\b|\bgrenz\w*|\bfronteira\b|\bconfine\b|\bsicurezza\b|\bseguridad\b|\bsecurite\b|\bsicherheit\w*|\bgrens\w*|\bgranic\w*|\bseguranca\b|\bsandbox\b|\baccess\b`)
	allScopeRe        = regexp.MustCompile(`\balle\b|\bwszystk\w*|\bwszystko\b|\ball\b|\bevery\w*|\ballpass\b|\btodos?\b|\btodas\b|\btout\b|\btous\b|\btoutes\b|\balle[s]?\b|\btudo\b|\btutt[ioe]\b`)
)

var firstPersonRe = regexp.MustCompile(`\b(?:i|we|my|our|yo|nosotros|je|j'ai|nous|ich|wir|eu|nos|io|noi|ik|wij|ja|my)\b`)

// ownWorkRe: what the learner did ("I didn't write a test"), which says
// nothing of what the server does.
var ownWorkRe = regexp.MustCompile(`\b(?:write|wrote|written|writing)\b.*\b(?:tests?|code|docs?|record)\b`)

// unobservedRe: forbidden behaviours no check of this run observes
// (network use, money): a claim of their absence is left to the reader.
var unobservedRe = regexp.MustCompile(`\bnetwork\b|\binternet\b|\bexternal (?:services?|calls?|apis?)\b|\bhttp requests?\b|\bmoney\b|\bspend\w*|\bred\b externa|\breseau\b|\bnetzwerk\b|\brede\b|\brete\b`)

// programRe: names of programs, which cannot be the person who checked a
// passage.
var programRe = regexp.MustCompile(`\b(?:chat ?gpt|gpt-?[\w.]*|openai|claude|anthropic|copilot|gemini|bard|llama|mistral|deepseek|perplexity|cursor|codex|assistant|asistente|assistente|assistent|ai|a\.i\.|ia|ki|llm|bot|chatbot|harness|script|scripts|the tests|automated|automatically|automatic|automatically|inspector|the grader|grader|program|tool)\b`)

// specSentences are the specification's own sentences a learner may copy
// into a record: its eight acceptance tests, which then name a test but
// claim nothing until the learner marks them, and its completion-record
// rules, which claim nothing. Each is folded, without its final period.
var specSentences = []struct {
	text string
	test int
}{
	{`search for "sign-in": return the exact n2 passage with sample-notes.md as the source`, 1},
	{`search for an absent phrase: return no matches, with no invented passage`, 2},
	{`read a valid file inside practice-data: permitted`, 3},
	{`attempt ../outside.md and an absolute path outside the root: rejected`, 4},
	{`place a symlink in practice-data pointing outside it: rejected, no leaked bytes`, 5},
	{`try an oversized file and query: produce bounded errors`, 6},
	{`confirm file checksums are unchanged after all calls`, 7},
	{`complete the client's tool discovery and tool-call flow separately from unit tests`, 8},
	{`a running process is not evidence that the permission boundary works`, 0},
	{`a local stdio server is not a remotely reachable https connector`, 0},
	{`if your client does not support the transport, keep the tested local project and record integration as pending`, 0},
}

// unquote replaces the specification's sentences in a folded line by the
// test they name ("test 5") or by nothing.
func unquote(line string) string {
	for _, s := range specSentences {
		if !strings.Contains(line, s.text) {
			continue
		}
		repl := " "
		if s.test > 0 {
			repl = " test " + strconv.Itoa(s.test) + " "
		}
		line = strings.ReplaceAll(strings.ReplaceAll(line, s.text+".", repl), s.text, repl)
	}
	return line
}
