// Package diagnose names the mistake a search reply shows from how it
// differs from the specification's answer (package truth), never from what
// the probe that sent the query meant to find. It guarantees that a
// diagnosis follows from the difference alone: which true hits are missing
// and where they sit in their notes and in the walk, which files came
// back that hold no hit and why they do not, how a returned passage's
// bytes differ from its paragraph, and which count a refused query was
// over. A server that returned every hit gets no diagnosis of a miss, so a
// server that already folds case is never told to fold case.
//
// It is pure: it reads a truth.Tree and the strings of a reply, and
// touches no file, clock or process.
package diagnose
