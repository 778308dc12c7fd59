package checks

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJudgesReadOnlyWhatTheyNeed replays every transcript twice, on all
// the facts it recorded and on only those its check (or rule) declares
// in Needs: the verdicts must be the same, so a judge that reads a part
// of Facts it does not declare fails here.
func TestJudgesReadOnlyWhatTheyNeed(t *testing.T) {
	for id, files := range transcripts(t) {
		needs, judge, ok := needsOf(id)
		if !ok {
			t.Errorf("transcripts of unknown check or rule %s: %v", id, files)
			continue
		}
		for _, file := range files {
			t.Run(file, func(t *testing.T) {
				full, declared := decodeFacts(t, file), decodeFacts(t, file)
				want := judgeSafely(judge, full)
				got := judgeSafely(judge, declared.only(needs))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s judged on the facts it declares (%s) differs from judged on all of them; declare what it reads (-all +declared):\n%s",
						id, needNames(t, needs), clipLines(escapeControls(diff), 4000))
				}
			})
		}
	}
}

// needsOf returns what the check or rule a transcript's id names
// declares, and its judge.
func needsOf(id string) ([]need, func(*Facts) Verdict, bool) {
	if name, ok := strings.CutPrefix(id, "rule "); ok {
		r, ok := ruleNamed(name)
		if !ok {
			return nil, nil, false
		}
		return r.Needs, r.Judge, true
	}
	c, ok := ByID(id)
	if !ok {
		return nil, nil, false
	}
	return c.Needs, c.Judge, true
}

// judgeSafely renders the verdict of judge on f; a judge that reads a
// pointer it was not handed panics, which it reports as its verdict.
func judgeSafely(judge func(*Facts) Verdict, f *Facts) (verdict string) {
	defer func() {
		if r := recover(); r != nil {
			verdict = fmt.Sprintf("panic: %v", r)
		}
	}()
	return Render(judge(f))
}

// needNames names each need by the field of Facts it copies.
func needNames(t *testing.T, needs []need) string {
	full := filled(t)
	var names []string
	for _, n := range needs {
		got := reflect.ValueOf(full.only([]need{n})).Elem()
		for i := range got.NumField() {
			if !got.Field(i).IsZero() {
				names = append(names, got.Type().Field(i).Name)
			}
		}
	}
	return strings.Join(names, ", ")
}

func decodeFacts(t *testing.T, file string) *Facts {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, f, _, err := DecodeTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEveryFactIsANeed: each field of Facts but Layout, which no judge
// reads, is copied by exactly one need, so a field added to Facts cannot
// be handed to no judge.
func TestEveryFactIsANeed(t *testing.T) {
	full := filled(t)
	v := reflect.ValueOf(full).Elem()
	copiedBy := map[string][]need{}
	for n := range needCount {
		got := reflect.ValueOf(full.only([]need{n})).Elem()
		for i := range got.NumField() {
			if !got.Field(i).IsZero() {
				name := got.Type().Field(i).Name
				copiedBy[name] = append(copiedBy[name], n)
			}
		}
	}
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		want := 1
		if name == "Layout" {
			want = 0
		}
		if len(copiedBy[name]) != want {
			t.Errorf("Facts.%s is copied by needs %v, want %d of them", name, copiedBy[name], want)
		}
	}
}

// filled returns facts whose every field is set.
func filled(t *testing.T) *Facts {
	f := &Facts{}
	v := reflect.ValueOf(f).Elem()
	for i := range v.NumField() {
		fill(t, v.Field(i))
	}
	return f
}

// fill sets v to a value that is not its zero.
func fill(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	default:
		t.Fatalf("fill: add a case for %s", v.Kind())
	}
}
