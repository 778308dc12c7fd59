//go:build live

package checks

import "testing"

// TestJudgeGeneratedMutantsSeeds: every mistake is named on 20
// consecutive seeds, and a correct server gets nothing on them (the live
// matrix runs it: go test's run holds three seeds).
func TestJudgeGeneratedMutantsSeeds(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		g := generatedSet(seed)
		for _, m := range generatedMutants {
			t.Run(m.name, func(t *testing.T) {
				checkMutant(t, seed, playGenerated(g, m.f), m.want)
			})
		}
	}
}
