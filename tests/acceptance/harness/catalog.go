package harness

import "practice-notes/tests/acceptance/checks"

// CheckIDs lists every check id in report order.
func CheckIDs() []string {
	var ids []string
	for _, c := range checks.All() {
		ids = append(ids, c.ID)
	}
	return ids
}
