package checks

// Words several checks share, for their Says, Parts and Forbids. Every
// expression reads lower case text without accents.
const (
	saysSignIn    = `\bsign[- ]?in\b|\bn2\b|\bexact passage\b|\bpasaje exacto\b|\bpassage exact\b|\bexakte (?:passage|textstelle)\b|\bpassagem exata\b|\bpassaggio esatto\b|\bexacte passage\b|\bdokladny fragment\b`
	saysTraversal = `\btraversal\b|\.\./|\.\.\\|\boutside\.md\b|\babsolute[- ]paths?\b|\bparent (?:dir|directory|path)\w*|\bdot-?dot\b|\bruta absoluta\b|\bchemin absolu\b|\babsolute[rn]? pfad\w*|\bcaminho absoluto\b|\bpercorso assoluto\b|\btraversee\b|\brecorrido de rutas\b|\babsoluut pad\b|\bsciezk\w* bezwzgledn\w*`
	saysSymlink   = `\bsym-?links?\b|\bsymbolic links?\b|\benlaces? simbolicos?\b|\bliens? symboliques?\b|\bsymbolische[rn]? links?\b|\blinks? simbolicos?\b|\bcollegament[oi] simbolic[oi]\b|\bsymbolische koppeling\w*|\bdowiazani\w* symboliczn\w*`
	saysCase      = `\bcase[- ]insensitiv\w*|\bcapitali[sz]ation\b|\bupper[- ]?case\b|\bmayusculas\b|\bmajuscules\b|\bgross-?\s?und kleinschreibung\b|\bmaiusculas\b|\bmaiuscole\b|\bhoofdletters\b|\bwielkosc liter\b`
	saysAbsent    = `\babsent\b|\bno[- ]match\w*|\bmissing phrase\b|\bnon-?existent\b|\bnonexistent\b|\bsin coincidencias\b|\bfrase ausente\b|\baucun resultat\b|\bphrase absente\b|\bkeine treffer\b|\bnicht vorhanden\w*|\bsem resultados\b|\bnessun risultato\b|\bfrase assente\b|\bgeen resultaten\b|\bontbrekende zin\b|\bbrak wynikow\b|\bnieistniejac\w* fraz\w*`
	saysProtocol  = `\bprotocol basics\b|\bjson-rpc errors?\b`

	forbidsOutside  = `\boutside\b|\bbeyond\b|\bescape\w*|\bleak\w*|\bfuera\b|\bhors\b|\ben dehors\b|\bausserhalb\b|\bfora\b|\bfuori\b|\bbuiten\b|\bpoza\b|\bfollow\w* (?:sym)?links?\b|\bsigue\w* enlaces\b|\bsuit (?:les )?liens\b`
	forbidsWriting  = `\bwrit\w*|\bmodif\w*|\bdelet\w*|\bcreat\w* (?:files?|anything)\b|\bread[- ]only\b|\bsolo lectura\b|\blecture seule\b|\bschreibgeschutzt\b|\bnur lesend\b|\bsomente leitura\b|\bsola lettura\b|\balleen[- ]lezen\b|\btylko do odczytu\b|\bescrib\w*|\becri\w*|\bschreib\w*|\bgrava\w*|\bscriv\w*|\bschrijf\w*|\bzapis\w*|\bborra\w*|\bsupprim\w*|\bloesch\w*|\blosch\w*|\bapag\w*|\bcancell\w*`
	forbidsInvented = `\binvent\w*|\bmade[- ]up\b|\bmakes? (?:anything|something|things) up\b|\bfabricat\w*|\bhallucinat\w*|\bsummar\w*|\bparaphras\w*|\binventad\w*|\binvente\w*|\berfunde\w*|\berfinde\w*|\binventat\w*|\bresum\w*|\bzusammenfass\w*|\briassun\w*|\bverzonnen\b|\bzmyslon\w*`
	keepsReadOnly   = `\bread[- ]only\b|\bsolo lectura\b|\blecture seule\b|\bschreibgeschutzt\b|\bnur lesend\b|\bsomente leitura\b|\bsola lettura\b|\balleen[- ]lezen\b|\btylko do odczytu\b`
)

// Check 6's rules: the oversized file, the oversized query, the bound on
// passages and answering after all of them.
var parts6 = []Part{
	{Says: `\b(?:big|large|huge|oversized?|giant|enormous|100 ?kb) (?:file|note)s?\b|\b100 ?kb\b|\bfile (?:size|limit)\b|\b(?:file|note)s? (?:over|above|bigger than|larger than) 100\b|\bfichiers? trop (?:gros|grand)\b|\barchivos? (?:demasiado )?grandes?\b|\bgrosse datei\b|\barquivos? muito grandes?\b|\bfile troppo grand\w*|\bgroot bestand\b|\bduz\w* plik\w*`,
		Findings: `over \d+ bytes`},
	{Says: `\b(?:long|oversized?|large|big|huge) quer\w*|\b20[01][- ]char\w*|\bquery (?:length|limit)\b|\bconsulta (?:demasiado )?larga\b|\brequete trop longue\b|\blange (?:anfrage|suche)\b|\bconsulta muito longa\b|\bquery troppo lung\w*`,
		Findings: `character query`},
	{Says: `\b(?:10|ten) passages\b|\bpassage (?:limit|cap)\b|\btruncat\w*`,
		Findings: `paragraphs of \d+ files`},
	{Says: `\bstill answers\b|\bkeeps answering\b`,
		Findings: `stopped answering`},
}

// Check 8's rules: discovery, the tool call, a clean stdout and the exit
// when stdin closes.
var parts8 = []Part{
	{Says: `\bdiscovery\b|\btools/list\b|\blist(?:s|ed|ing)? (?:the )?tools?\b|\btool list\b|\bdescubrimiento\b|\bdecouverte\b|\berkennung\b|\bdescoberta\b|\bscoperta\b`,
		Findings: `tools/list|input schema`},
	{Says: `\btools/call\b|\btool[- ]calls?\b|\bcall(?:s|ed)? search_notes\b`,
		Findings: `tools/call`},
	{Says: `\bclean stdout\b|\bstdout (?:is |stays |kept )?clean\b|\blogs? (?:go |goes )?to stderr\b|\bnothing but json-rpc\b|\bonly json-rpc\b`,
		Findings: `stdout|no id`},
	{Says: `\bexit\w* (?:when|on|after|once) (?:stdin|eof|end of (?:input|stdin))\b|\bstdin (?:is )?clos\w*|\bshuts? down when\b|\bquits? (?:when|on) eof\b`,
		Findings: `after stdin closed`},
}

// finding selects the findings a judge emits, not the transcript lines
// quoted under them, so a part is broken only by what its judge said.
const finding = `^(?:FAIL|WARN): `

// Check 4's rules: the parent path ../outside.md, and an absolute path
// outside the root. A finding names the path, the URI or the leaked
// file's label; outside.md is the ../ file whichever way it was asked.
var parts4 = []Part{
	{Says: `\.\./|\.\.\\|\boutside\.md\b|\bparent (?:dir|directory|path)\w*|\bdot-?dot\b`,
		Findings: finding + `.*(?:\.\.(?:/|\\|%2F)|"\.\."|%2E%2E|%2e%2e|outside\.md)`},
	{Says: `\babsolute[- ]paths?\b|\bruta absoluta\b|\bchemin absolu\b|\babsolute[rn]? pfad\w*|\bcaminho absoluto\b|\bpercorso assoluto\b|\babsoluut pad\b|\bsciezk\w* bezwzgledn\w*`,
		Findings: finding + `.*(?:absolute|file://)`},
}

// Check 12's rules, one per kind of query: each finding starts with the
// label of the call that broke it.
var parts12 = []Part{
	{Says: `\bempty quer\w*|\bempty strings?\b|\bblank quer\w*`,
		Findings: finding + `"" `},
	{Says: `\bwhitespace[- ]only\b|\bonly (?:white ?)?spaces\b|\bspaces? only\b`,
		Findings: finding + `" +" `},
	{Says: `\bmissing quer\w*|\bno query (?:argument|at all)\b|\bquery (?:argument )?(?:is )?missing\b|\bnull quer\w*|\bquery null\b`,
		Findings: finding + `(?:no query argument|query null) `},
	{Says: `\bnon-?string\b|\bnumeric quer\w*|\bquer\w* (?:that is |as )?(?:a )?(?:number|integer|array)\b`,
		Findings: finding + `query (?:42|\[)`},
}

// Check 18's rules: the symlinked directory and the chain of relative
// links, told apart by the fixture or link a finding names.
var parts18 = []Part{
	{Says: `\bsymlinked director\w*|\bdirectory (?:sym)?links?\b|\blinked-dir\b`,
		Findings: finding + `.*(?:linked-dir|outside folder behind)`},
	{Says: `\blink chains?\b|\bchains? of (?:relative )?(?:sym)?links\b|\bchain-1\.md\b`,
		Findings: finding + `.*(?:chain-1\.md|chain-2\.md|chain-target|symlink chain)`},
}

// Check 20's traps. Only a trap named as a result is tied to one trap;
// a search that hangs or fails over all four at once is tied to none.
var parts20 = []Part{
	{Says: `\bfifos?\b|\bnamed pipes?\b|\bpipe-note\.md\b`,
		Findings: finding + `.*pipe-note\.md`},
	{Says: `\bdirector(?:y|ies) named\b|\bfolder named\b|\bfolder\.md\b|\bdirectory called\b`,
		Findings: finding + `.*folder\.md`},
	{Says: `\bdangling\b|\bbroken (?:sym)?links?\b`,
		Findings: finding + `.*dangling-note\.md`},
	{Says: `\bbinary files?\b|\b(?:non|invalid)[- ]utf-?8\b|\bbinary-note\.md\b`,
		Findings: finding + `.*binary-note\.md`},
}
