//go:build linux

package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The server is isolated with the kernel's own calls, driven by util-linux
// (mount, prlimit, setpriv, unshare), which every Linux that has
// namespaces ships: no daemon, no setuid helper and no package to install
// on an instructor's machine or in CI. bubblewrap would build the same
// tree, but it is one more dependency, and as root it does not change the
// uid by itself.
//
// isolateScript runs as the first process of fresh mount, network and PID
// namespaces (in a user namespace too when the grader is not root). It
// makes every mount read-only except the run's own folders, overlays the
// Go build cache, hides the grader's home but for the toolchain folders,
// mounts a /proc for the new PID namespace, sets the limits and then
// drops to the server's identity: as root, setpriv to the slot's uid and
// gid with no capabilities; otherwise a nested user and mount namespace in
// which the server is uid 1000, so that the mounts it inherits are locked
// and it holds no capability over them. Either way no_new_privs is set.
// When the server's shell exits, the kernel kills everything it started.
const isolateScript = `set -e
mount --make-rprivate /
while read -r _ _ _ _ mp _; do
	case "$mp" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) continue ;; esac
	mount -o remount,bind,ro "$mp" 2>/dev/null || true
done < /proc/self/mountinfo
IFS=:
for d in $PN_WRITABLE; do
	mount --bind "$d" "$d"
	mount -o remount,bind,rw "$d"
done
unset IFS
if [ -n "$PN_OVERLAY" ]; then
	set -- $PN_OVERLAY
	mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,volatile" "$4"
fi
if [ -n "$PN_HIDE" ]; then
	IFS=:
	set -- $PN_EXPOSE
	unset IFS
	for d; do
		mount --rbind "$d" "$PN_VIEW/${d##*/}"
	done
	mount -t tmpfs -o size=64k,mode=0755 hidden "$PN_HIDE"
	(cd "$PN_HIDE" && for d; do echo "${d##*/}"; done | xargs -r mkdir)
	for d; do
		# A bind of a read-only mount is read-only itself.
		mount --rbind "$PN_VIEW/${d##*/}" "$PN_HIDE/${d##*/}"
	done
	mount -o remount,bind,ro "$PN_HIDE"
fi
mount -t proc proc /proc
cmd=$PN_SERVER_COMMAND
limits=$PN_LIMITS
drop=$PN_DROP
unset PN_SERVER_COMMAND PN_WRITABLE PN_OVERLAY PN_HIDE PN_EXPOSE PN_VIEW PN_LIMITS PN_DROP
exec prlimit $limits -- $drop /bin/sh -c "$cmd"
`

// command builds the process for one server command line.
func (sb *sandbox) command(line string) *exec.Cmd {
	if !sb.isolated {
		return sb.limited(line)
	}
	cmd := exec.Command("/bin/sh", "-c", isolateScript)
	cmd.SysProcAttr = namespaceAttr()
	cmd.Env = append(sb.stageEnv(line), sb.perProcess()...)
	return cmd
}

// limited runs the command in its own process group under the limits,
// where prlimit exists: the fallback when namespaces are not available.
func (sb *sandbox) limited(line string) *exec.Cmd {
	cmd := shellCommand(line)
	if p, err := exec.LookPath("prlimit"); err == nil {
		cmd.Args = append(append([]string{p}, sb.prlimitArgs()...), append([]string{"--"}, cmd.Args...)...)
		cmd.Path = p
	}
	return cmd
}

func (sb *sandbox) prlimitArgs() []string {
	l := sb.limits
	return []string{
		"--data=" + strconv.FormatInt(l.Memory, 10),
		"--nproc=" + strconv.Itoa(l.Processes),
		"--cpu=" + strconv.Itoa(int(l.CPUTime.Seconds())),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
	}
}

// stageEnv is what the isolation script reads.
func (sb *sandbox) stageEnv(line string) []string {
	drop := "unshare --user --map-user=" + strconv.Itoa(innerUID) + " --map-group=" + strconv.Itoa(innerUID) + " --mount -- setpriv --no-new-privs --"
	if sb.uid >= 0 {
		drop = fmt.Sprintf("setpriv --reuid=%d --regid=%d --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all --", sb.uid, sb.gid)
	}
	env := []string{
		"PN_SERVER_COMMAND=" + line,
		"PN_WRITABLE=" + strings.Join(sb.writable, ":"),
		"PN_LIMITS=" + strings.Join(sb.prlimitArgs(), " "),
		"PN_DROP=" + drop,
		"PATH=" + os.Getenv("PATH"),
	}
	if sb.hideHome != "" {
		// The exposed entries are mounted at a view in the run's folders
		// first, since the empty home covers the originals.
		env = append(env, "PN_HIDE="+sb.hideHome, "PN_EXPOSE="+strings.Join(sb.expose, ":"), "PN_VIEW="+filepath.Join(sb.aux, "home-view"))
	}
	return env
}

// perProcess makes the Go build cache overlay of the next process: the
// grader's cache below, writes landing in a folder of this process, so
// that `go run` stays fast and the cache the harness is built from never
// changes.
func (sb *sandbox) perProcess() []string {
	if sb.goCache == "" {
		return nil
	}
	if _, err := os.Stat(sb.goCache); err != nil {
		return nil
	}
	sb.procs++
	dir := filepath.Join(sb.aux, "toolcache", fmt.Sprintf("gobuild-%02d", sb.procs))
	upper, work, merged := filepath.Join(dir, "upper"), filepath.Join(dir, "work"), filepath.Join(dir, "merged")
	for _, d := range []string{upper, work, merged} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil
		}
	}
	lower := sb.goCache
	if sb.uid >= 0 {
		// The cache's folders belong to root: a layer above it holding
		// the same folders, owned by the server, makes the merged ones
		// its own. It is made once per run, read by every overlay.
		skel := filepath.Join(sb.aux, "toolcache", "gobuild-skeleton")
		if _, err := os.Stat(skel); err != nil {
			if err := os.MkdirAll(skel, 0o755); err != nil {
				return nil
			}
			for i := 0; i < 256; i++ {
				_ = os.Mkdir(filepath.Join(skel, fmt.Sprintf("%02x", i)), 0o755)
			}
			_ = sb.own(skel)
		}
		lower = skel + ":" + sb.goCache
		_ = sb.own(upper, merged)
	}
	return []string{"PN_OVERLAY=" + strings.Join([]string{lower, upper, work, merged}, " "), "GOCACHE=" + merged}
}

func namespaceAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{
		Setpgid:    true,
		Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID,
		Pdeathsig:  syscall.SIGKILL,
	}
	if os.Geteuid() != 0 {
		// Unprivileged user namespaces: root inside maps to us outside,
		// only to build the mount tree; the server itself runs as
		// innerUID in a nested namespace (see isolateScript).
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}

// probeScript runs as a server would, inside the sandbox, and tries what
// a hostile server would: it prints one word for every attempt that
// worked, and "done" last.
const probeScript = `
[ "$(id -u)" = 0 ] && echo uid0
grep -Eq '^CapEff:[[:space:]]*0+$' /proc/self/status || echo capabilities
grep -Eq '^NoNewPrivs:[[:space:]]*1$' /proc/self/status || echo new-privileges
mount -o remount,rw / 2>/dev/null && echo remount
mount -t tmpfs x "$PN_PROBE_HOME" 2>/dev/null && echo mount
unshare --user --map-root-user --mount sh -c 'mount -o remount,rw / && touch /.pn-probe' 2>/dev/null && echo remount-in-userns
touch "$PN_PROBE_OUTSIDE/.pn-probe" 2>/dev/null && echo write-outside
[ -n "$PN_PROBE_CACHE" ] && touch "$PN_PROBE_CACHE/.pn-probe" 2>/dev/null && echo write-grader-cache
[ -n "$GOCACHE" ] && [ -n "$PN_PROBE_CACHE" ] && touch "$GOCACHE/.pn-probe" 2>/dev/null && [ -e "$PN_PROBE_CACHE/.pn-probe" ] && echo write-grader-cache
[ -n "$PN_PROBE_SECRET" ] && cat "$PN_PROBE_SECRET" >/dev/null 2>&1 && echo read-grader-home
cat "$PN_PROBE_LOCKED" >/dev/null 2>&1 && echo read-locked
tail -n +3 /proc/net/dev | grep -qv '^ *lo:' && echo network
[ "$(ls /proc | grep -c '^[0-9]')" -gt 8 ] && echo other-processes
echo done
`

// probe runs probeScript in the sandbox and returns the attempts that
// worked, or an error when the sandbox itself could not be set up.
func (sb *sandbox) probe(ctx context.Context) ([]string, error) {
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
	outside := filepath.Dir(sb.aux) // the temp folder the run's folders live in
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", isolateScript)
	cmd.SysProcAttr = namespaceAttr()
	cmd.Env = append(sb.stageEnv(probeScript), sb.perProcess()...)
	cmd.Env = append(cmd.Env, "PN_PROBE_HOME="+home, "PN_PROBE_OUTSIDE="+outside, "PN_PROBE_LOCKED="+locked, "HOME="+home)
	if sb.goCache != "" {
		cmd.Env = append(cmd.Env, "PN_PROBE_CACHE="+sb.goCache)
	}
	if secret := homeSecret(sb.hideHome, sb.expose); secret != "" {
		cmd.Env = append(cmd.Env, "PN_PROBE_SECRET="+secret)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	_ = os.Remove(filepath.Join(outside, ".pn-probe"))
	words := strings.Fields(stdout.String())
	if err != nil || len(words) == 0 || words[len(words)-1] != "done" {
		why := strings.TrimSpace(stderr.String())
		if why == "" && err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("%s", clip(why, 200))
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
		if e.Type().IsRegular() && !contains(expose, p) {
			return p
		}
	}
	return ""
}

// probeIsolation sets up the sandbox once with the probe as the server,
// and says what held. Anything short of the whole sandbox falls back to
// the process group, saying why and what is then not protected.
func probeIsolation(ctx context.Context, sb *sandbox) (bool, string) {
	for _, d := range sb.expose {
		if err := os.MkdirAll(filepath.Join(sb.aux, "home-view", filepath.Base(d)), 0o755); err != nil {
			return false, fallback(err.Error())
		}
	}
	broke, err := sb.probe(ctx)
	if err != nil {
		return false, fallback("private namespaces not available: " + err.Error())
	}
	if len(broke) > 0 {
		return false, fallback("the probe inside the sandbox could " + strings.Join(broke, ", "))
	}
	sb.lockedUnreadable = true
	who := fmt.Sprintf("as uid %d in a user namespace of its own (no capabilities, no_new_privs)", innerUID)
	if sb.uid >= 0 {
		who = fmt.Sprintf("as uid and gid %d, not root (no capabilities, no_new_privs)", sb.uid)
	}
	hidden := ""
	if sb.hideHome != "" {
		var names []string
		for _, d := range sb.expose {
			names = append(names, filepath.Base(d))
		}
		hidden = fmt.Sprintf("; the grader's home %s hidden", sb.hideHome)
		if len(names) > 0 {
			hidden += " but for " + strings.Join(names, ", ") + " (read-only)"
		}
	}
	return true, fmt.Sprintf("process group; the server ran %s, in private mount, network and PID namespaces%s; limits: %s. "+
		"A probe inside the sandbox, before the first check, could not remount or mount, not remount in a user namespace of its own, "+
		"not write outside the run's folders nor into the grader's Go build cache (each process builds into an overlay of its own), "+
		"not read a mode-000 file nor the grader's hidden home, saw no network but loopback and only its own processes",
		who, hidden, sb.limits)
}

func fallback(why string) string {
	return "process group only: " + why + "; the server ran with the grader's rights, file system and network, in a minimal environment with HOME and TMPDIR pointed at fresh folders and the limits set where prlimit exists"
}
