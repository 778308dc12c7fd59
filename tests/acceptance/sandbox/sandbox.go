package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"practice-notes/tests/acceptance/visible"
)

// Sandbox decides the environment every server process gets: a fresh,
// empty HOME and TMPDIR per process (checked afterwards), a minimal
// environment, toolchain caches of the run so that `go run`, npx or
// python are not accused of the writes their toolchains make, limits on
// what one process may take, and, where the kernel allows, an identity
// and a mount tree the server cannot undo (see isolate_linux.go).
//
// A learner's server is untrusted code. Under isolation it never runs as
// root or root-equivalent: as root, under an unprivileged uid and gid of
// its own per parallel slot; as an ordinary user, as a non-zero uid in a
// user namespace of its own. It has no capabilities and no_new_privs,
// it sees of the grader's files only its own folder, the system's and the
// toolchains' (read-only) and the run's own folders (writable; set up
// before it starts, and locked), there is no network and it sees only its
// own processes. What held is measured by a probe before the first check
// (see probe), never assumed. Where no isolation is possible (macOS,
// Windows, containers that forbid namespaces, --isolation off) the server
// runs in its own process group with the grader's rights, and the report
// says so.
type Sandbox struct {
	aux       string   // temp dir for homes, temp folders and tool caches
	env       []string // environment without HOME and TMPDIR
	writable  []string // folders left writable inside the namespace
	isolated  bool
	isolation string // one sentence for the report
	limits    Limits

	// uid and gid the server runs as when the grader is root; -1 when it
	// is not (then a user namespace maps the server to innerUID).
	uid, gid int
	// lockedUnreadable is measured by the probe: a mode-000 file of the
	// grader's could not be opened from inside.
	lockedUnreadable bool
	// goCache is the grader's Go build cache: each process gets an
	// overlay of it, writes landing in folders of the run.
	goCache string
	// home is the grader's home. Under isolation the server sees of the
	// grader's files only visible (read-only; see visible_linux.go) and
	// the run's folders, and starts in dir, inside project.
	home, dir, project string
	visible            []string
	// locked are files the stage binds read-only over themselves (the
	// mode-000 trap of check 22), so that a server whose uid maps to the
	// grader's cannot chmod them.
	locked []string
	// self is the harness binary, started again as the stage.
	self string
	// keep leaves the run's folders in place at Remove.
	keep bool
	// cg bounds the memory and processes of the run's servers together;
	// nil where no cgroup could be made, for the reason in cgWhy.
	cg    *runCgroup
	cgWhy string

	// marks holds, by process HOME, the runtime caches' files as the
	// process started (RuntimeFiles).
	mu    sync.Mutex
	marks map[string]map[string]fileMark
}

// innerUID is the uid the server has inside its user namespace when the
// grader is not root: not 0, so it holds no capabilities there and a
// mode-000 file is closed to it.
const innerUID = 1000

// slotUIDBase is the first of the uids a root grader runs servers as, one
// per parallel slot: far above any account's uid.
const slotUIDBase = 2_000_000_000

// Limits bound what one server process may take. Memory is the memory in
// use of the run's processes together, where a cgroup measures it (see
// dataLimit where none does), Processes counts the processes and threads
// of the run (of its uid without a cgroup), CPUTime is per process,
// FileSize is the largest file it may write.
type Limits struct {
	Memory    int64
	Processes int
	CPUTime   time.Duration
	OpenFiles int
	FileSize  int64
}

// DefaultLimits are limits a `go run` build or a Node.js server starts
// under, with room to spare.
func DefaultLimits() Limits {
	return Limits{Memory: 1 << 30, Processes: 256, CPUTime: 5 * time.Minute, OpenFiles: 1024, FileSize: 64 << 20}
}

// noCgroupData is the data-segment limit (RLIMIT_DATA) of a server
// process where no cgroup measures memory in use. RLIMIT_DATA counts
// private writable mappings as they are made, touched or not, and
// runtimes reserve far more than they use: Bun 1.3 maps about 70 GB at
// start and aborts under any data limit of 4 GiB or less. So the limit is
// set above what current runtimes reserve, and memory in use is then not
// bounded by the harness, which the report says.
const noCgroupData = 128 << 30

// dataLimit is the RLIMIT_DATA of each server process: none where the
// run's cgroup bounds the memory in use (a reservation is not use),
// noCgroupData otherwise.
func (sb *Sandbox) dataLimit() int64 {
	if sb.cg != nil {
		return 0
	}
	return max(sb.limits.Memory, noCgroupData)
}

// limitsSentence says which limits held and by what mechanism.
func (sb *Sandbox) limitsSentence() string {
	if runtime.GOOS != "linux" {
		return "no limits (the harness sets them on Linux only)"
	}
	if sb.cg != nil {
		// The processes limit is the cgroup's alone (see limitScript).
		return "limits (rlimits, each process): " + sb.limits.perProcess() +
			", and no limit on data segments or address space, which runtimes reserve without using (the cgroup measures memory in use); and " + sb.cg.describe(sb.limits)
	}
	return "limits (rlimits, each process): " + sb.limits.String() + fmt.Sprintf(", data segments up to %s (RLIMIT_DATA, set that high because it counts address space runtimes reserve without using it: Bun 1.3 about 70 GB; without a cgroup the memory in use is not bounded)", sizeName(sb.dataLimit())) +
		"; no cgroup (" + sb.cgWhy + ")"
}

// perProcess names the limits set on each process when a cgroup bounds
// the run's processes.
func (l Limits) perProcess() string {
	return fmt.Sprintf("%s of CPU time, %d open files, files up to %s", l.CPUTime, l.OpenFiles, sizeName(l.FileSize))
}

// String names the limits for the report where no cgroup bounds the run.
func (l Limits) String() string {
	return fmt.Sprintf("%d processes and threads, %s of CPU time a process, %d open files, files up to %s",
		l.Processes, l.CPUTime, l.OpenFiles, sizeName(l.FileSize))
}

func sizeName(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// keptEnv are the variables of the grader's environment a server gets:
// what finds programs, the locale and time zone, and the toolchains'
// own settings. Nothing else (tokens, credentials, CI variables) passes.
var keptEnv = []string{"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "GOROOT", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GONOSUMDB", "GOPRIVATE", "GOARCH", "GOOS", "CGO_ENABLED", "NODE_PATH", "PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV"}

func keep(k string) bool {
	return slices.Contains(keptEnv, k) || strings.HasPrefix(k, "LC_")
}

// Config describes one run's sandbox.
type Config struct {
	// Base is the folder of the run's fixtures: left writable, and given
	// to the server's uid under isolation.
	Base string
	// Isolation is "auto" (namespaces where the kernel allows them) or
	// "off" (a process group only).
	Isolation string
	Limits    Limits
	// Slot is the parallel slot of the run: as root, the server runs as
	// a uid of the slot's own.
	Slot int
	// Locked are files bound read-only over themselves in every server's
	// mount tree when they exist as it starts.
	Locked []string
	// Keep leaves the run's folders (homes, temp folders, caches) for
	// inspection; the cgroup is removed in any case.
	Keep bool
	// Dir is the folder the server lives in: under isolation the one
	// folder of the grader's, but the system's and the toolchains', that
	// it sees (read-only), and where it starts. Empty: the current folder.
	Dir string
}

// New prepares the sandbox of one run: its folders, the servers'
// environment, its cgroup where one can be made, and (unless isolation is
// off) the probe, run as a server would be, which decides what held. The
// program must have called [Main] first.
func New(ctx context.Context, c Config) (*Sandbox, error) {
	if !mainCalled.Load() {
		return nil, errors.New("sandbox: the program did not call sandbox.Main first, so a stage started from it would run the program itself")
	}
	base, mode, limits, slot := c.Base, c.Isolation, c.Limits, c.Slot
	aux, err := os.MkdirTemp("", "practice-notes-acceptance-env-")
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	sb := &Sandbox{aux: aux, writable: []string{base, aux}, limits: limits, uid: -1, gid: -1, self: self, keep: c.Keep, locked: c.Locked}
	// The server writes its HOME and TMPDIR as a uid of its own: the
	// run's folders must let it in (buildLayout opens the fixtures' too).
	if err := os.Chmod(aux, 0o755); err != nil {
		return nil, err
	}
	cache := func(name string) string {
		p := filepath.Join(aux, "toolcache", name)
		_ = os.MkdirAll(p, 0o755)
		return p
	}
	home := sb.setEnv(ctx, cache)
	// Without isolation the server has the grader's rights anyway, and
	// can write the grader's build cache whatever GOCACHE says: it gets
	// that cache, so that `go run` stays fast.
	ownCache := "GOCACHE=" + sb.goCache
	if sb.goCache == "" {
		ownCache = "GOCACHE=" + cache("gobuild")
	}
	if cg, err := newRunCgroup(limits); err == nil {
		sb.cg = cg
	} else {
		sb.cgWhy = err.Error()
	}
	if mode == "off" {
		sb.isolation = "process group only: isolation was turned off (--isolation off); the server ran with the grader's rights, network and file system, in a minimal environment with HOME and TMPDIR pointed at fresh folders; " + sb.limitsSentence()
		sb.env = append(sb.env, ownCache)
		return sb, nil
	}
	if os.Geteuid() == 0 {
		sb.uid, sb.gid = slotUIDBase+slot, slotUIDBase+slot
	}
	sb.home, sb.dir = home, c.Dir
	if err := sb.reachableSelf(); err != nil {
		return nil, err
	}
	sb.isolated, sb.isolation = probeIsolation(ctx, sb)
	if !sb.isolated {
		sb.uid, sb.gid = -1, -1
		sb.env = append(sb.env, ownCache)
		return sb, nil
	}
	// The fixtures are the server's to write, as they would be for the
	// grader's own uid: a write is then seen by check 7 instead of failing
	// unseen. (The traps of checks 20 and 22 are made later, and stay the
	// grader's.)
	if err := sb.own(base); err != nil {
		return nil, err
	}
	return sb, nil
}

// setEnv sets the environment every server process starts with: only the
// variables keep allows, Go's caches and settings, and each runtime's
// cache in the run's folders. It returns the grader's home folder.
func (sb *Sandbox) setEnv(ctx context.Context, cache func(string) string) string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); keep(k) {
			env = append(env, kv)
		}
	}
	set := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	// Go: the grader's module cache read-only, the build cache an overlay
	// per process (isolated) or a fresh one of the run; never the fresh
	// HOME, never the grader's go env file, never a toolchain download.
	goe := goEnv(ctx)
	for _, k := range []string{"GOPATH", "GOMODCACHE"} {
		if os.Getenv(k) == "" {
			set(k, goe[k])
		}
	}
	sb.goCache = goe["GOCACHE"]
	set("GOENV", "off")
	set("GOTOOLCHAIN", "local")
	// Go's temporary folder, Node.js, Python, Bun, Deno and a few others:
	// their own caches in the run's folders, and no bytecode written at
	// all (runtimes.go).
	for _, rc := range runtimeCaches {
		set(rc.env, cache(rc.dir))
	}
	for _, o := range runtimeOff {
		set(o.env, o.value)
	}
	home, _ := os.UserHomeDir()
	if home != "" {
		for _, k := range []string{"CARGO_HOME", "RUSTUP_HOME"} {
			dir := filepath.Join(home, "."+strings.ToLower(strings.TrimSuffix(k, "_HOME")))
			if os.Getenv(k) == "" {
				if _, err := os.Stat(dir); err == nil {
					set(k, dir)
				}
			}
		}
	}
	sb.env = env
	return home
}

// GiveFixtures gives a folder of fixtures planted after New to the
// server's uid, as New gives Base.
func (sb *Sandbox) GiveFixtures(dir string) error { return sb.own(dir) }

// reachableSelf makes sure the server's uid may run the harness binary,
// which the probe is: as root, a binary others may not run (built under
// umask 077) is copied into the run's folders.
func (sb *Sandbox) reachableSelf() error {
	st, err := os.Stat(sb.self)
	if err != nil || sb.uid < 0 || st.Mode()&0o001 != 0 {
		return nil
	}
	b, err := os.ReadFile(sb.self)
	if err != nil {
		return fmt.Errorf("copying the harness for the probe: %w", err)
	}
	sb.self = filepath.Join(sb.aux, "acceptance-stage")
	if err := os.WriteFile(sb.self, b, 0o755); err != nil {
		return fmt.Errorf("copying the harness for the probe: %w", err)
	}
	return os.Chmod(sb.self, 0o755) // whatever the umask
}

// goEnv asks the go command for the cache locations it would use with the
// grader's own HOME.
func goEnv(ctx context.Context) map[string]string {
	out := map[string]string{}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	keys := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}
	b, err := exec.CommandContext(ctx, goBin, append([]string{"env"}, keys...)...).Output()
	if err != nil {
		return out
	}
	for i, v := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if i < len(keys) && v != "" && v != "off" {
			out[keys[i]] = v
		}
	}
	return out
}

// ProcessDirs makes a fresh HOME and TMPDIR for one server process, and
// beside them the folder XDG_CONFIG_HOME points at. The go command writes
// telemetry counters under the user's config folder; that folder holds only
// go/telemetry/mode, set to off, so that `go run` writes nothing.
func (sb *Sandbox) ProcessDirs(name string) (home, tmp string, err error) {
	dir := filepath.Join(sb.aux, "process-"+name)
	home, tmp = filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	for _, d := range []string{home, tmp, filepath.Join(dir, "config", "go", "telemetry")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "go", "telemetry", "mode"), []byte("off"), 0o644); err != nil {
		return "", "", err
	}
	if err := sb.own(dir); err != nil {
		return "", "", err
	}
	sb.keepFileMarks(home)
	// The run's tool caches (npm, pip, …), shared by its processes; each
	// process's build-cache overlay is its own already (perProcess).
	caches, _ := filepath.Glob(filepath.Join(sb.aux, "toolcache", "*"))
	for _, c := range caches {
		if !strings.HasPrefix(filepath.Base(c), "gobuild") {
			if err := sb.own(c); err != nil {
				return "", "", err
			}
		}
	}
	return home, tmp, nil
}

// own gives the folders to the server's uid when it has one of its own.
func (sb *Sandbox) own(dirs ...string) error {
	if sb.uid < 0 {
		return nil
	}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, sb.uid, sb.gid)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// configDir is the XDG_CONFIG_HOME of the process whose HOME is home.
func configDir(home string) string { return filepath.Join(filepath.Dir(home), "config") }

// Env is the environment of one server process, whose fixtures are at
// root and whose fresh HOME and TMPDIR ProcessDirs made.
func (sb *Sandbox) Env(root, home, tmp string) []string {
	env := append([]string(nil), sb.env...)
	return append(env, "HOME="+home, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp,
		"XDG_CONFIG_HOME="+configDir(home), "PRACTICE_NOTES_ROOT="+root)
}

// Leftovers lists what a server process left in the HOME and TMPDIR that
// ProcessDirs made for it, and in its config folder (but for the go
// command's telemetry settings, which the sandbox put there, and a
// runtime's own folders, which RuntimeFiles lists), with the start of
// each file's content.
func (sb *Sandbox) Leftovers(home, tmp string) []string {
	left := append(leftovers("$HOME", home, func(rel string) bool { return isRuntimePath("$HOME", rel) }),
		leftovers("$TMPDIR", tmp, func(rel string) bool { return isRuntimePath("$TMPDIR", rel) })...)
	return append(left, leftovers("$XDG_CONFIG_HOME", configDir(home), func(rel string) bool {
		return rel == "go" || strings.HasPrefix(rel, "go/")
	})...)
}

// leftovers lists what is in dir, with the start of each file's content.
// Paths for which skip returns true are the toolchain's own.
func leftovers(label, dir string, skip func(rel string) bool) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if rel, _ := filepath.Rel(dir, p); skip != nil && skip(filepath.ToSlash(rel)) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		line := fmt.Sprintf("%s/%s", label, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			line += "/ (directory)"
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			line += fmt.Sprintf(" (%d bytes: %q)", len(b), visible.Truncate(string(b), 120))
		default:
			line += " (" + d.Type().String() + ")"
		}
		out = append(out, line)
		return nil
	})
	sort.Strings(out)
	return out
}

// Start starts a process made by Command. With a cgroup, the stage waits
// (on its fd 3) until it has been moved into it, so that nothing the
// server starts is outside it.
func (sb *Sandbox) Start(cmd *exec.Cmd) error {
	if sb.cg == nil {
		return cmd.Start()
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.ExtraFiles = []*os.File{r}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return err
	}
	if err := sb.cg.add(cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		w.Close()
		_ = cmd.Wait()
		return err
	}
	return w.Close()
}

// Remove ends the run: it kills what is left in the cgroup and removes
// it, and removes the run's folders unless Config.Keep asked to keep them.
func (sb *Sandbox) Remove() {
	if sb == nil {
		return
	}
	sb.cg.remove()
	if sb.aux != "" && !sb.keep {
		// Module caches are read-only; make everything removable first.
		_ = filepath.WalkDir(sb.aux, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		_ = os.RemoveAll(sb.aux)
	}
}

// Isolation says in one sentence what held, for the report.
func (sb *Sandbox) Isolation() string { return sb.isolation }

// LockedUnreadable reports whether the probe found a mode-000 file of the
// grader's closed to the server.
func (sb *Sandbox) LockedUnreadable() bool { return sb.lockedUnreadable }

// Counts are the run's cgroup counters of limits reached; zero without a
// cgroup.
type Counts struct{ oomKills, forkRefusals int64 }

// Counts reads the counters now, to compare with later in LimitHit.
func (sb *Sandbox) Counts() Counts {
	if sb.cg == nil {
		return Counts{}
	}
	return sb.cg.counts()
}

// LimitHit names the limit a server process ran into, from how it ended
// (its exit code, what it said on stderr) and from what the run's cgroup
// counted since the process started (since), or "".
func (sb *Sandbox) LimitHit(stderr string, code int, since Counts) string {
	memory := "memory limit of " + sizeName(sb.limits.Memory)
	if runtime.GOOS == "linux" && sb.cg == nil {
		memory = "data limit of " + sizeName(sb.dataLimit())
	}
	if hit := sb.limits.limitHit(stderr, code, memory); hit != "" {
		return hit
	}
	switch now := sb.Counts(); {
	case now.oomKills > since.oomKills:
		return fmt.Sprintf("stopped: memory limit of %s reached (the run's cgroup)", sizeName(sb.limits.Memory))
	case now.forkRefusals > since.forkRefusals:
		return fmt.Sprintf("limited: the limit of %d processes and threads was reached (the run's cgroup)", sb.limits.Processes)
	}
	return ""
}

var (
	memoryHitRe  = regexp.MustCompile(`(?i)MemoryError|out of memory|cannot allocate memory|allocation failed|bad_alloc|ENOMEM`)
	processHitRe = regexp.MustCompile(`(?i)resource temporarily unavailable|can't fork|cannot fork|fork: retry|pthread_create failed|EAGAIN`)
)

// SIGXCPU and SIGXFSZ, as on Linux and macOS: a shell whose command they
// killed exits with 128 plus the signal.
const sigXCPU, sigXFSZ = 24, 25

// limitHit names the limit a process ran into, from how it ended and
// what it said on stderr, or "". memory names the limit an allocation
// failure reached.
func (l Limits) limitHit(stderr string, code int, memory string) string {
	switch {
	case code == 128+sigXCPU || strings.Contains(stderr, "CPU time limit exceeded"):
		return fmt.Sprintf("stopped: CPU time limit of %s reached", l.CPUTime)
	case code == 128+sigXFSZ || strings.Contains(stderr, "File size limit exceeded"):
		return fmt.Sprintf("stopped: file size limit of %s reached", sizeName(l.FileSize))
	case memoryHitRe.MatchString(stderr):
		return "stopped: " + memory + " reached"
	case processHitRe.MatchString(stderr):
		return fmt.Sprintf("limited: the limit of %d processes and threads was reached", l.Processes)
	}
	return ""
}

// StartSignal says, for a server process that ended before it answered
// initialize with exit code code, which signal killed it and under which
// limits, when the code says a signal did (a shell, and the stage, exit
// with 128 plus the signal's number): a runtime that aborts at start
// under a limit names neither. "" otherwise.
func (sb *Sandbox) StartSignal(code int) string {
	if code <= 128 || code > 128+64 || runtime.GOOS != "linux" {
		return ""
	}
	sig := syscall.Signal(code - 128)
	return fmt.Sprintf("killed by signal %d (%s) at start, under the %s", int(sig), sig, sb.limitsSentence())
}
