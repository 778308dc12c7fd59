//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The probe is the harness binary again, run by the stage in place of a
// server: it tries what a hostile server would and prints one word for
// every attempt that worked, then "done". It makes the calls itself, so
// that what it measures does not depend on the tools installed.
const probeEnvKey = "PRACTICE_NOTES_SANDBOX_PROBE"

type probeConfig struct {
	Home    string `json:"home"`    // a folder of its own, to mount on
	Outside string `json:"outside"` // the folder the run's folders live in
	Locked  string `json:"locked"`  // a mode-000 file of the grader's
	Cache   string `json:"cache,omitempty"`
	Secret  string `json:"secret,omitempty"` // a file of the grader's home, not to be seen
	// Beside is what lies next to the server's folder (a classmate's
	// folder in a class): it must not be there at all.
	Beside string `json:"beside,omitempty"`
	// Cgroup names the run's cgroup, which the probe must be in.
	Cgroup string `json:"cgroup,omitempty"`
	// UserNS: this is the second probe, root of a user namespace of its
	// own, trying to undo the mounts from there.
	UserNS bool `json:"userns,omitempty"`
}

func runProbe(conf string) int {
	var cfg probeConfig
	if err := json.Unmarshal([]byte(conf), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "probe: %v\n", err)
		return 2
	}
	var broke []string
	if cfg.UserNS {
		broke = probeUserNS(cfg)
	} else {
		broke = probeAll(cfg)
	}
	for _, w := range broke {
		fmt.Println(w)
	}
	fmt.Println("done")
	return 0
}

func probeAll(cfg probeConfig) []string {
	var broke []string
	if os.Getuid() == 0 || os.Geteuid() == 0 {
		broke = append(broke, "uid0")
	}
	status, _ := os.ReadFile("/proc/self/status")
	if v := statusField(string(status), "CapEff"); strings.Trim(v, "0") != "" || v == "" {
		broke = append(broke, "capabilities")
	}
	if statusField(string(status), "NoNewPrivs") != "1" {
		broke = append(broke, "new-privileges")
	}
	if remountRW("/") {
		broke = append(broke, "remount")
	}
	if unix.Mount("probe", cfg.Home, "tmpfs", 0, "") == nil {
		_ = unix.Unmount(cfg.Home, unix.MNT_DETACH)
		broke = append(broke, "mount")
	}
	// The same from a user namespace of its own, where it is root.
	sub := cfg
	sub.UserNS = true
	if words, err := probeChild(sub); err == nil {
		broke = append(broke, words...)
	}
	if created(filepath.Join(cfg.Outside, ".pn-probe")) {
		broke = append(broke, "write-outside")
	}
	if cfg.Cache != "" {
		if created(filepath.Join(cfg.Cache, ".pn-probe")) {
			broke = append(broke, "write-grader-cache")
		} else if gc := os.Getenv("GOCACHE"); gc != "" && gc != cfg.Cache {
			// Through the overlay: the write must land in the run's layer.
			if created(filepath.Join(gc, ".pn-probe")) && exists(filepath.Join(cfg.Cache, ".pn-probe")) {
				broke = append(broke, "write-grader-cache")
			}
		}
	}
	if cfg.Secret != "" && readable(cfg.Secret) {
		broke = append(broke, "read-grader-home")
	}
	if cfg.Beside != "" && exists(cfg.Beside) {
		broke = append(broke, "see-beside-its-folder")
	}
	if readable(cfg.Locked) {
		broke = append(broke, "read-locked")
	} else if os.Chmod(cfg.Locked, 0o644) == nil {
		// Where the server's uid maps to the grader's it owns the file.
		broke = append(broke, "unlock-locked")
	}
	if dev, err := os.ReadFile("/proc/net/dev"); err == nil {
		lines := strings.Split(strings.TrimSpace(string(dev)), "\n")
		for _, l := range lines[min(2, len(lines)):] {
			if name, _, _ := strings.Cut(strings.TrimSpace(l), ":"); name != "lo" {
				broke = append(broke, "network")
				break
			}
		}
	} else {
		broke = append(broke, "network") // unknown: say so
	}
	if cfg.Cgroup != "" {
		if own, _ := os.ReadFile("/proc/self/cgroup"); !strings.Contains(string(own), "/"+cfg.Cgroup) {
			broke = append(broke, "outside-the-cgroup")
		}
	}
	if entries, err := os.ReadDir("/proc"); err == nil {
		n := 0
		for _, e := range entries {
			if e.Name()[0] >= '0' && e.Name()[0] <= '9' {
				n++
			}
		}
		if n > 8 {
			broke = append(broke, "other-processes")
		}
	}
	return broke
}

// probeUserNS runs as root of a user namespace of its own: the mounts it
// inherited must stay as they are.
func probeUserNS(cfg probeConfig) []string {
	var broke []string
	if remountRW("/") || created(filepath.Join(cfg.Outside, ".pn-probe-userns")) {
		broke = append(broke, "remount-in-userns")
	}
	if unix.Unmount("/", unix.MNT_DETACH) == nil {
		broke = append(broke, "unmount-in-userns")
	}
	if cfg.Secret != "" && readable(cfg.Secret) {
		broke = append(broke, "read-grader-home-in-userns")
	}
	return broke
}

// probeChild runs the second probe in a new user and mount namespace.
func probeChild(cfg probeConfig) ([]string, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = []string{probeEnvKey + "=" + string(b)}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.Output()
	if err != nil {
		// No user namespace could be made: nothing to undo from there.
		return nil, err
	}
	words := strings.Fields(string(out))
	if len(words) == 0 || words[len(words)-1] != "done" {
		return nil, errors.New("the second probe did not finish")
	}
	return words[:len(words)-1], nil
}

// remountRW tries the ways a mount is made writable again.
func remountRW(mp string) bool {
	if unix.Mount("", mp, "", unix.MS_REMOUNT, "") == nil {
		return true
	}
	if unix.Mount("", mp, "", unix.MS_REMOUNT|unix.MS_BIND, "") == nil {
		return true
	}
	return unix.MountSetattr(unix.AT_FDCWD, mp, unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}) == nil
}

func created(p string) bool {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func readable(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// statusField is one field of /proc/self/status.
func statusField(status, name string) string {
	for _, l := range strings.Split(status, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && k == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
