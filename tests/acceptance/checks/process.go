package checks

import "strings"

// CheckWords names checks in a sentence: "check 4", "checks 4 and 5",
// "checks 1, 2 and 8", "no check". Every message that lists checks says
// it so, so that a list never runs into the words after it and an empty
// one never reads "check ,".
func CheckWords(ids []string) string {
	switch len(ids) {
	case 0:
		return "no check"
	case 1:
		return "check " + ids[0]
	}
	return "checks " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// GeneratedProcess stands where the checks a process served are listed
// (Process.Checks, Output.Checks, Leftover.Process) for the generated
// phase's server process, which searches a root of its own for check 1
// (GeneratedPhase).
const GeneratedProcess = "generated phase"

// ProcessOf names the server process that served the checks listed in
// ids ("1, 2, 3", as Process.Checks holds them): "the process of check
// 4", "the process of checks 1, 2 and 3", "the generated phase's process".
func ProcessOf(ids string) string {
	if ids == GeneratedProcess {
		return "the generated phase's process"
	}
	var list []string
	for _, id := range strings.Split(ids, ",") {
		if id = strings.TrimSpace(id); id != "" {
			list = append(list, id)
		}
	}
	if len(list) == 0 {
		return "a server process that served no check"
	}
	return "the process of " + CheckWords(list)
}
