package class

import "fmt"

// seedLine states the seed of a learner's generated cases and how to
// replay them, for the learner's page.
func seedLine(seed uint64) string {
	return fmt.Sprintf("Generated cases: seed %d; the same cases again: scripts/acceptance.sh --seed %d", seed, seed)
}
