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
		"permitted", "allowed", "unchanged", "returns", "returned", "finds", "found", "rejects", "refuses", "blocks", "denies", "handles", "bounded", "held", "holds", "clean", "all good", "allpass",
		"pasa", "pasan", "paso", "pasaron", "superad*", "aprobad*", "funciona*", "correcto", "correctamente", "exito*", "verde", "rechazad*", "bloquead*", "sin cambios",
		"reussi*", "passe", "passent", "passes", "fonctionne*", "marche", "vert", "verts", "rejete*", "refuse*", "bloque*", "inchange*",
		"bestanden", "erfolgreich", "funktioniert", "grun", "gruen", "korrekt", "abgelehnt", "blockiert", "verweigert", "klappt", "unverandert",
		"passou", "passaram", "passam", "aprovad*", "correto", "corretamente", "sucesso", "rejeitad*", "inalterad*",
		"superat*", "passat*", "passa", "passano", "corrett*", "riuscit*", "rifiutat*", "bloccat*", "invariat*",
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
	)
	// negPassRe: a pass verb negated, which admits a failure.
	negPassRe = regexp.MustCompile(`\b(?:not|never|no|didn't|did not|doesn't|does not|nicht|nao|non|pas)\s+(?:all\s+|yet\s+|fully\s+)?(?:pass|passed|passing|bestanden|passou|passato|passati|superat\w*|reussi)\b`)
	// exceptRe introduces the tests a claim leaves out.
	exceptRe = wordsRe(
		"except", "except for", "excepting", "apart from", "other than", "besides", "but", "all but", "save",
		"excepto", "salvo", "menos", "pero", "sauf", "a part", "mais", "ausser", "bis auf", "aber", "exceto", "mas", "tranne", "eccetto", "ma",
	)
	// noFailRe: "0 failed" and its kin say the same as "all passed".
	noFailRe = regexp.MustCompile(`\b(?:0|zero|no|none|nothing|ningun[oa]?|aucun[e]?|kein[e]?|nenhum[a]?|nessun[oa]?)\s+(?:checks?\s+|tests?\s+|pruebas?\s+|testes?\s+)?(?:failed|failures?|fails|failing|fallos?|fallaron|echecs?|echoue|fehler|fehlgeschlagen|falhas?|falharam|fallit[io])\b|\bnone\s+failed\b|\bnothing\s+failed\b`)
	// countRe: a count of skipped checks or warnings says nothing against a claim.
	countRe = regexp.MustCompile(`(?:^|[,;(]\s*|\s)\d+\s+(?:skipped|warnings?)\b`)
	// ratioRe: "8/8", "7 of 8", "27 de 29".
	ratioRe = regexp.MustCompile(`\b(\d+)\s*(?:/|of|out of|de|sur|von|su|em)\s*(\d+)\b`)
	// passedCountRe: the harness's own "N passed, M failed", in prose or pasted.
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
	acceptanceScopeRe = regexp.MustCompile(`\bacceptance\b|\baceptacion\b|\bacceptation\b|\babnahme\w*|\bakzeptanz\w*|\baceitacao\b|\baccettazione\b|\b8\s*/\s*8\b|\b8 (?:of|out of|de|sur|von|su|em) 8\b|\ball 8\b|\beight\b|\bocho\b|\bhuit\b|\bacht\b|\boito\b|\bthe 8 tests\b|\bspec(?:ification)?(?:'s)? tests\b`)
	boundaryScopeRe   = regexp.MustCompile(`\bboundary\b|\bboundaries\b|\bsecurity\b|\blimites\b|\bfrontera\b|\bgrenz\w*|\bfronteira\b|\bconfine\b|\bsicurezza\b|\bseguridad\b|\bsecurite\b|\bsicherheit\w*|\bseguranca\b|\bsandbox\b|\baccess\b`)
	allScopeRe        = regexp.MustCompile(`\ball\b|\bevery\w*|\ballpass\b|\btodos?\b|\btodas\b|\btout\b|\btous\b|\btoutes\b|\balle[s]?\b|\btudo\b|\btutt[ioe]\b`)
)

// subjectWords maps words of the specification's tests to the test they
// name, so that "the symlink test" or "prueba de enlace simbólico" is
// read as test 5.
var subjectWords = [9]*regexp.Regexp{
	1: regexp.MustCompile(`\bsign[- ]?in\b|\bn2\b|\bexact passage\b|\bpasaje exacto\b|\bpassage exact\b|\bexakte (?:passage|textstelle)\b|\bpassagem exata\b|\bpassaggio esatto\b`),
	2: regexp.MustCompile(`\babsent\b|\bno[- ]match\w*|\bmissing phrase\b|\bnon-?existent\b|\bnonexistent\b|\binvented\b|\bsin coincidencias\b|\bfrase ausente\b|\baucun resultat\b|\bphrase absente\b|\bkeine treffer\b|\bnicht vorhanden\w*|\bsem resultados\b|\bnessun risultato\b|\bfrase assente\b`),
	3: regexp.MustCompile(`\bvalid file\b|\bread a (?:valid )?file\b|\binside (?:practice-data|the root|the folder)\b|\bfile inside\b|\barchivo valido\b|\bfichier valide\b|\bgultige datei\b|\barquivo valido\b|\bfile valido\b`),
	4: regexp.MustCompile(`\btraversal\b|\.\./|\.\.\\|\boutside\.md\b|\babsolute[- ]paths?\b|\bparent (?:dir|directory|path)\w*|\bdot-?dot\b|\bruta absoluta\b|\bchemin absolu\b|\babsolute[rn]? pfad\w*|\bcaminho absoluto\b|\bpercorso assoluto\b|\btraversee\b|\brecorrido de rutas\b|\bcaller[- ]selected root\b|\broot argument\b`),
	5: regexp.MustCompile(`\bsym-?links?\b|\bsymbolic links?\b|\benlaces? simbolicos?\b|\bliens? symboliques?\b|\bsymbolische[rn]? links?\b|\blinks? simbolicos?\b|\bcollegament[oi] simbolic[oi]\b`),
	6: regexp.MustCompile(`\boversized?\b|\btoo (?:large|big|long)\b|\blarge (?:file|query)\b|\bbig file\b|\b100 ?kb\b|\b200[- ]char\w*|\blong query\b|\bsize limits?\b|\bdemasiado grande\b|\btrop (?:gros|grand|long)\w*|\bzu gross\w*|\bmuito grande\b|\btroppo grande\b|\bbounded errors?\b`),
	7: regexp.MustCompile(`\bchecksums?\b|\bsha-?256\b|\bhash(?:es)?\b|\bmtimes?\b|\bsuma de verificacion\b|\bsommes? de controle\b|\bprufsumme\w*|\bsoma de verificacao\b`),
	8: regexp.MustCompile(`\bdiscovery\b|\btools/list\b|\btools/call\b|\btool[- ]calls?\b|\blist tools\b|\bdescubrimiento\b|\bdecouverte\b|\berkennung\b|\bdescoberta\b|\bscoperta\b`),
}

// checkSubjects maps words of the rules the harness checks beyond the
// eight tests to the checks that own them, so that "except hard links"
// names check 19.
var checkSubjects = []struct {
	re     *regexp.Regexp
	checks []string
}{
	{regexp.MustCompile(`\bcase[- ]insensitiv\w*|\bcapitali[sz]ation\b|\bupper[- ]?case\b|\bmayusculas\b|\bmajuscules\b|\bgross-?\s?und kleinschreibung\b|\bmaiusculas\b|\bmaiuscole\b`), []string{"9", "10"}},
	{regexp.MustCompile(`\bnon-?ascii\b|\bunicode\b|\baccent\w*|\bdiacritic\w*|\butf-?8\b`), []string{"10"}},
	{regexp.MustCompile(`\bregex\w*|\bregular expressions?\b|\bliteral\b|\bglob\w*|\bwildcards?\b`), []string{"11"}},
	{regexp.MustCompile(`\bempty quer\w*|\bblank quer\w*|\bwhitespace[- ]only\b|\bmissing quer\w*|\bnon-?string\b`), []string{"12"}},
	{regexp.MustCompile(`\bdeterministic\w*|\bsame answer\b|\bidempoten\w*`), []string{"15"}},
	{regexp.MustCompile(`\bhome\b|\btmpdir\b|\btemp (?:dir|folder)\w*|\bcaches?\b`), []string{"16"}},
	{regexp.MustCompile(`\bsibling\b|\bprefix\b|\broot-old\b|\bstartswith\b`), []string{"17"}},
	{regexp.MustCompile(`\bhard ?links?\b|\bhardlinks?\b|\bnlink\b`), []string{"19"}},
	{regexp.MustCompile(`\bfifos?\b|\bnamed pipes?\b|\bdangling\b|\bbinary files?\b|\bdirectory named\b`), []string{"20"}},
	{regexp.MustCompile(`\bprompt[- ]injection\b|\bgives? orders\b|\binclude directives?\b`), []string{"21"}},
	{regexp.MustCompile(`\bunreadable\b|\bpermission denied\b|\bchmod 000\b|\bmode 000\b`), []string{"22"}},
	{regexp.MustCompile(`\bping\b|\bjson-rpc errors?\b|\b-32601\b|\b-32700\b|\bprotocol basics\b`), []string{"8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7"}},
}

// A behaviour the specification forbids, stated as absent, speaks for the
// checks that own its rule.
type forbidden struct {
	re     *regexp.Regexp
	checks []string
	claim  string
	// firstPerson: the words also say what the learner did ("I didn't
	// write a test"), so a clause in the first person is not read by it.
	firstPerson bool
	// positive states the rule kept without a negation ("read-only").
	positive *regexp.Regexp
}

var firstPersonRe = regexp.MustCompile(`\b(?:i|we|my|our|yo|nosotros|je|j'ai|nous|ich|wir|eu|nos|io|noi)\b`)

var forbiddenRules = []forbidden{
	{re: regexp.MustCompile(`\babsolute paths? in (?:errors?|replies|messages?|output)\b|\bno (?:file ?system )?paths? (?:in|leak\w*)\b|\bunreadable\b`), checks: []string{"22"}, claim: "unreadable files and errors reveal no paths"},
	{re: regexp.MustCompile(`\bwrit\w*|\bmodif\w*|\bdelet\w*|\bcreat\w* (?:files?|anything)\b|\bread[- ]only\b|\bsolo lectura\b|\blecture seule\b|\bschreibgeschutzt\b|\bnur lesend\b|\bsomente leitura\b|\bsola lettura\b|\bescrib\w*|\becri\w*|\bschreib\w*|\bgrava\w*|\bscriv\w*|\bborra\w*|\bsupprim\w*|\bloesch\w*|\blosch\w*|\bapag\w*|\bcancell\w*`), checks: []string{"7", "16"}, claim: "the server writes nothing", firstPerson: true,
		positive: regexp.MustCompile(`\bread[- ]only\b|\bsolo lectura\b|\blecture seule\b|\bschreibgeschutzt\b|\bnur lesend\b|\bsomente leitura\b|\bsola lettura\b`)},
	{re: regexp.MustCompile(`\binvent\w*|\bmade[- ]up\b|\bmakes? (?:anything|something|things) up\b|\bfabricat\w*|\bhallucinat\w*|\bsummar\w*|\bparaphras\w*|\binventad\w*|\binvente\w*|\berfunde\w*|\berfinde\w*|\binventat\w*|\bresum\w*|\bzusammenfass\w*|\briassun\w*`), checks: []string{"1", "2"}, claim: "no passage is invented or summarised"},
	{re: regexp.MustCompile(`\boutside\b|\bbeyond\b|\bescape\w*|\bleak\w*|\bfuera\b|\bhors\b|\ben dehors\b|\bausserhalb\b|\bfora\b|\bfuori\b|\bfollow\w* (?:sym)?links?\b|\bsigue\w* enlaces\b|\bsuit (?:les )?liens\b`), checks: []string{"4", "5", "13", "17", "18", "21"}, claim: "nothing outside the practice folder is read or returned"},
	{re: regexp.MustCompile(`\bexecut\w*|\bruns? (?:the )?(?:file )?contents\b|\binstructions?\b|\bobeys?\b|\bejecut\w*|\bausfuhr\w*|\bausgefuhrt\b|\bexecuta\w*|\besegu\w*|\bprompt injection\b`), checks: []string{"21"}, claim: "file contents are treated as data",
		positive: regexp.MustCompile(`\b(?:treat\w*|handl\w*|read) (?:as|like) (?:plain )?data\b|\bas data\b|\bcomo datos\b|\bcomme des donnees\b|\bals daten\b|\bcomo dados\b|\bcome dati\b`)},
	{re: regexp.MustCompile(`\b(?:other|extra|second|more|additional) tools?\b|\bonly one tool\b|\bsingle tool\b|\bone tool\b`), checks: []string{"14"}, claim: "the server offers one read-only tool",
		positive: regexp.MustCompile(`\bonly one tool\b|\bsingle tool\b|\bjust one tool\b|\bone tool only\b`)},
	{re: regexp.MustCompile(`\broot (?:argument|parameter|option)\b|\bcaller[- ]selected root\b|\bchoose the root\b|\bcaller can(?:not|'t) (?:choose|pick|select)\b`), checks: []string{"13"}, claim: "no caller-selected root"},
}

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
