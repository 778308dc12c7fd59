//go:build linux

package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runCgroup bounds the memory and the processes of all the server
// processes of one run together, on top of each process's rlimits: a
// learner graded with grade-class.sh -j N then cannot take more than its
// share, whatever its processes do between them. RLIMIT_DATA stays, since
// it also refuses an allocation that is reserved but not yet touched (the
// cgroup counts only memory in use); RLIMIT_NPROC is then not set, since
// it counts a uid's processes, not the run's (see limitScript).
//
// It is made where this process may create a child of its own cgroup with
// the memory and pids controllers: cgroup v1 (as root, usually), or v2
// where both controllers are delegated to the cgroup the harness runs in.
type runCgroup struct {
	version int
	dirs    []string // made, removed by remove
	procs   []string // cgroup.procs files a pid is written to
	oomFile string   // holds "oom_kill N"
	pidFile string   // holds "max N"
}

// newRunCgroup makes the cgroup of a run, or says why there is none.
func newRunCgroup(l Limits) (*runCgroup, error) {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("no cgroups: %w", err)
	}
	mounts, err := cgroupMounts()
	if err != nil {
		return nil, err
	}
	v1 := map[string]string{} // controller -> this process's folder
	v2 := ""
	for _, line := range strings.Split(strings.TrimSpace(string(own)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			if m, ok := mounts["cgroup2"]; ok {
				v2 = filepath.Join(m, parts[2])
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if m, ok := mounts[c]; ok {
				v1[c] = filepath.Join(m, parts[2])
			}
		}
	}
	if v1["memory"] != "" && v1["pids"] != "" {
		return newCgroupV1(v1["memory"], v1["pids"], l)
	}
	if v2 != "" {
		return newCgroupV2(v2, l)
	}
	return nil, errors.New("no memory and pids controllers are mounted")
}

func newCgroupV1(memParent, pidsParent string, l Limits) (*runCgroup, error) {
	cg := &runCgroup{version: 1}
	mem, err := os.MkdirTemp(memParent, "practice-notes-")
	if err != nil {
		return nil, fmt.Errorf("cannot create a child of the memory cgroup %s: %w", memParent, err)
	}
	cg.dirs = append(cg.dirs, mem)
	pids, err := os.MkdirTemp(pidsParent, "practice-notes-")
	if err != nil {
		cg.remove()
		return nil, fmt.Errorf("cannot create a child of the pids cgroup %s: %w", pidsParent, err)
	}
	cg.dirs = append(cg.dirs, pids)
	writes := [][2]string{
		{filepath.Join(mem, "memory.limit_in_bytes"), strconv.FormatInt(l.Memory, 10)},
		{filepath.Join(pids, "pids.max"), strconv.Itoa(l.Processes)},
	}
	if _, err := os.Stat(filepath.Join(mem, "memory.memsw.limit_in_bytes")); err == nil {
		// Memory and swap together: no way around the limit by swapping.
		writes = append(writes, [2]string{filepath.Join(mem, "memory.memsw.limit_in_bytes"), strconv.FormatInt(l.Memory, 10)})
	}
	if err := writeAll(writes); err != nil {
		cg.remove()
		return nil, err
	}
	cg.procs = []string{filepath.Join(mem, "cgroup.procs"), filepath.Join(pids, "cgroup.procs")}
	cg.oomFile, cg.pidFile = filepath.Join(mem, "memory.oom_control"), filepath.Join(pids, "pids.events")
	return cg, nil
}

func newCgroupV2(parent string, l Limits) (*runCgroup, error) {
	ctl, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
	if err != nil {
		return nil, fmt.Errorf("cgroup v2 at %s: %w", parent, err)
	}
	have := strings.Fields(string(ctl))
	if !slices.Contains(have, "memory") || !slices.Contains(have, "pids") {
		return nil, fmt.Errorf("cgroup v2: the memory and pids controllers are not delegated to %s (its children get %q)", parent, strings.TrimSpace(string(ctl)))
	}
	dir, err := os.MkdirTemp(parent, "practice-notes-")
	if err != nil {
		return nil, fmt.Errorf("cannot create a child of the cgroup %s: %w", parent, err)
	}
	cg := &runCgroup{version: 2, dirs: []string{dir}}
	writes := [][2]string{
		{filepath.Join(dir, "memory.max"), strconv.FormatInt(l.Memory, 10)},
		{filepath.Join(dir, "pids.max"), strconv.Itoa(l.Processes)},
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.swap.max")); err == nil {
		writes = append(writes, [2]string{filepath.Join(dir, "memory.swap.max"), "0"})
	}
	if err := writeAll(writes); err != nil {
		cg.remove()
		return nil, err
	}
	cg.procs = []string{filepath.Join(dir, "cgroup.procs")}
	cg.oomFile, cg.pidFile = filepath.Join(dir, "memory.events"), filepath.Join(dir, "pids.events")
	return cg, nil
}

func writeAll(writes [][2]string) error {
	for _, w := range writes {
		if err := os.WriteFile(w[0], []byte(w[1]), 0o644); err != nil {
			return fmt.Errorf("setting %s: %w", w[0], err)
		}
	}
	return nil
}

// cgroupMounts maps each cgroup v1 controller, and "cgroup2", to where
// its hierarchy is mounted.
func cgroupMounts() (map[string]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("listing the mounts: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, tail := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(tail) < 3 {
			continue
		}
		mp := unescapeMount(fields[4])
		switch tail[0] {
		case "cgroup2":
			if _, seen := out["cgroup2"]; !seen {
				out["cgroup2"] = mp
			}
		case "cgroup":
			for _, o := range strings.Split(tail[2], ",") {
				if _, seen := out[o]; !seen && o != "rw" && o != "ro" {
					out[o] = mp
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("listing the mounts: %w", err)
	}
	return out, nil
}

// add moves a process into the cgroup.
func (cg *runCgroup) add(pid int) error {
	for _, p := range cg.procs {
		if err := os.WriteFile(p, []byte(strconv.Itoa(pid)), 0o644); err != nil {
			return fmt.Errorf("moving the server into %s: %w", filepath.Dir(p), err)
		}
	}
	return nil
}

// counts reads how often each limit was reached so far.
func (cg *runCgroup) counts() Counts {
	return Counts{oomKills: counter(cg.oomFile, "oom_kill"), forkRefusals: counter(cg.pidFile, "max")}
}

// counter reads "key N" from a cgroup file, 0 when it is not there.
func counter(file, key string) int64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, " "); ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// remove kills what is left in the cgroup and removes it.
func (cg *runCgroup) remove() {
	if cg == nil {
		return
	}
	for _, d := range cg.dirs {
		for i := 0; i < 50; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// describe says what the cgroup bounds, for the report.
func (cg *runCgroup) describe(l Limits) string {
	return fmt.Sprintf("the server processes of this run together in a cgroup (v%d) of their own: %s of memory, %d processes and threads", cg.version, sizeName(l.Memory), l.Processes)
}
