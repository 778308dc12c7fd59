package record

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// beforeWorkshop is how long before the run a passage check may be
// dated: earlier than that, it was checked before the workshop began, or
// the date is mistyped, and a person reads it.
const beforeWorkshop = 60 * 24 * time.Hour

var (
	yesterdayRe = regexp.MustCompile(`\b(?:yesterday|ayer|hier|gestern|ontem|ieri|gisteren|wczoraj)\b`)
	todayRe     = regexp.MustCompile(`\b(?:today|hoy|aujourd'hui|heute|hoje|oggi|vandaag|dzisiaj|dzis)\b`)
	weekdays    = map[string]time.Weekday{}
	weekdayRe   = func() *regexp.Regexp {
		for d, names := range [][]string{
			{"sunday", "domingo", "dimanche", "sonntag", "domenica", "zondag", "niedziela", "niedziele"},
			{"monday", "lunes", "lundi", "montag", "segunda", "segunda-feira", "lunedi", "maandag", "poniedzialek"},
			{"tuesday", "martes", "mardi", "dienstag", "terca", "terca-feira", "martedi", "dinsdag", "wtorek"},
			{"wednesday", "miercoles", "mercredi", "mittwoch", "quarta", "quarta-feira", "mercoledi", "woensdag", "sroda", "srode"},
			{"thursday", "jueves", "jeudi", "donnerstag", "quinta", "quinta-feira", "giovedi", "donderdag", "czwartek"},
			{"friday", "viernes", "vendredi", "freitag", "sexta", "sexta-feira", "venerdi", "vrijdag", "piatek"},
			{"saturday", "sabado", "samedi", "samstag", "sabato", "zaterdag", "sobota", "sobote"},
		} {
			for _, n := range names {
				weekdays[n] = time.Weekday(d)
			}
		}
		var alts []string
		for n := range weekdays {
			alts = append(alts, regexp.QuoteMeta(n))
		}
		return regexp.MustCompile(`\b(?:` + strings.Join(alts, "|") + `)\b`)
	}()
	recordDateRe = regexp.MustCompile(`^(?:date|dated|fecha|datum|data|dato|le|on)\s*:\s*(.+)$`)
)

// relativeDates resolves "yesterday", "today" and weekdays against ref,
// the record's own date: a weekday is the last one on or before it.
func relativeDates(t string, ref time.Time) ([]time.Time, string) {
	if ref.IsZero() {
		return nil, t
	}
	var out []time.Time
	if yesterdayRe.MatchString(t) {
		out = append(out, ref.AddDate(0, 0, -1))
		t = yesterdayRe.ReplaceAllString(t, " ")
	}
	if todayRe.MatchString(t) {
		out = append(out, ref)
		t = todayRe.ReplaceAllString(t, " ")
	}
	for _, w := range weekdayRe.FindAllString(t, -1) {
		back := (int(ref.Weekday()) - int(weekdays[w]) + 7) % 7
		out = append(out, ref.AddDate(0, 0, -back))
	}
	return out, weekdayRe.ReplaceAllString(t, " ")
}

// recordDate is the record's own date, from a "Date:" line outside the
// fields; else the day of the run.
func recordDate(p parsed, day time.Time) time.Time {
	for _, d := range p.lines {
		if d.field != "" {
			continue
		}
		m := recordDateRe.FindStringSubmatch(fold(clean(leadRe.ReplaceAllString(d.Text, ""))))
		if m == nil {
			continue
		}
		if _, ds, _ := datesIn(m[1], day); len(ds) == 1 && len(ds[0]) == 1 {
			return ds[0][0]
		}
	}
	return day
}

// dateDoubt says why a passage check's dates need a person: each reading
// of one of them is after the run, or long before it.
func dateDoubt(dates [][]time.Time, day time.Time) string {
	if day.IsZero() {
		return ""
	}
	for _, ds := range dates {
		if allAfter(ds, day) {
			return fmt.Sprintf("dated %s, after the run on %s", ds[0].Format("2006-01-02"), day.Format("2006-01-02"))
		}
		if allBefore(ds, day.Add(-beforeWorkshop)) {
			return fmt.Sprintf("dated %s, more than %d days before the run on %s", ds[0].Format("2006-01-02"), int(beforeWorkshop.Hours()/24), day.Format("2006-01-02"))
		}
	}
	return ""
}

func allBefore(ds []time.Time, t time.Time) bool {
	for _, d := range ds {
		if !d.Before(t) {
			return false
		}
	}
	return true
}
