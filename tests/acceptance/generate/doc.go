// Package generate builds, from a seed, a practice root that exercises
// the rules of search_notes where servers go wrong, and the queries to
// send over it. The same seed gives the same root and queries byte for
// byte, so a failure seen once is replayed by its seed.
//
// It guarantees that every situation below is in every set, whatever the
// seed: several matching paragraphs in one note (first, middle and last)
// and a note of one paragraph without a final newline; a phrase in exactly
// 10, in 11 and in more paragraphs; one paragraph in several notes; lines
// ending in spaces and tabs; CRLF and mixed line endings and a U+2028
// inside a paragraph; text whose case folding changes its length; text
// outside the Basic Multilingual Plane; a note that is not UTF-8 but holds
// no NUL; notes of 102,400 and 102,401 bytes; an unreadable note and a
// binary note at seeded places of the walk (first, middle or last); nested
// folders; names with spaces and non-ASCII letters. The queries hold each
// note's phrase, a phrase across a line break inside a paragraph and one
// across a blank line, words that occur only apart, an absent phrase, and
// queries of 200 and 201 characters of one, two and four bytes each.
// Between the searches, a note is edited, one added and one removed.
//
// What a reply must hold is never decided here: the queries carry no
// expected answer, and a judge asks package truth over [Set.Tree].
package generate
