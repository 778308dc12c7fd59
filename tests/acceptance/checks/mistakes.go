package checks

import "practice-notes/tests/acceptance/diagnose"

// mistakeOwner charges each mistake package diagnose names to the check
// whose rule it breaks.
var mistakeOwner = map[diagnose.Mistake]*Check{
	diagnose.LastParagraph:   check1,
	diagnose.LaterPassages:   check1,
	diagnose.AfterUnreadable: check22,
	diagnose.AfterBinary:     check20,
	diagnose.Subfolders:      check3,
	diagnose.SameText:        check1,
	diagnose.CaseSensitive:   check9,
	diagnose.CaseFold:        check10,
	diagnose.AddedNote:       check15,
	diagnose.Missed:          check1,
	diagnose.AcrossBlank:     check11,
	diagnose.WordsApart:      check11,
	diagnose.BinaryNamed:     check20,
	diagnose.Oversized:       check6,
	diagnose.Invented:        check2,
	diagnose.CRsDropped:      check1,
	diagnose.TrailingSpace:   check1,
	diagnose.Replacement:     check1,
	diagnose.Recased:         check1,
	diagnose.Shifted:         check1,
	diagnose.Separators:      check1,
	diagnose.Joined:          check1,
	diagnose.CutShort:        check1,
	diagnose.OtherBytes:      check1,
	diagnose.Stale:           check1,
	diagnose.LimitBytes:      check6,
	diagnose.LimitUTF16:      check6,
	diagnose.LimitOffByOne:   check6,
	diagnose.NoLimit:         check6,
	diagnose.LineLimit:       check6,
}
