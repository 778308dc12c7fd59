package class

import "fmt"

// seedLine states the seed of a learner's generated cases and how to
// replay them, for the learner's page.
func seedLine(seed uint64) string {
	return fmt.Sprintf("Generated cases: seed %d; the same cases again: add --seed %d to the command under \"Rerun the checks\"", seed, seed)
}
