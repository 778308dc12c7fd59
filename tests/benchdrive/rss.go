package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// rssRow is the peak resident memory of one server over a corpus given
// with -rss-corpus.
type rssRow struct {
	label  string
	files  int
	bytes  int64
	hwmKiB int64
}

// measureRSS runs one server over dir the way a client's session does:
// each phrase a few times, a pause long enough for notes to settle and be
// summarised between calls, and each phrase again, then reads its peak
// resident memory. Every answer is checked as in measure.
func measureRSS(label, dir string) (rssRow, error) {
	r := rssRow{label: label}
	var err error
	if r.files, r.bytes, err = corpusSize(dir); err != nil {
		return r, err
	}
	s, err := session(*bin, dir)
	if err != nil {
		return r, err
	}
	defer s.kill()
	round := func(n int) error {
		for range n {
			for _, p := range []string{*absent, *common, *present, *early} {
				_, got, err := s.call(p)
				if err != nil {
					return err
				}
				if (p == *absent || p == *common) && got != 0 {
					return fmt.Errorf("the absent phrase %q gave %d passages", p, got)
				}
			}
		}
		return nil
	}
	if err := round(3); err != nil {
		return r, err
	}
	time.Sleep(*rssPause)
	if err := round(10); err != nil {
		return r, err
	}
	if r.hwmKiB, err = s.peakRSS(); err != nil {
		return r, err
	}
	_, err = s.close()
	return r, err
}

func reportRSS(b *bytes.Buffer, rows []rssRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\nPeak RSS as the folder grows (one server per corpus: 3 calls of each phrase, %v idle, 10 more of each; VmHWM):\n\n", *rssPause)
	fmt.Fprintf(b, "| corpus | peak RSS |\n| --- | --- |\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| %s: %d × %s = %s | %.1f MiB |\n", r.label, r.files, size(r.bytes/int64(max(r.files, 1))), size(r.bytes), mib(r.hwmKiB))
	}
}

// rssTargets checks the memory goals: at most 40 MiB on every corpus, and
// flat as the folder grows past the summaries' budget of 10 MiB: from
// the first to the last -rss-corpus, both past it, at most 10% more.
func rssTargets(b *bytes.Buffer, rows []row, grow []rssRow) {
	peak, where := int64(0), ""
	for _, r := range rows {
		if r.hwmKiB > peak {
			peak, where = r.hwmKiB, r.label
		}
	}
	for _, r := range grow {
		if r.hwmKiB > peak {
			peak, where = r.hwmKiB, r.label
		}
	}
	fmt.Fprintf(b, "| peak RSS ≤ 40 MiB on every corpus | %.1f MiB at most (%s) | %s |\n", mib(peak), where, check(mib(peak) <= 40))
	if len(grow) < 2 {
		fmt.Fprintf(b, "| peak RSS flat as the folder grows past the summaries' budget | give two -rss-corpus folders | not measured |\n")
		return
	}
	first, last := grow[0], grow[len(grow)-1]
	var all []string
	for _, r := range grow {
		all = append(all, fmt.Sprintf("%.1f", mib(r.hwmKiB)))
	}
	fmt.Fprintf(b, "| peak RSS flat as the folder grows past the summaries' budget: ≤ 10%% more from %d to %d notes | %s MiB | %s |\n",
		first.files, last.files, strings.Join(all, ", "), check(float64(last.hwmKiB) <= 1.1*float64(first.hwmKiB)))
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

func check(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}
