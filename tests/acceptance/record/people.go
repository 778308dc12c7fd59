package record

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// months maps month names and their usual short forms, in the six
// languages of the labels table, to their number.
var months = func() map[string]int {
	m := map[string]int{}
	for n, names := range [][]string{
		1:  {"january", "jan", "enero", "ene", "janvier", "janv", "januar", "janeiro", "gennaio", "januari", "styczen", "stycznia", "sty"},
		2:  {"february", "feb", "febrero", "fevrier", "fevr", "fev", "februar", "fevereiro", "febbraio", "februari", "luty", "lutego", "lut"},
		3:  {"march", "mar", "marzo", "mars", "marz", "marco", "maart", "maarta", "marzec", "marca"},
		4:  {"april", "apr", "abril", "abr", "avril", "avr", "aprile", "kwiecien", "kwietnia", "kwi"},
		5:  {"may", "mayo", "mai", "maio", "maggio", "mag", "mei", "maj", "maja"},
		6:  {"june", "jun", "junio", "juin", "juni", "junho", "giugno", "giu", "czerwiec", "czerwca", "cze"},
		7:  {"july", "jul", "julio", "juillet", "juil", "juli", "julho", "luglio", "lug", "lipiec", "lipca", "lip"},
		8:  {"august", "aug", "agosto", "ago", "aout", "augustus", "sierpien", "sierpnia", "sie"},
		9:  {"september", "sep", "sept", "septiembre", "setiembre", "septembre", "setembro", "settembre", "wrzesien", "wrzesnia", "wrz"},
		10: {"october", "oct", "octubre", "octobre", "oktober", "okt", "outubro", "ottobre", "ott", "pazdziernik", "pazdziernika", "paz"},
		11: {"november", "nov", "noviembre", "novembre", "novembro", "listopad", "listopada", "lis"},
		12: {"december", "dec", "diciembre", "dic", "decembre", "dezember", "dez", "dezembro", "dicembre", "grudzien", "grudnia", "gru"},
	} {
		for _, name := range names {
			m[name] = n
		}
	}
	return m
}()

var (
	monthAlt = func() string {
		var names []string
		for n := range months {
			names = append(names, n)
		}
		// Longest first, so that "september" wins over "sep".
		for i := 1; i < len(names); i++ {
			for j := i; j > 0 && len(names[j]) > len(names[j-1]); j-- {
				names[j], names[j-1] = names[j-1], names[j]
			}
		}
		return strings.Join(names, "|")
	}()
	isoDateRe = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:t\d|\b)`)
	numDateRe = regexp.MustCompile(`\b(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})\b`)
	dotDateRe = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.(?:\s|$|,)`)
	// slashDateRe: "3/12" or "12/3" without a year, read both ways.
	slashDateRe = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})\b`)
	dmyRe       = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th|er|º|°|\.)?\s+(?:de\s+|of\s+)?(` + monthAlt + `)\b\.?(?:,?\s+(?:de\s+)?(\d{4}))?`)
	mdyRe       = regexp.MustCompile(`\b(` + monthAlt + `)\b\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?`)
)

// datesIn finds the dates a text gives, as people write them. A date
// without a year is read in year; a day-month-year written with numbers
// may be read both ways (3/12 or 12/3), and both are returned.
func datesIn(text string, ref time.Time) (found bool, dates [][]time.Time, rest string) {
	year := 0
	if !ref.IsZero() {
		year = ref.Year()
	}
	t := fold(text)
	add := func(y, m, d int, alt ...[3]int) {
		var ds []time.Time
		for _, v := range append([][3]int{{y, m, d}}, alt...) {
			if v[1] >= 1 && v[1] <= 12 && v[2] >= 1 && v[2] <= 31 {
				ds = append(ds, time.Date(v[0], time.Month(v[1]), v[2], 0, 0, 0, 0, time.UTC))
			}
		}
		if len(ds) > 0 {
			found = true
			dates = append(dates, ds)
		}
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, m := range isoDateRe.FindAllStringSubmatch(t, -1) {
		add(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}
	t = isoDateRe.ReplaceAllString(t, " ")
	for _, m := range numDateRe.FindAllStringSubmatch(t, -1) {
		y := atoi(m[3])
		if y < 100 {
			y += 2000
		}
		add(y, atoi(m[2]), atoi(m[1]), [3]int{y, atoi(m[1]), atoi(m[2])})
	}
	t = numDateRe.ReplaceAllString(t, " ")
	for _, m := range dmyRe.FindAllStringSubmatch(t, -1) {
		y := year
		if m[3] != "" {
			y = atoi(m[3])
		}
		add(y, months[m[2]], atoi(m[1]))
	}
	t = dmyRe.ReplaceAllString(t, " ")
	for _, m := range mdyRe.FindAllStringSubmatch(t, -1) {
		y := year
		if m[3] != "" {
			y = atoi(m[3])
		}
		add(y, months[m[1]], atoi(m[2]))
	}
	t = mdyRe.ReplaceAllString(t, " ")
	for _, m := range dotDateRe.FindAllStringSubmatch(t, -1) {
		add(year, atoi(m[2]), atoi(m[1]))
	}
	t = dotDateRe.ReplaceAllString(t, " ")
	for _, m := range slashDateRe.FindAllStringSubmatch(t, -1) {
		add(year, atoi(m[2]), atoi(m[1]), [3]int{year, atoi(m[1]), atoi(m[2])})
	}
	t = slashDateRe.ReplaceAllString(t, " ")
	if rel, t2 := relativeDates(t, ref); len(rel) > 0 {
		found, t = true, t2
		for _, d := range rel {
			dates = append(dates, []time.Time{d})
		}
	}
	return found, dates, t
}

var (
	emailRe     = regexp.MustCompile(`[\w.+-]+@[\w-]+\.[\w.-]+`)
	handleRe    = regexp.MustCompile(`(?:^|\s|\()@[\w.-]{2,}`)
	selfRe      = regexp.MustCompile(`\b(?:me|myself|i|yo|mi|moi|moi-meme|ich|mir|mich|selbst|eu|mim|io|me stesso|me misma|me mismo)\b`)
	wordRe      = regexp.MustCompile(`[\p{L}][\p{L}'-]*`)
	authorRe    = regexp.MustCompile(`^(?:author|name|learner|student|participant|written by|by|autor|autora|nombre|alumn[oa]|estudiante|nom|auteur|auteure|etudiant|etudiante|verfasser|verfasserin|teilnehmer|teilnehmerin|nome|autore|autrice|studente|studentessa|aluno|aluna|signed|signature|firmado|signe|gezeichnet|unterschrift|assinado|firmato)\s*:\s*(.+)$`)
	writtenByRe = regexp.MustCompile(`^(?:written|prepared|submitted|completed|filled in|record|redactado|escrito|ecrit|redige|rempli|geschrieben|erstellt|ausgefullt|scritto|compilato|redatto|preenchido)\s+(?:by|por|par|von|da)\s+(.+)$`)
	signatureRe = regexp.MustCompile(`^(?:—|–|-{2,3}|~)\s*(\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,3})\s*$`)
	byHeadRe    = regexp.MustCompile(`(?:\s[-|]\s|\bby\s|\bpor\s|\bpar\s|\bvon\s|\bda\s)(.+)$`)
)

// notNames are the words a "manually checked" field uses that name no
// person, in the six languages of the labels table.
var notNames = wordSet(`yes no not none pending checked check compared compare manually manual verified verify confirmed done
	matches matched match identical exact exactly passage passages sample notes note on by the it we and with against in of at to a an
	this that these those same both see ok okay true today yesterday n2 file files line lines byte bytes test tests tested read looked
	looks look reviewed review self hand eye eyes diff side for from was were is are has have had been be did do returned return
	output result results character characters all every whitespace including correct correctly person nobody later todo tbd tba
	against than then after before via using used over under its their his her our your my mine as sign sign-in signin md markdown
	text server servers client reply replies response responses search query searched searching found character-by-character
	char word words copy copied paste pasted printed print side-by-side one two also well fine good great ok-ish yep yeah sure
	utc gmt cet cest pst est am pm morning afternoon evening night week day date time at around approx approximately
	claude desktop cursor code vs python go node mcp stdio inspector terminal window screen screenshot stdout json
	si sí por el la los las con contra en de del y verificado comprobado revisado manualmente a mano archivo texto pasaje exacto igual coincide hoy ayer fecha
	oui par le les avec contre en du et verifie compare manuellement a la main fichier texte passage identique aujourd'hui hier
	ja von der die das mit gegen im am und geprueft geprüft gepruft verglichen manuell von hand datei text textstelle identisch heute gestern
	sim por o os as com contra em do da e verificado conferido manualmente mao arquivo texto trecho passagem igual hoje ontem
	si da il lo gli le con contro nel del e verificato controllato manualmente mano file testo passaggio uguale oggi ieri
	ja nee door gecontroleerd vergeleken handmatig bestand tekst vandaag gisteren met op de het een en van
	tak nie przez sprawdzone sprawdzil sprawdzila porownane recznie plik tekst dzisiaj wczoraj z na i w do
	st nd rd th er completion record practice practice-notes workshop exercise optional build project notes-server`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[fold(w)] = true
	}
	return m
}

// person says who the "manually checked" field names: ok when it names a
// person; else why not (no one, or only a program).
func person(text string, authorNamed bool, ref time.Time) (ok bool, why string) {
	if emailRe.MatchString(text) || handleRe.MatchString(text) {
		return true, ""
	}
	_, _, t := datesIn(text, ref)
	t = scriptRe.ReplaceAllString(t, " ")
	programs := programRe.FindAllString(t, -1)
	t = programRe.ReplaceAllString(t, " ")
	self := selfRe.MatchString(t)
	t = selfRe.ReplaceAllString(t, " ")
	for _, w := range wordRe.FindAllString(t, -1) {
		w = strings.Trim(w, "'-")
		if len([]rune(w)) >= 2 && !notNames[w] {
			return true, ""
		}
	}
	switch {
	case self && authorNamed:
		return true, ""
	case self:
		return false, `says "me" but the record does not name its author`
	case len(programs) > 0:
		return false, "names a program (" + strings.TrimSpace(programs[0]) + "), not a person"
	}
	return false, "names no person"
}

// namesAuthor reports whether the record names its author: an "Author:"
// or "Name:" line (in any of the six languages), a signature, or a
// heading "Completion record — Name".
func namesAuthor(p parsed, ref time.Time) bool {
	for _, d := range p.lines {
		if d.field != "" {
			continue
		}
		raw := strings.TrimSpace(stripEmphasis(d.Text))
		t := fold(clean(leadRe.ReplaceAllString(d.Text, "")))
		var who []string
		if m := authorRe.FindStringSubmatch(t); m != nil {
			who = append(who, m[1])
		}
		if m := writtenByRe.FindStringSubmatch(t); m != nil {
			who = append(who, m[1])
		}
		// A signature: "— Maya Chen", "-- maya", "~ Maya"; not a list
		// item ("- HTTP").
		if m := signatureRe.FindStringSubmatch(raw); m != nil {
			who = append(who, fold(m[1]))
		}
		if m := byHeadRe.FindStringSubmatch(t); m != nil && d.kind == kindHeading {
			who = append(who, m[1])
		}
		for _, w := range who {
			if ok, _ := person(w, false, ref); ok {
				return true
			}
		}
	}
	return false
}
