package boundary

import (
	"context"
	"errors"
	"testing"
)

// osReasons are the reasons only this system gives.
var osReasons = []error{errWindowsName, errReparsePoint, errCloudFile}

// TestWindowsNameRules needs no files, so it runs even under Wine.
func TestWindowsNameRules(t *testing.T) {
	tests := []struct {
		elem string
		ok   bool
	}{
		{"note.md", true},
		{"CONSOLE.md", true},
		{"icon.md", true},
		{"COM10.md", true},
		{"LPT.md", true},
		{"com.md", true},
		{"nul-bytes.md", true},
		{"sub", true},
		{"é.md", true},
		{"a b.md", true},
		{"CON", false},
		{"con.md", false},
		{"Con.Md", false},
		{"NUL.md", false},
		{"nul.tar.md", false},
		{"PRN.txt", false},
		{"aux.markdown", false},
		{"COM1.md", false},
		{"com9.md", false},
		{"COM0.md", false},
		{"lpt5.txt", false},
		{"COM¹.md", false},
		{"lpt³.md", false},
		{"CONIN$.md", false},
		{"conout$", false},
		{"nul .md", false},
		{"note.md:stream", false},
		{"note.md::$DATA", false},
		{"a:b.md", false},
		{"note.md.", false},
		{"note.md ", false},
		{"sub.", false},
		{"what?.md", false},
		{"star*.md", false},
		{"a<b.md", false},
		{"a>b.md", false},
		{`a"b.md`, false},
		{"a|b.md", false},
		{"tab\t.md", false},
	}
	for _, tt := range tests {
		if got := windowsNameOK(tt.elem); got != tt.ok {
			t.Errorf("windowsNameOK(%q) = %v; want %v", tt.elem, got, tt.ok)
		}
	}
}

func TestWindowsNameRulesCoverEveryElement(t *testing.T) {
	tests := []struct {
		name string
		want error
	}{
		{"sub/note.md", nil},
		{"nul/note.md", errWindowsName},
		{"sub./note.md", errWindowsName},
		{"sub/deeper/aux.md", errWindowsName},
	}
	for _, tt := range tests {
		if got := checkWindowsName(tt.name); got != tt.want {
			t.Errorf("checkWindowsName(%q) = %v; want %v", tt.name, got, tt.want)
		}
	}
}

// A read of a name Windows would open as a device, a stream or another
// file is refused before anything is opened, whichever check refuses it
// first (checkName refuses some through filepath.IsLocal).
func TestWindowsReadRefusesNames(t *testing.T) {
	_, rootDir := fixture(t)
	r := open(t, rootDir)
	for _, name := range []string{"CON.md", "nul.txt", "com1.md", "sub/aux.md", "lpt¹.md", "a.md./x.md", "nul/note.md", "a:b.md", "note.md:s.md"} {
		data, err := r.ReadNote(context.Background(), name)
		if err == nil || !(errors.Is(err, errWindowsName) || errors.Is(err, errInvalidName)) {
			t.Errorf("ReadNote(%q) = %q, %v; want a refusal of the name", name, data, err)
		}
	}
}
