package record

import "strings"

// The specification's six fields, in its order.
const (
	fieldSource      = "Server source created"
	fieldBoundary    = "Boundary tests run"
	fieldPassage     = "Exact passage manually checked"
	fieldTransport   = "Client and transport"
	fieldIntegration = "Integration demonstrated"
	fieldUnverified  = "Unverified behavior"
)

// fieldNames lists the six fields in the specification's order.
var fieldNames = []string{fieldSource, fieldBoundary, fieldPassage, fieldTransport, fieldIntegration, fieldUnverified}

// labels is the one table of the words a record may use for each field:
// the specification's label, the short forms an instructor recognises at
// once, and translations into Spanish, French, German, Portuguese and
// Italian. Entries are compared after fold (lower case, no accents, no
// emphasis, single spaces).
var labels = map[string][]string{
	fieldSource: {
		"serverbroncode gemaakt", "serverbroncode", "broncode", "broncode van de server",
		"kod zrodlowy serwera utworzony", "kod zrodlowy serwera", "kod zrodlowy", "kod serwera",
		"server source created", "server source", "source", "source code", "server code", "code",
		"codigo fuente del servidor creado", "codigo fuente del servidor", "codigo del servidor", "fuente del servidor", "codigo fuente",
		"source du serveur creee", "source du serveur", "code source du serveur", "code source", "code du serveur",
		"server-quellcode erstellt", "server-quellcode", "quellcode des servers", "quellcode", "serverquelle", "server quellcode",
		"codigo-fonte do servidor criado", "codigo-fonte do servidor", "codigo fonte do servidor", "fonte do servidor", "codigo-fonte",
		"sorgente del server creato", "sorgente del server", "codice sorgente del server", "codice sorgente", "codice del server",
	},
	fieldBoundary: {
		"grenstests uitgevoerd", "grenstests", "grenstesten",
		"testy granic wykonane", "testy granic", "testy graniczne", "testy brzegowe",
		"boundary tests run", "boundary tests", "boundary test", "boundary tests ran", "tests run", "boundary",
		"pruebas de limites ejecutadas", "pruebas de limites", "pruebas de frontera", "pruebas del limite", "pruebas de limite",
		"tests de limites executes", "tests de limites", "tests des limites", "tests de frontiere", "tests de limite",
		"grenztests ausgefuhrt", "grenztests durchgefuhrt", "grenztests", "grenz-tests",
		"testes de limite executados", "testes de limite", "testes de fronteira", "testes de limites",
		"test dei limiti eseguiti", "test dei limiti", "test di confine", "test del perimetro", "test di limite",
	},
	fieldPassage: {
		"exacte passage handmatig gecontroleerd", "handmatige controle", "exacte passage",
		"dokladny fragment sprawdzony recznie", "reczna weryfikacja", "dokladny fragment", "sprawdzenie reczne",
		"exact passage manually checked", "exact passage checked", "passage manually checked", "manual check", "manually checked",
		"passage check", "passage checked", "exact passage", "manual passage check",
		"pasaje exacto verificado manualmente", "pasaje exacto comprobado manualmente", "verificacion manual", "comprobacion manual", "pasaje exacto",
		"passage exact verifie manuellement", "passage exact verifie a la main", "verification manuelle", "passage exact",
		"exakte passage manuell gepruft", "exakte textstelle manuell gepruft", "textstelle manuell gepruft", "manuelle prufung", "manuell gepruft",
		"passagem exata verificada manualmente", "trecho exato verificado manualmente", "verificacao manual", "passagem exata",
		"passaggio esatto verificato manualmente", "passaggio esatto controllato manualmente", "verifica manuale", "controllo manuale", "passaggio esatto",
	},
	fieldTransport: {
		"client en transport", "klient i transport", "klient",
		"client and transport", "client & transport", "client / transport", "client/transport", "client", "transport", "client used",
		"cliente y transporte", "cliente", "transporte",
		"client et transport",
		"client und transport", "client und transportweg", "transportweg",
		"cliente e transporte",
		"client e trasporto", "trasporto",
	},
	fieldIntegration: {
		"integratie gedemonstreerd", "integratie aangetoond", "integratie",
		"integracja zademonstrowana", "integracja wykazana", "integracja",
		"integration demonstrated", "integration", "integration shown", "integration demo",
		"integracion demostrada", "integracion",
		"integration demontree", "integration montree",
		"integration nachgewiesen", "integration demonstriert", "integration gezeigt",
		"integracao demonstrada", "integracao",
		"integrazione dimostrata", "integrazione",
	},
	fieldUnverified: {
		"niet geverifieerd gedrag", "niet geverifieerd",
		"niezweryfikowane zachowanie", "niezweryfikowane",
		"unverified behavior", "unverified behaviour", "unverified", "not verified", "unverified behaviors", "unverified behaviours", "known gaps",
		"comportamiento no verificado", "no verificado",
		"comportement non verifie", "non verifie",
		"nicht verifiziertes verhalten", "unverifiziertes verhalten", "nicht gepruftes verhalten", "nicht verifiziert", "nicht gepruft",
		"comportamento nao verificado", "nao verificado",
		"comportamento non verificato", "non verificato",
	},
}

// labelIndex maps a folded label to its field.
var labelIndex = func() map[string]string {
	m := map[string]string{}
	for field, ls := range labels {
		for _, l := range ls {
			m[fold(l)] = field
		}
	}
	return m
}()

// lookupLabel reports the field a label names, ignoring case, accents,
// emphasis, a trailing colon and a parenthesised aside ("Client (and
// transport)").
func lookupLabel(label string) (string, bool) {
	l := fold(label)
	// "boundary_tests_run" as in YAML, and a trailing dash or colon.
	l = strings.Join(strings.Fields(strings.ReplaceAll(l, "_", " ")), " ")
	l = strings.TrimSpace(strings.TrimRight(l, ":：- "))
	if f, ok := labelIndex[l]; ok {
		return f, true
	}
	if i := strings.IndexByte(l, '('); i > 0 {
		f, ok := labelIndex[strings.TrimSpace(l[:i])]
		return f, ok
	}
	return "", false
}

var accents = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ä", "a", "ã", "a", "å", "a",
	"é", "e", "è", "e", "ê", "e", "ë", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i",
	"ó", "o", "ò", "o", "ô", "o", "ö", "o", "õ", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u",
	"ç", "c", "ñ", "n", "ß", "ss", "œ", "oe", "æ", "ae",
	"ą", "a", "ć", "c", "ę", "e", "ł", "l", "ń", "n", "ś", "s", "ź", "z", "ż", "z",
	"’", "'", "‘", "'", "“", `"`, "”", `"`, "«", `"`, "»", `"`,
	"–", "-", "—", "-", "\u00a0", " ",
)

// fold lowers case, drops accents and emphasis markers and collapses
// white space, so that a word table is written once in plain letters.
func fold(s string) string {
	s = accents.Replace(strings.ToLower(stripEmphasis(s)))
	return strings.Join(strings.Fields(s), " ")
}
