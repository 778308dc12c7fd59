//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"practice-notes/tests/acceptance/visible"
)

// The server is isolated with the kernel's own calls, made by the harness
// binary itself (stage_linux.go): no daemon, no setuid helper and no
// package to install on an instructor's machine or in CI, and no exec per
// mount. bubblewrap would build the same tree, but it is one more
// dependency, and as root it does not change the uid by itself; util-linux
// (unshare, mount, setpriv, prlimit) did the same from a shell script at
// about 45 ms a server process, a third of what grading a class took.
//
// The harness starts the stage as the first process of fresh mount,
// network and PID namespaces (in a user namespace too when the grader is
// not root). The stage builds a root of the server's own holding only the
// folders it may see (tree_linux.go), every mount read-only except the
// run's own folders, overlays the Go build cache, mounts a /proc for the
// new PID namespace, sets the
// limits, empties the bounding set, sets no_new_privs and starts the server
// under its own identity: as root, the slot's uid and gid; otherwise uid
// 1000 in a nested user and mount namespace, so that the mounts it
// inherits are locked and it holds no capability over them. When the
// server exits the stage exits, and the kernel kills everything it
// started.

// command builds the process for one server command line.
func (sb *Sandbox) Command(line string) *exec.Cmd {
	cfg := stageConfig{Argv: []string{"/bin/sh", "-c", line}, Limits: sb.limits, Data: sb.dataLimit(), UID: -1, GID: -1, Hold: sb.cg != nil}
	var env []string
	if sb.isolated {
		env = sb.isolate(&cfg, true)
		cfg.Argv[2] = limitScript(sb.limits, sb.dataLimit(), sb.cg == nil) + line
	}
	return sb.stage(cfg, env)
}

// stage is the process that sets the sandbox up and starts cfg.Argv.
func (sb *Sandbox) stage(cfg stageConfig, env []string) *exec.Cmd {
	b, err := json.Marshal(cfg)
	if err != nil {
		// Only plain strings and numbers: cannot fail.
		panic(err)
	}
	cmd := exec.Command(sb.self)
	cmd.Env = append(env, stageEnvKey+"="+string(b))
	cmd.Dir = sb.dir // "": the current folder
	if !cfg.Isolate {
		// No namespaces: the limits, in a process group of its own.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
	}
	cmd.SysProcAttr = namespaceAttr()
	return cmd
}

// isolate fills in the sandbox of one process and returns the variables
// the server gets on top of the run's.
func (sb *Sandbox) isolate(cfg *stageConfig, stack bool) []string {
	cfg.Isolate = true
	cfg.Writable = sb.writable
	cfg.Locked = sb.locked
	cfg.UID, cfg.GID = sb.uid, sb.gid
	cfg.Root, cfg.Visible, cfg.Dir = filepath.Join(sb.aux, "root"), sb.visible, sb.dir
	var env []string
	if o := sb.nextOverlay(stack); o != nil {
		cfg.Overlay = o
		env = append(env, "GOCACHE="+o.Merged)
	}
	return env
}

// nextOverlay makes the Go build cache overlay of the next process: the
// grader's cache below, writes landing in a tmpfs of this process, so that
// the cache the harness is built from never changes. What a process added
// is kept, when it ends, as a layer of the run (stack), and the layers of
// the run's ended processes are stacked below the next one's, so that a
// second `go run` of the learner's server reuses what the first built.
// Nothing is made on disk for a process that builds nothing: folders made
// for every process, and the overlay's own on a disk file system, cost
// more than the rest of the sandbox.
func (sb *Sandbox) nextOverlay(stack bool) *overlay {
	if sb.goCache == "" {
		return nil
	}
	if _, err := os.Stat(sb.goCache); err != nil {
		return nil
	}
	dir := filepath.Join(sb.aux, "toolcache", "gobuild")
	o := &overlay{Scratch: filepath.Join(dir, "scratch"), Merged: filepath.Join(dir, "merged"), Size: sb.limits.Memory, Owner: -1}
	layers := filepath.Join(dir, "layers")
	for _, d := range []string{o.Scratch, o.Merged, layers} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil
		}
	}
	if sb.uid >= 0 {
		// The cache's folders belong to root: the stage makes a layer
		// above it holding the same folders, owned by the server, which
		// makes the merged ones its own.
		o.Owner = sb.uid
		_ = sb.own(o.Merged)
	}
	// Complete layers only (the stage renames one into place when it is
	// written), newest first.
	entries, _ := os.ReadDir(layers)
	for i := len(entries) - 1; i >= 0 && len(o.Lower) < maxStacked; i-- {
		if n := entries[i].Name(); !strings.HasPrefix(n, ".") {
			o.Lower = append(o.Lower, filepath.Join(layers, n))
		}
	}
	o.Lower = append(o.Lower, sb.goCache)
	if stack {
		o.Keep = layers
	}
	return o
}

// maxStacked bounds the ended processes' layers below a new overlay: the
// kernel takes at most a page of mount options.
const maxStacked = 12

func namespaceAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{
		Setpgid:    true,
		Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID,
		Pdeathsig:  syscall.SIGKILL,
	}
	if os.Geteuid() != 0 {
		// Unprivileged user namespaces: root inside maps to us outside,
		// only to build the mount tree; the server itself runs as
		// innerUID in a nested namespace (see runStage).
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}

// probe runs the probe (probe_linux.go) in the sandbox as a server would
// run, and returns the attempts that worked, or an error when the sandbox
// itself could not be set up.
func (sb *Sandbox) probe(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	dir := filepath.Join(sb.aux, "probe")
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	locked := filepath.Join(dir, "locked")
	if err := os.WriteFile(locked, []byte("locked"), 0o644); err != nil {
		return nil, err
	}
	if err := os.Chmod(locked, 0); err != nil {
		return nil, err
	}
	if err := sb.own(home); err != nil {
		return nil, err
	}
	pc := probeConfig{Home: home, Outside: filepath.Dir(sb.aux), Locked: locked, Cache: sb.goCache,
		Secret: homeSecret(sb.home, sb.visible), Beside: besideFolder(sb.project, append(slices.Clone(sb.visible), sb.writable...))}
	if sb.cg != nil {
		pc.Cgroup = filepath.Base(sb.cg.dirs[0])
	}
	b, err := json.Marshal(pc)
	if err != nil {
		return nil, err
	}
	cfg := stageConfig{Argv: []string{"/proc/self/exe"}, Limits: sb.limits, UID: -1, GID: -1, Hold: sb.cg != nil}
	env := sb.isolate(&cfg, false) // the probe's writes stay its own
	cfg.Locked = append(cfg.Locked, locked)
	cmd := sb.stage(cfg, append(env, "HOME="+home, probeEnvKey+"="+string(b)))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := sb.Start(cmd); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	for _, f := range []string{".pn-probe", ".pn-probe-userns"} {
		_ = os.Remove(filepath.Join(pc.Outside, f))
	}
	words := strings.Fields(stdout.String())
	if err != nil || len(words) == 0 || words[len(words)-1] != "done" {
		why := strings.TrimSpace(stderr.String())
		if why == "" && err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("%s", visible.Clip(why, 200))
	}
	return words[:len(words)-1], nil
}

// homeSecret picks a file of the grader's home that the server must not
// read: one outside the exposed entries.
func homeSecret(home string, expose []string) string {
	if home == "" {
		return ""
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		p := filepath.Join(home, e.Name())
		if e.Type().IsRegular() && !slices.Contains(expose, p) {
			return p
		}
	}
	return ""
}

// probeIsolation sets up the sandbox once with the probe as the server,
// and says what held. Anything short of the whole sandbox falls back to
// the process group, saying why and what is then not protected.
func probeIsolation(ctx context.Context, sb *Sandbox) (bool, string) {
	if sb.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return false, sb.fallback("the current folder, where the server starts, is unknown: " + err.Error())
		}
		sb.dir = wd
	}
	dir, err := filepath.Abs(sb.dir)
	if err != nil {
		return false, sb.fallback("the server's folder: " + err.Error())
	}
	sb.dir, sb.project = dir, projectDir(dir, sb.home)
	sb.visible = visiblePaths(sb.project, sb.home, sb.env, sb.goCache)
	if err := os.Mkdir(filepath.Join(sb.aux, "root"), 0o755); err != nil {
		return false, sb.fallback(err.Error())
	}
	broke, err := sb.probe(ctx)
	if err != nil {
		return false, sb.fallback("private namespaces not available: " + err.Error())
	}
	if len(broke) > 0 {
		return false, sb.fallback("the probe inside the sandbox could " + strings.Join(broke, ", "))
	}
	sb.lockedUnreadable = true
	who := fmt.Sprintf("as uid %d in a user namespace of its own (no capabilities, no_new_privs)", innerUID)
	if sb.uid >= 0 {
		who = fmt.Sprintf("as uid and gid %d, not root (no capabilities, no_new_privs)", sb.uid)
	}
	var system, tools []string
	for _, d := range sb.visible {
		switch {
		case d == sb.project:
		case slices.Contains(systemDirs, d):
			system = append(system, d)
		default:
			tools = append(tools, d)
		}
	}
	sees := fmt.Sprintf("; of the grader's files it saw only its own folder (read-only), the run's own folders, and read-only the system's (%s) and the toolchains' (%s)",
		strings.Join(system, ", "), strings.Join(tools, ", "))
	inCgroup := ""
	if sb.cg != nil {
		inCgroup = ", and ran inside the run's cgroup"
	}
	return true, fmt.Sprintf("process group; the server ran %s, in private mount, network and PID namespaces%s; %s. "+
		"A probe inside the sandbox, before the first check, could not remount or mount, not remount in a user namespace of its own, "+
		"not write outside the run's folders nor into the grader's Go build cache (each process builds into a layer of its own over it and over those of the run's ended processes), "+
		"not read nor chmod a mode-000 file, not read the grader's home nor see what is beside its folder, saw no network but loopback and only its own processes%s",
		who, sees, sb.limitsSentence(), inCgroup)
}

func (sb *Sandbox) fallback(why string) string {
	return "process group only: " + why + "; the server ran with the grader's rights, file system and network, in a minimal environment with HOME and TMPDIR pointed at fresh folders; " + sb.limitsSentence()
}
