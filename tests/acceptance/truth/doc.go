// Package truth computes what the specification's search_notes tool must
// answer, from a description of the practice root alone, so that a reply
// can be judged against the right answer rather than against the shape of
// this repository's own server. It is written from the specification and
// shares no code with package search: it is the second implementation the
// harness checks every server, ours included, against.
//
// It guarantees that, for a [Tree] (built by hand, or by [Load] from a real
// directory without following a link) and a query, [Ask] returns every
// paragraph of the root that a correct server may return, each marked with
// the room the specification leaves for it ([Room]): a hit with no room is
// one every correct server returns (unless it already returned ten
// passages), a hit with room is one a correct server may return or leave
// out. It also provides the presentation rule ([Exact], [Forms]) and the one
// reading of a file name a reply offers ([Resolve]). Nothing but [Load]
// touches the file system.
//
// # Use
//
// Describe the root once it is planted (Load), ask for each query sent
// (Ask), read every name a reply offers with Resolve, and every passage
// with Answer.Find: a passage Find does not place is not in the true
// answer (not exact, not in that file, or not a hit at all); a hit of
// Answer.Under(0) that no passage places was missed, unless the reply
// holds MaxPassages; a hit's Room says why a correct server may leave it
// out, for the check that owns that reason to weigh.
//
// # The rule
//
// A hit is a paragraph that contains the query's phrase: the query's words
// (the query split at runs of white space) in order, each rune equal under
// Unicode simple case folding (K, k and the Kelvin sign U+212A are one; so
// are ß and ẞ, and σ, ς and Σ; İ and ı equal only themselves; ﬁ only
// itself), with a run of white space between every two words. The
// paragraph is in a regular text file of at most 102,400 bytes inside the
// root, reached without a link. A reply holds at most 10 passages, so a
// server that returns fewer than 10 must have returned every hit without
// room; which 10 a server returns when there are more is not specified.
// When no hit is without room ([Answer.Under] with no room is empty), an
// empty answer is right; when there is no hit at all, only an empty answer
// with a no-match statement is.
//
// A passage is exact when it is a hit's paragraph byte for byte, but for
// the presentation Markdown defines for quoting ([Exact]): CRs dropped,
// text re-cased or reflowed is not, nor is a window cut from a paragraph;
// whether a reply that says it cut a long paragraph is excused is for its
// judge to decide (no hard case has a paragraph over 1,000 bytes).
//
// # Paragraphs
//
// A line ends at LF; a CR right before the LF belongs to the line ending.
// A lone CR, a form feed, a vertical tab, U+0085 (NEL), U+2028 and U+2029
// do not end a line: they are white space inside it, so the paragraph that
// holds one is returned with it, byte for byte, and a phrase whose words
// they separate is found (with room where the character is not ASCII; see
// [RoomSpace]). A blank line holds only spaces, tabs and CRs. A paragraph
// is a maximal run of non-blank lines, without its final line ending, and
// an ATX heading line (up to three spaces, one to six '#', then a space, a
// tab or the end of the line) is a paragraph of its own, as in CommonMark.
// Paragraphs are split at blank lines regardless of other Markdown block
// structure (a fenced code block with a blank line in it is two
// paragraphs), as a reader of plain text would.
//
// # Where the specification leaves room
//
// The specification names a practice-data directory and one Markdown note
// and says little more, so a hit carries the room it needs ([Room]), and a
// judge decides what each room is worth:
//   - a text file not named .md ([RoomNoteExt] for .markdown, .txt and .md
//     in another case; [RoomOtherText] for any other name), a hidden file or
//     one under a hidden directory ([RoomHidden]), a file with more than one
//     hard link ([RoomHardLink]), a file its mode lets nobody read that the
//     describer could still read ([RoomUnreadable]), one of 100,001 to
//     102,400 bytes, since "100 KB" may mean 100,000 ([RoomSize]), one that
//     is not valid UTF-8 but holds no NUL byte ([RoomEncoding]);
//   - a phrase found only inside longer words ("sign in" in "design
//     info"), which a server matching whole words does not find
//     ([RoomInWord]); only with white space between its words other than
//     ASCII (NBSP, U+2028, U+0085, U+3000) ([RoomSpace]); only across a
//     line of white space other than spaces and tabs (a form feed alone),
//     which some readers take for blank ([RoomWhiteLine]); only under full case
//     folding ("strasse" in "Straße", "file" in "ﬁle", as Python's
//     str.casefold finds) ([RoomFullFold]); only with white space other
//     than one space between its words (a line break, a tab, several
//     spaces), which a server matching the query as written does not find,
//     since the specification says "phrase" and nothing of white space
//     ([RoomWrap]);
//   - the paragraph itself: where a heading line touches the text below
//     it, the run of lines split at blank lines only is as right as the
//     split at headings; a note's first paragraph may carry the UTF-8
//     byte-order mark or not; and where a paragraph holds a line of white
//     space alone (a form feed on a line of its own, U+2028, U+0085 or a
//     lone CR twice in a row), the part of it that holds the phrase is as
//     right as the whole, since a reader that ends lines there too
//     (CommonMark ends them at a lone CR, Python's str.splitlines at all
//     of these) and takes a line that strip() empties for blank ends the
//     paragraph there ([Hit.Forms]); the bytes of either are the file's;
//   - a query whose length is over 200 by one count and not by another
//     (code points of the trimmed query against bytes of the query as sent),
//     one with control characters, and a blank one may be refused or not
//     ([Refusal]); a blank query has no phrase, so it never has a hit.
//
// Never in the answer: a symbolic link or anything reached through one,
// a FIFO, a device, a directory, a file over 102,400 bytes, a file with a
// NUL byte, anything outside the root.
//
// Not held: a reader that splits at blank lines only finds a phrase that
// runs from a heading line into the text right below it, which this
// package, splitting at the heading, does not. The hard cases of
// [HardCases] hold no such phrase.
package truth
