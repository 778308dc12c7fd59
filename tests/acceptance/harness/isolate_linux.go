//go:build linux

package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// isolateScript runs as the first process of fresh mount, network and PID
// namespaces: it makes every mount read-only except the run's own folders,
// mounts a /proc for the new PID namespace and then runs the server command.
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
mount -t proc proc /proc
cmd=$PN_SERVER_COMMAND
unset PN_SERVER_COMMAND PN_WRITABLE
exec /bin/sh -c "$cmd"
`

const isolatedSentence = "process group; private mount, network and PID namespaces: no network, file system read-only except the run's temp folders and the Go build and module caches, every process the server started killed with it"

// command builds the process for one server command line.
func (sb *sandbox) command(line string) *exec.Cmd {
	if !sb.isolated {
		return shellCommand(line)
	}
	cmd := exec.Command("/bin/sh", "-c", isolateScript)
	cmd.SysProcAttr = namespaceAttr()
	cmd.Env = []string{"PN_SERVER_COMMAND=" + line, "PN_WRITABLE=" + strings.Join(sb.writable, ":")}
	return cmd
}

func namespaceAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{
		Setpgid:    true,
		Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID,
		Pdeathsig:  syscall.SIGKILL,
	}
	if os.Geteuid() != 0 {
		// Unprivileged user namespaces: root inside maps to us outside.
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}

// probeIsolation runs the isolation script once with a command that
// proves the file system outside the run is read-only and the network is
// gone; anything else falls back to the process group, saying why.
func probeIsolation(ctx context.Context, sb *sandbox) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	probe := fmt.Sprintf(`touch %q/.probe && rm %q/.probe && ! touch /.practice-notes-probe 2>/dev/null && ! tail -n +3 /proc/net/dev | grep -qv '^ *lo:'`, sb.aux, sb.aux)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", isolateScript)
	cmd.SysProcAttr = namespaceAttr()
	cmd.Env = []string{"PN_SERVER_COMMAND=" + probe, "PN_WRITABLE=" + strings.Join(sb.writable, ":"), "PATH=" + os.Getenv("PATH")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = err.Error()
		}
		return false, "process group only: private namespaces not available (" + clip(why, 160) + "); the server ran with the grader's rights and network, HOME and TMPDIR pointed at fresh folders"
	}
	return true, isolatedSentence
}
