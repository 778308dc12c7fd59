package diagnose

import (
	"bytes"
	"strings"

	"practice-notes/tests/acceptance/truth"
)

// StaleText returns the diagnosis of a reply whose strings hold a
// paragraph of a note as it was before it changed or was removed, and
// that no note holds now; ok is false when none does.
func StaleText(root Root, strs []string) (Diagnosis, bool) {
	var files []string
	for name, e := range root.Before {
		now, ok := root.Now[name]
		if ok && bytes.Equal(now.Data, e.Data) {
			continue // unchanged
		}
		for _, p := range paragraphs(e.Data) {
			if len(p) < 8 || heldNow(root.Now, p) {
				continue
			}
			for _, s := range strs {
				if strings.Contains(s, p) {
					files = append(files, name)
					break
				}
			}
		}
	}
	if len(files) == 0 {
		return Diagnosis{}, false
	}
	return diagnosis(Stale, files...), true
}

func heldNow(t truth.Tree, p string) bool {
	for _, e := range t {
		if bytes.Contains(e.Data, []byte(p)) {
			return true
		}
	}
	return false
}
