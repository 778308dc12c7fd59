//go:build linux

package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The stage is the harness binary itself, started again (/proc/self/exe)
// as the first process of the server's new namespaces: it builds the
// mount tree with the kernel's calls, sets the limits, drops every
// privilege and starts the server. One exec of a binary already in the
// page cache costs a few milliseconds, where a shell driving util-linux's
// mount paid one exec per mount.
//
// It is chosen by an environment variable that only the harness sets
// (Sandbox.Command) and that Main looks for; the server never sees it.
const stageEnvKey = "PRACTICE_NOTES_SANDBOX_STAGE"

// stageConfig is what the stage is told, as JSON in stageEnvKey.
type stageConfig struct {
	// Isolate is false for the fallback: no namespaces, only the limits.
	Isolate bool     `json:"isolate"`
	Argv    []string `json:"argv"`
	// Writable are the run's folders, left writable in a read-only tree.
	Writable []string `json:"writable"`
	// Locked are files bound read-only over themselves: the mode-000
	// trap, which the server could otherwise chmod where its uid maps to
	// the grader's.
	Locked  []string `json:"locked,omitempty"`
	Overlay *overlay `json:"overlay,omitempty"`
	// Root is an empty folder of the run's, where the stage mounts the
	// server's new root (tree_linux.go).
	Root string `json:"root,omitempty"`
	// Visible are the folders seen read-only at their own paths.
	Visible []string `json:"visible,omitempty"`
	// Dir is the folder the server starts in.
	Dir    string `json:"dir,omitempty"`
	Limits Limits `json:"limits"`
	// Data is the RLIMIT_DATA of the fallback; 0 for none.
	Data int64 `json:"data,omitempty"`
	// UID and GID are the server's when the grader is root; -1 otherwise,
	// when the server runs as innerUID in a nested user namespace.
	UID int `json:"uid"`
	GID int `json:"gid"`
	// Hold: wait for fd 3 to close before starting the server, which the
	// harness does once the stage is in the run's cgroup.
	Hold bool `json:"hold,omitempty"`
}

type overlay struct {
	Lower []string `json:"lower"` // top first; the grader's cache last
	// Scratch is where the stage mounts a tmpfs (of Size bytes) for the
	// overlay's upper and work folders, and for the skeleton.
	Scratch string `json:"scratch"`
	Size    int64  `json:"size"`
	Merged  string `json:"merged"`
	// Owner, when not -1, is the server's uid: the stage makes the cache's
	// 256 folders, owned by it, as the layer just above the grader's
	// cache, since the grader's belong to root.
	Owner int `json:"owner"`
	// Keep, when set, is where what the server added is copied as a new
	// layer once it has exited.
	Keep string `json:"keep,omitempty"`
}

// runIfAsked runs the stage or the probe, and exits, when this process
// was started as one.
func runIfAsked() {
	if v, ok := os.LookupEnv(stageEnvKey); ok {
		os.Exit(runStage(v))
	}
	if v, ok := os.LookupEnv(probeEnvKey); ok {
		os.Exit(runProbe(v))
	}
}

// stageFailed is the exit status of a stage that could not set up the
// sandbox (as a shell's for a command it could not run).
const stageFailed = 125

func runStage(conf string) int {
	// no_new_privs and the bounding set are per thread, inherited by the
	// process this thread starts: the rest runs on this one.
	runtime.LockOSThread()
	var cfg stageConfig
	if err := json.Unmarshal([]byte(conf), &cfg); err != nil {
		return stageError(fmt.Errorf("reading the stage's configuration: %w", err))
	}
	env := serverEnv(os.Environ())
	if len(cfg.Argv) == 0 {
		return stageError(errors.New("no command"))
	}
	if cfg.Hold {
		hold := os.NewFile(3, "hold")
		_, _ = hold.Read(make([]byte, 1)) // EOF when the harness lets go
		hold.Close()
	}
	if !cfg.Isolate {
		if err := setLimits(cfg.Limits, cfg.Data); err != nil {
			return stageError(err)
		}
		return stageError(syscall.Exec(cfg.Argv[0], cfg.Argv, env))
	}
	if err := buildTree(cfg); err != nil {
		return stageError(err)
	}
	if err := dropPrivileges(); err != nil {
		return stageError(err)
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// A PID namespace of the server's own, nested: its shell is the
	// first process there, which what it starts cannot kill, as it
	// cannot reach the stage.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Cloneflags: syscall.CLONE_NEWPID}
	if cfg.UID >= 0 {
		// As root: a uid and gid of the slot's own, no supplementary
		// groups; leaving uid 0 clears every capability.
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(cfg.UID), Gid: uint32(cfg.GID), Groups: []uint32{}}
	} else {
		// Not root: a nested user and mount namespace in which the server
		// is innerUID. The mounts it inherits are then locked, and it has
		// no capability over them (exec as a non-zero uid drops them).
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: innerUID, HostID: 0, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: innerUID, HostID: 0, Size: 1}}
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		return stageError(fmt.Errorf("starting the server: %w", err))
	}
	go func() {
		// As the first process of its PID namespace the stage gets only
		// the signals it handles: it passes them on.
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	// When the stage exits, the kernel kills whatever the server left in
	// the namespace.
	err := cmd.Wait()
	if o := cfg.Overlay; o != nil && o.Keep != "" && os.Getpid() == 1 {
		// What the server left running must not write while its layer
		// is copied: kill it, and wait until all of it is gone (orphans
		// are this process's children; as the first process of its PID
		// namespace, -1 reaches only that namespace).
		_ = syscall.Kill(-1, syscall.SIGKILL)
		for {
			if _, werr := syscall.Wait4(-1, nil, 0, nil); werr != nil && werr != syscall.EINTR {
				break
			}
		}
		// Under the server's limits still: no file of the layer can be
		// larger than the server could write.
		if kerr := keepLayer(o); kerr != nil {
			fmt.Fprintf(os.Stderr, "sandbox: keeping the build cache's new entries: %v\n", kerr)
		}
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return stageError(err)
}

func stageError(err error) int {
	fmt.Fprintf(os.Stderr, "sandbox: %v\n", err)
	return stageFailed
}

// serverEnv is the stage's environment without its own variable.
func serverEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, stageEnvKey+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// mountOverlay mounts the Go build cache overlay of one process.
func mountOverlay(o *overlay) error {
	if err := unix.Mount("gobuild", o.Scratch, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("size=%d,mode=0755", o.Size)); err != nil {
		return fmt.Errorf("mounting the build cache's tmpfs: %w", err)
	}
	upper, work := filepath.Join(o.Scratch, "upper"), filepath.Join(o.Scratch, "work")
	for _, d := range []string{upper, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("preparing the build cache's overlay: %w", err)
		}
	}
	lower := o.Lower
	if o.Owner >= 0 {
		if err := os.Lchown(upper, o.Owner, o.Owner); err != nil {
			return fmt.Errorf("preparing the build cache's overlay: %w", err)
		}
		skel := filepath.Join(o.Scratch, "skeleton")
		if err := os.Mkdir(skel, 0o755); err != nil {
			return fmt.Errorf("making the build cache's skeleton: %w", err)
		}
		for i := 0; i < 256; i++ {
			d := filepath.Join(skel, fmt.Sprintf("%02x", i))
			if err := os.Mkdir(d, 0o755); err != nil {
				return fmt.Errorf("making the build cache's skeleton: %w", err)
			}
			if err := os.Lchown(d, o.Owner, o.Owner); err != nil {
				return fmt.Errorf("making the build cache's skeleton: %w", err)
			}
		}
		n := len(lower)
		lower = append(append(append([]string(nil), lower[:n-1]...), skel), lower[n-1])
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", strings.Join(lower, ":"), upper, work)
	if err := unix.Mount("overlay", o.Merged, "overlay", 0, opts); err != nil {
		return fmt.Errorf("overlaying the Go build cache: %w", err)
	}
	return nil
}

// keepLayer copies what the server added to the build cache (regular
// files and folders; a removal or anything else is dropped, as a cache
// may lose entries) into a new layer of the run, renamed into place once
// complete. Folders go to owner, so that the next process may write in
// them. Nothing is made when nothing was added.
func keepLayer(o *overlay) error {
	upper := filepath.Join(o.Scratch, "upper")
	entries, err := os.ReadDir(upper)
	if err != nil || len(entries) == 0 {
		return err
	}
	tmp, err := os.MkdirTemp(o.Keep, ".partial-")
	if err != nil {
		return err
	}
	err = filepath.WalkDir(upper, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(upper, p)
		to := filepath.Join(tmp, rel)
		switch {
		case d.IsDir():
			if rel != "." {
				if err := os.Mkdir(to, 0o755); err != nil {
					return err
				}
			}
			if o.Owner >= 0 {
				return os.Lchown(to, o.Owner, o.Owner)
			}
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil
	})
	if err != nil {
		_ = os.RemoveAll(tmp)
		return err
	}
	return os.Rename(tmp, filepath.Join(o.Keep, fmt.Sprintf("%020d", time.Now().UnixNano())))
}

// copyFile copies a file with its permissions (`go run` keeps built
// programs in the cache).
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(st.Mode().Perm()); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// remountBind makes one mount read-only or writable, keeping its other
// flags: a mount inherited from a more privileged namespace has them
// locked, and a remount that dropped one would be refused.
func remountBind(mp string, readOnly bool) error {
	var st unix.Statfs_t
	if err := unix.Statfs(mp, &st); err != nil {
		return err
	}
	const kept = unix.ST_NOSUID | unix.ST_NODEV | unix.ST_NOEXEC | unix.ST_NOATIME | unix.ST_NODIRATIME | unix.ST_RELATIME
	flags := uintptr(st.Flags) & kept // ST_* equal the MS_* of the same name
	if readOnly {
		flags |= unix.MS_RDONLY
	}
	return unix.Mount("", mp, "", unix.MS_REMOUNT|unix.MS_BIND|flags, "")
}

// mountPoints lists the mount points of this namespace, parents first.
func mountPoints() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("listing the mounts: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 {
			out = append(out, unescapeMount(fields[4]))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("listing the mounts: %w", err)
	}
	return out, nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v byte
			ok := true
			for _, c := range []byte(s[i+1 : i+4]) {
				if c < '0' || c > '7' {
					ok = false
					break
				}
				v = v*8 + c - '0'
			}
			if ok {
				b.WriteByte(v)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dropPrivileges empties the bounding set and sets no_new_privs for this
// thread, and so for the server it starts: no exec can give it a
// capability or another uid back (setuid binaries, file capabilities).
func dropPrivileges() error {
	for c := 0; ; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) && c > 0 {
				break // past the last capability this kernel knows
			}
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	return nil
}

// limitScript sets the limits in the server's own shell, before its
// command line: the stage does not take them itself (a Go process under a
// small memory limit cannot make its threads), and setting another uid's
// limits from outside (prlimit) is refused on some kernels. Each ulimit
// sets the soft and the hard limit; the processes limit is -u in bash and
// -p in dash and busybox. Units: KiB for data, 512-byte blocks for files.
//
// The data limit is set only where no cgroup bounds memory (data > 0;
// see noCgroupData), and the processes limit is an rlimit only where the
// run has no cgroup (withNproc): the kernel counts it over every process
// of the uid, and runs that share a slot share their uid, so one run's
// processes would use up another's. A run's cgroup counts its own.
func limitScript(l Limits, data int64, withNproc bool) string {
	dataLimit, nproc := "", ""
	if data > 0 {
		dataLimit = fmt.Sprintf("ulimit -d %d && ", data/1024)
	}
	if withNproc {
		nproc = fmt.Sprintf(" && { ulimit -u %d 2>/dev/null || ulimit -p %d; }", l.Processes, l.Processes)
	}
	return fmt.Sprintf("{ %sulimit -n %d && ulimit -t %d && ulimit -f %d%s; } || { echo 'sandbox: the limits could not be set' >&2; exit %d; }; ",
		dataLimit, l.OpenFiles, int64(l.CPUTime.Seconds()), l.FileSize/512, nproc, stageFailed)
}

type rlimit struct {
	name string
	res  int
	v    uint64
}

// rlimits are the limits of the fallback, without namespaces; data as in
// limitScript.
func rlimits(l Limits, data int64) []rlimit {
	r := []rlimit{
		{"processes", unix.RLIMIT_NPROC, uint64(l.Processes)},
		{"CPU time", unix.RLIMIT_CPU, uint64(l.CPUTime.Seconds())},
		{"open files", unix.RLIMIT_NOFILE, uint64(l.OpenFiles)},
		{"file size", unix.RLIMIT_FSIZE, uint64(l.FileSize)},
	}
	if data > 0 {
		r = append(r, rlimit{"data", unix.RLIMIT_DATA, uint64(data)})
	}
	return r
}

// setLimits sets the limits of this process, inherited by what it starts:
// the fallback, which then becomes the server.
func setLimits(l Limits, data int64) error {
	for _, r := range rlimits(l, data) {
		// syscall's, not unix's: for RLIMIT_NOFILE it also stops the
		// runtime from restoring its own soft limit in the child.
		if err := syscall.Setrlimit(r.res, &syscall.Rlimit{Cur: r.v, Max: r.v}); err != nil {
			return fmt.Errorf("setting the %s limit: %w", r.name, err)
		}
	}
	return nil
}
