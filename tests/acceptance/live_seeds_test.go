//go:build live

package acceptance_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"practice-notes/tests/acceptance/harness"
)

// seededServer is a correct server of the live matrix, graded on
// consecutive seeds.
type seededServer struct {
	name   string
	config harness.Config // Server, ServerDir, Isolation as the matrix grades it
	quirks []string
}

// TestCorrectServersOnSeeds grades every correct server of the live
// matrix (the correct learners of TestLearnerServers, the correct fixture
// servers and this repository's server) on seeds 1 to -generated-seeds:
// each must have 0 failed and no warning beyond its family's quirks on
// every seed. Seed 1 is a whole run; seeds 2 onwards run the generated
// phase alone (harness.Config.GeneratedOnly), the one part of a run the
// seed changes, so the whole run and the phases grade each server as 20
// whole runs would, in a fraction of the time.
func TestCorrectServersOnSeeds(t *testing.T) {
	servers := correctServers(t)
	seeds := *generatedSeeds
	reports := make([][]*harness.Report, len(servers))
	errs := make([][]error, len(servers))
	stalled, names := make([][]string, len(servers)), make([]string, len(servers))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	start := time.Now()
	for i, s := range servers {
		reports[i], errs[i], stalled[i], names[i] = make([]*harness.Report, seeds), make([]error, seeds), make([]string, seeds), s.name
		for n := range seeds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cfg := s.config
				cfg.PracticeData, cfg.Seed, cfg.GeneratedOnly = testPracticeData, uint64(n+1), n > 0
				cfg.Timeout, cfg.ExitTimeout = seededCallLimit, 2*time.Second
				reports[i][n], stalled[i][n], errs[i][n] = gradeSeed(cfg)
			}()
		}
	}
	wg.Wait()
	logRegraded(t, names, stalled)
	t.Logf("%d servers on seeds 1 to %d in %s", len(servers), seeds, time.Since(start).Round(time.Second))
	for i, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			var whole, phases time.Duration
			for n, rep := range reports[i] {
				if rep != nil && n == 0 {
					whole = time.Duration(rep.DurationMs) * time.Millisecond
				} else if rep != nil {
					phases += time.Duration(rep.DurationMs) * time.Millisecond
				}
				if errs[i][n] != nil {
					t.Errorf("seed %d: %v", n+1, errs[i][n])
					continue
				}
				if n == 0 {
					checkContract(t, rep)
				} else {
					checkGeneratedOnly(t, uint64(n+1), rep)
				}
				checkGenerated(t, generatedServer{name: s.name, quirks: s.quirks}, uint64(n+1), rep)
			}
			t.Logf("whole run (seed 1) %s; the generated phase alone on %d more seeds %s", whole, len(reports[i])-1, phases)
		})
	}
}

// correctServers lists the servers the matrix holds correct: the learners
// with no failure or warning to show, the fixture servers with no check
// to fail, and this repository's server.
func correctServers(t *testing.T) []seededServer {
	t.Helper()
	var out []seededServer
	for _, l := range learners {
		if len(l.fail)+len(l.warn) > 0 {
			continue
		}
		s := seededServer{name: l.name, config: harness.Config{Server: learnerServer(t, l)}, quirks: families[l.family].quirks}
		if l.config != nil {
			l.config(&s.config)
		}
		out = append(out, s)
	}
	for _, fs := range fixtureServers {
		if len(fs.wantFailed) == 0 {
			out = append(out, seededServer{name: "fixture " + fs.server,
				config: harness.Config{Server: fixtureBin(t, fs.server) + " serve -root {root}", ServerDir: binDir}, quirks: fs.quirks})
		}
	}
	bin := buildServer(t, "repository-server", "practice-notes")
	return append(out, seededServer{name: "this repository's server",
		config: harness.Config{Server: bin + " serve -root {root}", ServerDir: binDir}})
}

// checkGeneratedOnly holds a run of the generated phase alone to what it
// promises: the report states the seed, one process ran, the phase was
// not cut short, and every check it charged nothing to is skipped.
func checkGeneratedOnly(t *testing.T, seed uint64, rep *harness.Report) {
	t.Helper()
	if rep.Processes != 1 {
		t.Errorf("seed %d: the generated phase alone started %d processes, want 1", seed, rep.Processes)
	}
	for _, c := range rep.Checks {
		if i := slices.IndexFunc(c.Notes, func(n string) bool { return strings.HasPrefix(n, "the generated phase") }); i >= 0 {
			t.Errorf("seed %d: check %s: %s", seed, c.ID, c.Notes[i])
		}
	}
	if rep.Passed != 0 {
		t.Errorf("seed %d: %d checks passed in a run of the generated phase alone, which runs none of them whole", seed, rep.Passed)
	}
}
