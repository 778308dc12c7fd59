// Package checks holds every check of the acceptance harness as a value:
// its id, section, title and hint, the fixtures it plants and owns, the
// probe that sends its requests and the judge that turns what came back
// into findings. A judge is a pure function of recorded exchanges and
// fixture facts: it does no I/O, reads no clock and starts no process, so
// every judge is tested on recorded transcripts without a server.
package checks

import (
	"fmt"
	"io/fs"
	"time"

	"practice-notes/tests/acceptance/truth"
)

// Sections group checks by the part of the specification they come from.
const (
	SectionAcceptance = "acceptance" // the specification's eight acceptance tests
	SectionTool       = "tool"       // its "One tool" rules
	SectionBoundary   = "boundary"   // its "Access boundary" rules
	SectionProtocol   = "protocol"   // MCP protocol basics, under check 8
)

// Check is one line of the report.
type Check struct {
	ID      string
	Section string
	Title   string
	Hint    string // default one-sentence fix
	// Test is the specification's acceptance test (1-8) the check
	// refines, or 0 when it checks another of the specification's rules.
	Test int
	// Says is what people call the check's rules when they write about
	// them, as in a completion record: a regular expression over lower
	// case text without accents. A claim in these words speaks for every
	// finding of the check.
	Says string
	// Parts are rules of the check that people speak of alone: a claim in
	// a part's words speaks only for the findings the part matches.
	Parts []Part
	// Forbids is the behaviour the check's rule forbids, in people's
	// words: a record saying it never happens speaks for the check.
	Forbids string
	// Keeps states the rule kept in words that claim it by themselves
	// ("read-only"), with no verb of passing.
	Keeps string
	// Fixtures are the fixtures the check plants and owns, in the order
	// planted: a leak of one of them breaks this check's rule, wherever
	// it is seen.
	Fixtures []*Plant
	// Requires names the checks whose Result the judge reads, as a
	// go/analysis Analyzer names the analyzers it requires: the schedule
	// runs each of them first (TestScheduleKeepsRequirements), and the
	// harness hands their results on (Facts.SignIn).
	Requires []*Check
	// Needs names the parts of Facts the judge reads (needs.go); the
	// harness hands it only those.
	Needs []need
	// Result names the step whose exchange this check hands on to the
	// checks that require it; "" for a check that hands on nothing.
	Result string
	// Process says which process the check's probe runs in, from which
	// the schedule is derived (schedule.go); the zero value is a process
	// shared with the checks around it.
	Process StageKind
	// Planting is what a check whose Process is WithPlanting plants around
	// its own process.
	Planting *Planting
	// Warns makes every finding of the check, and every leak of its
	// fixtures, a warning: the specification does not name its rule.
	Warns bool
	// Probe sends the check's requests; it reads the facts only for the
	// fixtures' names and markers. It may adapt to earlier replies but
	// never judges them; it returns false when the server can take no
	// further request. Nil for a check that sends nothing: it judges what
	// other checks' processes did (7, 16) or their exchanges (8.6, 8.7).
	Probe func(Wire, *Facts) bool
	// Tools sends the check's calls to the tools besides search_notes.
	// The harness runs it in a process of its own after the search
	// checks, so that nothing such a tool changes disturbs them, and
	// judges the check once it has run; nil for a check that calls no
	// other tool.
	Tools func(Wire, *Facts) bool
	// Judge turns the recorded exchanges and the fixture facts into
	// findings; every check has one (TestCatalogBothWays).
	Judge func(*Facts) Verdict
}

// Part is one rule of a check as people write about it.
type Part struct {
	// Says is a regular expression over lower case text without accents.
	Says string
	// Findings matches the messages of the findings that break this rule.
	Findings string
}

// Rule is a run-wide rule: it judges what every server process did, not
// the replies of one check, and charges what it finds to its owner.
type Rule struct {
	Name  string
	Owner *Check
	// Needs names the parts of Facts the judge reads, as Check.Needs.
	Needs []need
	Judge func(*Facts) Verdict
}

// Wire sends requests to a running server. Each exchange is recorded
// under step, the name a judge finds it by.
type Wire interface {
	// Send writes line as it is and waits for the reply whose id is the
	// raw JSON id; with id "" it waits for nothing. Only the protocol
	// session, which speaks raw lines, sends it; the client session
	// records it as not sent.
	Send(step, line, id string) Exchange
	// ListTools sends tools/list, and CallTool tools/call, through the
	// client session's SDK client; the protocol session records them as
	// not sent.
	ListTools(step string) Exchange
	// CallTool's sent lists the strings the arguments carry, whose
	// echoes in the reply are no leak; without it a search's query is.
	CallTool(step, name string, args map[string]any, sent ...string) Exchange
	// PathTools lists the tools besides search_notes, annotated
	// read-only, that take a path; the client session asks tools/list
	// for them once per process, under the check that asks first.
	PathTools() []PathTool
	// ToolArgs lists the other arguments a probe may fill: every string
	// or string-array argument search_notes declares besides query, and
	// every such argument of the other tools the harness may call
	// (MayCall) besides the one PathTools names; asked with PathTools.
	ToolArgs() []ToolArg
	// ListResources sends resources/list page by page, each page
	// recorded under PageStep(step, i); ListTemplates sends
	// resources/templates/list and ReadResource resources/read
	// (ReadResource's sent as CallTool's). They go through the client
	// session's SDK client; the protocol session records them as not
	// sent.
	ListResources(step string) []Exchange
	ListTemplates(step string) Exchange
	ReadResource(step, uri string, sent ...string) Exchange
}

// PathTool is a read-only tool that takes a path, the argument it takes
// it in, and whether that argument is an array of paths.
type PathTool struct {
	Name  string `json:"name"`
	Arg   string `json:"arg"`
	Array bool   `json:"array,omitempty"`
}

// ToolArg is an argument of a declared tool that a probe may fill, and
// whether it takes an array of strings.
type ToolArg struct {
	Tool  string `json:"tool"`
	Arg   string `json:"arg"`
	Array bool   `json:"array,omitempty"`
}

// Exchange is one request sent to the server and what came back, from
// the wire to the report: a judge reads its step and lines, the report
// shows the rest. Its JSON is the report's; a transcript keeps the
// lines in sections of their own (transcript.go).
type Exchange struct {
	// Step names the exchange for the judges.
	Step string `json:"-"`
	// In is the line sent; Out holds every stdout line read while
	// waiting, the reply last.
	In  string   `json:"-"`
	Out []string `json:"-"`
	// Reply is the reply line; "" if none.
	Reply string `json:"-"`

	// Check is the check the report files the exchange under.
	Check  string `json:"check"`
	Method string `json:"method"`
	// Request is the request as the report shows it: the line itself
	// for a line sent raw, the params for a request of the SDK client.
	Request string `json:"request"`
	// Decoded is the reply as the client decoded it, encoded again, for
	// the report.
	Decoded  string `json:"reply,omitempty"`
	Error    string `json:"error,omitempty"` // why there is no reply
	Millis   int64  `json:"ms"`
	TimedOut bool   `json:"timedOut,omitempty"`
	// Leaks names what the run-wide leak rule saw in the reply.
	Leaks []string `json:"leaks,omitempty"`
	// Display is a compact rendering of the reply for the Markdown record.
	Display string `json:"-"`
	// NotSent marks a request skipped because the server had stopped
	// answering an earlier one in the same process.
	NotSent bool `json:"notSent,omitempty"`
	// Wire holds the raw JSON-RPC lines of a request of the SDK client
	// and its reply, as they crossed the server's stdin and stdout.
	Wire []string `json:"wire,omitempty"`
}

// Layout is what rebuilds a run's fixtures: the seed every random word
// of them comes from, the practice data copied into the root, and the
// temp folder that held them (the paths in the facts are under it).
type Layout struct {
	Seed         string `json:"seed"`
	PracticeData string `json:"practiceData"`
	TempFolder   string `json:"tempFolder"`
}

// Facts is everything a judge may read. Fields are added as judges need
// them (the specification's true answer per query among them), each with
// a need of its own (needs.go); a judge is handed only the fields its
// check declares in Needs, so adding one changes no signature.
type Facts struct {
	// Layout rebuilds the fixtures the facts were recorded on; no judge
	// reads it. A transcript keeps it in a section of its own.
	Layout *Layout `json:"-"`
	// Fixtures are the notes the run planted, by name.
	Fixtures map[string]Fixture `json:"fixtures,omitempty"`
	// PathTools are the server's read-only tools that take a path.
	PathTools []PathTool `json:"pathTools,omitempty"`
	// ToolArgs are the other arguments the probes filled (Wire.ToolArgs).
	ToolArgs []ToolArg `json:"toolArgs,omitempty"`
	// Resources says the server advertised the resources capability.
	Resources bool `json:"resources,omitempty"`
	// Notes are the root's notes as the judges read them.
	Notes *Notes `json:"notes,omitempty"`
	// SignIn is the Result of the check this one Requires: check 1's
	// search for sign-in, in its own process, for
	// a check that compares with it; nil if check 1 sent none.
	SignIn *Exchange `json:"-"`
	// Truth is the specification's answer to every search the check sent,
	// by query, computed from the root as it was while the check ran
	// (package truth); nil when the harness computed none.
	Truth map[string]*truth.Answer `json:"truth,omitempty"`
	// Exchanges of the process the check ran in, in the order sent.
	Exchanges []Exchange `json:"exchanges,omitempty"`
	// Stderr of that process (bounded).
	Stderr string `json:"stderr,omitempty"`
	// Negotiated is the protocol version that process's handshake agreed
	// on, for a check that states it.
	Negotiated string `json:"negotiated,omitempty"`
	// Ended is how that process ended once the harness closed its stdin
	// after the probe, for a check that judges it; nil for the others.
	Ended *Ended `json:"ended,omitempty"`
	// Processes holds what each server process of the run wrote on
	// stdout besides JSON-RPC, for the run-wide stdout rule.
	Processes []Process `json:"processes,omitempty"`
	// Timeouts lists every request of the run that got no answer in time.
	Timeouts []Timeout `json:"timeouts,omitempty"`
	// TimeLimit is the per-request limit, as the report states it.
	TimeLimit string `json:"timeLimit,omitempty"`
	// NotStarted is the check whose server process failed to start, if
	// one did: later checks then prove nothing.
	NotStarted string `json:"notStarted,omitempty"`

	// Files holds every entry under the run's temp folder before the
	// first server process started and after the last one ended.
	Files *FileFacts `json:"files,omitempty"`
	// OtherFiles holds the same for the fresh copy of the fixtures the
	// process of other tools ran on, before it started and after it
	// ended; nil when there was no such process.
	OtherFiles *FileFacts `json:"otherFiles,omitempty"`
	// Calls counts the requests of the run, Answered those answered.
	Calls    int `json:"calls,omitempty"`
	Answered int `json:"answered,omitempty"`

	// HomeDirs counts the fresh HOME and TMPDIR pairs made for server
	// processes; Leftovers lists what each process left in its own.
	HomeDirs  int        `json:"homeDirs,omitempty"`
	Leftovers []Leftover `json:"leftovers,omitempty"`

	// Secrets names the fixtures no reply may show (their Words), in the
	// order the leak rule judges them.
	Secrets []string `json:"secrets,omitempty"`
	// OutsideNames are the entries of the temp folder besides the root:
	// a reply that lists several of them lists a folder outside it.
	OutsideNames []string `json:"outsideNames,omitempty"`
	// Outputs holds what every server process of the run showed, in the
	// order the processes ended, for the leak rule.
	Outputs []Output `json:"outputs,omitempty"`
}

// FileFacts is the state of the run's files before and after.
type FileFacts struct {
	Before map[string]FileState `json:"before"`
	After  map[string]FileState `json:"after"`
	// Bodies holds the start of every regular file created or changed,
	// by path.
	Bodies map[string]string `json:"bodies,omitempty"`
}

// FileState is one entry under the temp folder. Symlinks are recorded,
// not followed.
type FileState struct {
	Kind   string      `json:"kind"` // file, dir, symlink, other
	Mode   fs.FileMode `json:"mode"`
	Size   int64       `json:"size,omitempty"`
	SHA256 string      `json:"sha256,omitempty"`
	Target string      `json:"target,omitempty"`
	MTime  time.Time   `json:"mtime"`
}

// Leftover is what one server process left in its fresh HOME, TMPDIR or
// config folder, one line per entry.
type Leftover struct {
	Process string   `json:"process"` // the checks it served
	Lines   []string `json:"lines"`
	// Runtime lists, one line per place, what the process's runtime
	// wrote by itself (its caches): seen, and not charged.
	Runtime []string `json:"runtime,omitempty"`
}

// Fixture is a note the run planted: where it is and the phrase that
// finds it.
type Fixture struct {
	Rel    string `json:"rel,omitempty"`    // path inside the root; "" for a phrase in no file
	Marker string `json:"marker,omitempty"` // a phrase only this note (or none) holds
	Proof  string `json:"proof,omitempty"`  // a word on the marker's own line
	Path   string `json:"path,omitempty"`   // absolute, for a file or folder outside the root
	// Text is the note's whole text, for a check that compares a read
	// of it byte for byte.
	Text string `json:"text,omitempty"`
	// Files and Count say, for a phrase in many notes, which notes hold
	// it and in how many paragraphs.
	Files []string `json:"files,omitempty"`
	Count int      `json:"count,omitempty"`
	// Label describes a fixture no reply may show, and Words are the
	// random words each of its lines holds: the harness never sends
	// them, so a reply holding one shows the file.
	Label string   `json:"label,omitempty"`
	Words []string `json:"words,omitempty"`
}

// TempFolder names the facts of the run's folder, which holds the root:
// no check owns it (Ground.Facts).
const TempFolder = "temp folder"

// Process is one server process of a run.
type Process struct {
	Checks string `json:"checks"` // the checks it served, "1, 2, 3"
	// BadLines are the first stdout lines that were not JSON-RPC, and
	// BadCount how many there were in all.
	BadLines []string `json:"badLines,omitempty"`
	BadCount int      `json:"badCount,omitempty"`
}

// Ended is how a check's own server process ended after the client
// closed its stdin, and what it wrote.
type Ended struct {
	OnItsOwn bool   `json:"onItsOwn"`         // exited before the harness signalled it
	AfterMs  int64  `json:"afterMs"`          // from stdin closing to exit
	Code     int    `json:"code"`             // exit status
	Signal   string `json:"signal,omitempty"` // what the harness sent when it did not exit
	Grace    string `json:"grace"`            // how long it was given
	// Messages counts its stdout lines read as JSON-RPC, StderrBytes
	// what it wrote on stderr.
	Messages    int `json:"messages"`
	StderrBytes int `json:"stderrBytes"`
	// Tail is the last lines of its stdout and stderr.
	Tail []string `json:"tail,omitempty"`
	// NoID is a reply it wrote without an id, which no client can match
	// to a request; nil when there was none.
	NoID *NoIDReply `json:"noID,omitempty"`
}

// NoIDReply is a reply without an id on stdout.
type NoIDReply struct {
	Line string `json:"line"` // bounded
	At   int    `json:"at"`   // its stdout line number
	// After names the last notification the client had sent, if any.
	After string `json:"after,omitempty"`
}

// Timeout is a request that got no answer within the limit.
type Timeout struct {
	Check  string `json:"check"` // the check that sent it
	Method string `json:"method"`
	Step   string `json:"step"`
	// Phase names the part of the run that sent it when that is not the
	// check's own probe: the generated phase, with its seed.
	Phase string `json:"phase,omitempty"`
	// Charged is set when a check already failed on this request.
	Charged bool `json:"charged,omitempty"`
}

// step returns the exchange recorded under name.
func (f *Facts) step(name string) (Exchange, bool) {
	for _, ex := range f.Exchanges {
		if ex.Step == name {
			return ex, true
		}
	}
	return Exchange{}, false
}

// Verdict is what a judge found.
type Verdict struct {
	Findings []Finding
	// Summary says what passed, for a check without findings.
	Summary string
	// Notes are remarks that change no status.
	Notes []string
	// Filed names the steps listed under the check in the report.
	Filed []string
	// Observed holds observations that are not exchanges (file states).
	Observed []string
	// Compared is check 1's passage beside the file's, for the report.
	Compared *N2Comparison
	// Skip says why the check could not be judged, when nothing failed.
	Skip string
	// Sightings are what a run-wide rule saw, each charged to its owner
	// once by Assemble.
	Sightings []Sighting
}

// fail adds a finding on the exchange ex.
func (v *Verdict) fail(ex Exchange, format string, args ...any) {
	v.Findings = append(v.Findings, Finding{Step: ex.Step, Msg: fmt.Sprintf(format, args...)})
}

// Finding is one reason for a fail or warn verdict.
type Finding struct {
	// Owner is the check it is charged to; a judge's own findings leave
	// it nil and go to the judged check.
	Owner *Check
	Warn  bool
	Msg   string
	// Step names the exchange that shows it, if one does; Quote holds the
	// lines quoting it, filled in by the harness that holds the exchange.
	Step  string
	Quote []string
	// Exchange is the exchange Step names, once the harness has filed it.
	Exchange *Exchange
	Detail   []string // further lines: stdout or stderr lines, file states
	Hint     string   // overrides the check's default hint
}
