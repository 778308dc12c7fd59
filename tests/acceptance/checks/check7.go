package checks

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"practice-notes/tests/acceptance/visible"
)

var check7 = &Check{
	ID:      "7",
	Process: RunWide,
	Section: SectionAcceptance,
	Title:   "checksums and mtimes of every fixture are unchanged, no file created or removed",
	Hint:    "Open notes read-only and write nothing: no caches, logs or history files inside or outside the root.",
	// The run-wide file-state rule: every entry under the temp folder,
	// inside and outside the root, compared before and after the run.
	Needs: []need{needFiles, needOtherFiles, needCalls, needAnswered},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		if f.Files == nil {
			return v
		}
		before, after := f.Files.Before, f.Files.After
		for _, d := range diffStates(before, after) {
			v.Findings = append(v.Findings, Finding{Msg: d, Detail: changeDetail(d, f.Files)})
		}
		// The tools besides search_notes ran on a copy of their own:
		// what they changed there is charged here too.
		if o := f.OtherFiles; o != nil {
			for _, d := range diffStates(o.Before, o.After) {
				v.Findings = append(v.Findings, Finding{Msg: "in the process of other tools (on a fresh copy of the fixtures): " + d, Detail: changeDetail(d, o)})
			}
		}
		if f.Answered == 0 {
			v.Findings = append(v.Findings, Finding{Msg: "no call was answered, so an unchanged tree proves nothing"})
		}
		for _, p := range sortedKeys(before) {
			st := before[p]
			line := fmt.Sprintf("%-8s %-44s mtime %s", st.Kind, p, st.MTime.UTC().Format("15:04:05.000000000"))
			switch st.Kind {
			case "file":
				line += fmt.Sprintf(" %7d B sha256 %.16s…", st.Size, st.SHA256)
			case "symlink":
				line += " -> " + st.Target
			}
			if a, ok := after[p]; ok && a.SHA256 == st.SHA256 && a.MTime.Equal(st.MTime) && a.Target == st.Target {
				line += "  unchanged"
			} else {
				line += "  CHANGED"
			}
			v.Observed = append(v.Observed, line)
		}
		for _, p := range sortedKeys(after) {
			if _, ok := before[p]; !ok {
				v.Observed = append(v.Observed, "created  "+p)
			}
		}
		files, dirs, links := FileCounts(before)
		v.Summary = fmt.Sprintf("sha256, mtime, mode and presence of %d files, %d directories and %d symlinks inside and outside the root unchanged after %d calls", files, dirs, links, f.Calls)
		return v
	},
	Test:    7,
	Says:    `\bchecksums?\b|\bsha-?256\b|\bhash(?:es)?\b|\bmtimes?\b|\bsuma de verificacion\b|\bsommes? de controle\b|\bprufsumme\w*|\bsoma de verificacao\b|\bsomma di controllo\b|\bcontrolesom\w*|\bsumy? kontroln\w*`,
	Forbids: forbidsWriting,
	Keeps:   keepsReadOnly,
}

func sortedKeys(m map[string]FileState) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// diffStates lists every created, removed or changed entry: created and
// removed first, then content, then metadata.
func diffStates(before, after map[string]FileState) []string {
	var out []string
	for p, b := range before {
		a, ok := after[p]
		if !ok {
			out = append(out, fmt.Sprintf("removed %s (%s)", p, b.Kind))
			continue
		}
		switch {
		case a.Kind != b.Kind:
			out = append(out, fmt.Sprintf("changed %s: kind %s -> %s", p, b.Kind, a.Kind))
		case a.SHA256 != b.SHA256:
			out = append(out, fmt.Sprintf("changed %s: sha256 %.12s… -> %.12s…", p, b.SHA256, a.SHA256))
		case a.Target != b.Target:
			out = append(out, fmt.Sprintf("changed %s: symlink target %q -> %q", p, b.Target, a.Target))
		case a.Mode != b.Mode:
			out = append(out, fmt.Sprintf("changed %s: mode %v -> %v", p, b.Mode, a.Mode))
		case !a.MTime.Equal(b.MTime):
			out = append(out, fmt.Sprintf("changed %s: mtime %s -> %s", p, b.MTime.Format(time.RFC3339Nano), a.MTime.Format(time.RFC3339Nano)))
		}
	}
	for p, a := range after {
		if _, ok := before[p]; !ok {
			out = append(out, fmt.Sprintf("created %s (%s)", p, a.Kind))
		}
	}
	rank := func(s string) int {
		switch {
		case strings.HasPrefix(s, "created"), strings.HasPrefix(s, "removed"):
			return 0
		case strings.Contains(s, "sha256"), strings.Contains(s, "kind"), strings.Contains(s, "target"):
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i]), rank(out[j]); ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

// ChangedFiles lists the regular files created or changed, whose bodies
// the judge quotes.
func ChangedFiles(before, after map[string]FileState) []string {
	var out []string
	for p, a := range after {
		if b, ok := before[p]; a.Kind == "file" && (!ok || b.SHA256 != a.SHA256) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// changeDetail quotes what a created or changed file named in d now
// holds, so that the record shows what the server wrote.
func changeDetail(d string, files *FileFacts) []string {
	for _, p := range ChangedFiles(files.Before, files.After) {
		body, ok := files.Bodies[p]
		if !ok || !strings.Contains(d, " "+p) {
			continue
		}
		return []string{fmt.Sprintf("%s now holds %d bytes: %q", p, files.After[p].Size, visible.Truncate(body, 200))}
	}
	return nil
}

// FileCounts counts the files, directories and symlinks of a state.
func FileCounts(states map[string]FileState) (files, dirs, links int) {
	for _, st := range states {
		switch st.Kind {
		case "file":
			files++
		case "dir":
			dirs++
		case "symlink":
			links++
		}
	}
	return
}
