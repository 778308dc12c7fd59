package main

import (
	"bytes"
	"fmt"
	"time"
)

// scaleRow holds the measurements of one corpus given with -scale-corpus,
// for the binary measured and, with -base, a second one alternated with it.
type scaleRow struct {
	label string
	files int
	bytes int64
	// By binary ("ours", "base") and, for rg, by phrase kind.
	first, absent, common map[string][]time.Duration
	rgFirst               []time.Duration
	rg                    map[string][]time.Duration
	hwmKiB                map[string]int64
}

// measureScale measures a large folder the way the scale targets are
// stated: the first call of a fresh server (the absent phrase), then, in
// one session after an idle pause for summaries to be made, steady calls a
// second apart of the absent phrase and of the absent phrase of common
// words, each followed by rg on the same folder; and the server's peak
// RSS. With -base, the base binary runs beside it in the same rounds:
// ours, rg, base, one after another.
func measureScale(label, dir string) (scaleRow, error) {
	r := scaleRow{label: label, first: map[string][]time.Duration{}, absent: map[string][]time.Duration{},
		common: map[string][]time.Duration{}, rg: map[string][]time.Duration{}, hwmKiB: map[string]int64{}}
	var err error
	if r.files, r.bytes, err = corpusSize(dir); err != nil {
		return r, err
	}
	bins := map[string]string{"ours": *bin}
	order := []string{"ours"}
	if *baseBin != "" {
		bins["base"] = *baseBin
		order = append(order, "base")
	}
	rgRun := func(phrase string) (time.Duration, error) {
		d, _, err := wholeProcess(*rgPath, "-i", "-F", "-c", "--", phrase, dir)
		return d, err
	}
	for range *scaleFirsts {
		for i, name := range order {
			d, err := firstCall(bins[name], dir)
			if err != nil {
				return r, fmt.Errorf("%s: %w", name, err)
			}
			r.first[name] = append(r.first[name], d)
			if i == 0 && *rgPath != "" {
				d, err := rgRun(*absent)
				if err != nil {
					return r, err
				}
				r.rgFirst = append(r.rgFirst, d)
			}
		}
	}
	sessions := map[string]*server{}
	for _, name := range order {
		s, err := session(bins[name], dir)
		if err != nil {
			return r, fmt.Errorf("%s: %w", name, err)
		}
		defer s.kill()
		sessions[name] = s
		if _, _, err := s.call(*absent); err != nil {
			return r, err
		}
	}
	time.Sleep(*scaleIdle)
	for range *scaleRounds {
		for _, kind := range []string{"absent", "common"} {
			phrase := *absent
			if kind == "common" {
				phrase = *common
			}
			for i, name := range order {
				d, n, err := sessions[name].call(phrase)
				if err != nil {
					return r, fmt.Errorf("%s: %w", name, err)
				}
				if n != 0 {
					return r, fmt.Errorf("%s: the absent phrase %q gave %d passages", name, phrase, n)
				}
				if kind == "absent" {
					r.absent[name] = append(r.absent[name], d)
				} else {
					r.common[name] = append(r.common[name], d)
				}
				if i == 0 && *rgPath != "" {
					d, err := rgRun(phrase)
					if err != nil {
						return r, err
					}
					r.rg[kind] = append(r.rg[kind], d)
				}
			}
		}
		time.Sleep(*scaleGap)
	}
	for _, name := range order {
		if r.hwmKiB[name], err = sessions[name].peakRSS(); err != nil {
			return r, err
		}
		if _, err := sessions[name].close(); err != nil {
			return r, err
		}
	}
	return r, nil
}

func reportScale(b *bytes.Buffer, rows []scaleRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\nLarge folders (medians; first call over %d fresh servers; steady calls %v apart after %v idle, %d rounds; ratios to rg):\n\n",
		*scaleFirsts, *scaleGap, *scaleIdle, *scaleRounds)
	fmt.Fprintf(b, "| corpus | build | first call | steady, absent | steady, common words | rg (first / absent / common) | peak RSS |\n")
	fmt.Fprintf(b, "| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		rgF, rgA, rgC := median(r.rgFirst), median(r.rg["absent"]), median(r.rg["common"])
		for i, name := range []string{"ours", "base"} {
			if len(r.first[name]) == 0 {
				continue
			}
			corpus, rgs := "", ""
			if i == 0 {
				corpus = fmt.Sprintf("%s: %d × %s", r.label, r.files, size(r.bytes/int64(max(r.files, 1))))
				rgs = fmt.Sprintf("%s / %s / %s", ms(rgF), ms(rgA), ms(rgC))
			}
			f, a, c := median(r.first[name]), median(r.absent[name]), median(r.common[name])
			fmt.Fprintf(b, "| %s | %s | %s (%s×) | %s (%s×) | %s (%s×) | %s | %.1f MiB |\n", corpus, name,
				ms(f), ratio(f, rgF), ms(a), ratio(a, rgA), ms(c), ratio(c, rgC), rgs, mib(r.hwmKiB[name]))
		}
	}
}
