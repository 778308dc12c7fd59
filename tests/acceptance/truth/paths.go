package truth

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Place is where a file name a reply offers resolves.
type Place struct {
	// Inside says the name resolves inside the root; Rel is then its
	// root-relative, slash-separated, clean path ("." for the root).
	Inside bool
	Rel    string
	// Path is the absolute, slash-separated path a name outside the root
	// resolves to.
	Path string
}

var (
	schemeRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]+:`)
	driveRe  = regexp.MustCompile(`^[A-Za-z]:/`)
)

// Resolve reads a file name as a reply offers it, once, against the root:
// roots are the root's absolute, slash-separated paths (more than one when
// links lead to it, as /tmp does to /private/tmp on macOS), roots[0] the
// one the server was given; exists reports whether a path exists on the
// machine. It reports false for a name that names no path (empty, or a URI
// without one). Resolution is lexical: a name through a link inside the
// root resolves inside, and the true answer, which holds no file reached
// through a link, judges it.
//
//   - "a.md", "./a.md", "sub/../a.md" and "sub\a.md" (a backslash is a
//     separator) are root-relative; one that climbs out ("../a.md")
//     resolves outside.
//   - An absolute path is inside when it is under a root (a Windows drive
//     path, C:\notes\a.md, compared without case); "/a.md" is also
//     root-relative when /a.md does not exist on the machine and a.md
//     exists in the root, as vault-style servers write names. Any other
//     absolute path is outside.
//   - A file:// URI names the absolute path in it, percent-decoded
//     (file:///C:/notes/a.md names C:/notes/a.md).
//   - A URI of any other scheme names a root-relative path: its query's
//     file or path parameter when it has one (obsidian://open?vault=v&file=a,
//     with .md added when only that exists), else its path, host included
//     (notes://a.md, notes:///a.md, obsidian://vault/sub/a.md): the longest
//     ending of it that exists in the root, else the path without the host.
//     One with a ".." element is resolved as written, from the root, and
//     may resolve outside.
func Resolve(name string, roots []string, exists func(path string) bool) (Place, bool) {
	name = strings.TrimSpace(name)
	if name == "" || len(roots) == 0 {
		return Place{}, false
	}
	root := roots[0]
	if schemeRe.MatchString(name) && !driveRe.MatchString(name) {
		u, err := url.Parse(name)
		if err != nil {
			return Place{}, false
		}
		if strings.EqualFold(u.Scheme, "file") {
			p := u.Path
			if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
				p = "//" + u.Host + p // a share on another machine
			}
			if p == "" {
				return Place{}, false
			}
			if len(p) > 1 && driveRe.MatchString(p[1:]) {
				p = p[1:] // file:///C:/… names C:/…
			}
			return resolvePath(p, roots, exists), true
		}
		return resolveURI(u, root, exists)
	}
	return resolvePath(strings.ReplaceAll(name, `\`, "/"), roots, exists), true
}

// resolvePath resolves a slash-separated path, absolute or relative.
func resolvePath(p string, roots []string, exists func(string) bool) Place {
	root := roots[0]
	if strings.HasPrefix(p, "//") {
		return Place{Path: p} // a share on another machine
	}
	drive := driveRe.MatchString(p)
	if !drive && !strings.HasPrefix(p, "/") {
		return relative(p, root)
	}
	p = path.Clean(p)
	for _, r := range roots {
		r = strings.TrimSuffix(r, "/")
		// A Windows path compares without case, as Windows does.
		same := func(a, b string) bool { return a == b || drive && strings.EqualFold(a, b) }
		if same(p, r) {
			return Place{Inside: true, Rel: "."}
		}
		if len(p) > len(r) && p[len(r)] == '/' && same(p[:len(r)], r) {
			return Place{Inside: true, Rel: p[len(r)+1:]}
		}
	}
	if !drive && !exists(p) && exists(root+p) {
		return Place{Inside: true, Rel: strings.TrimPrefix(p, "/")}
	}
	return Place{Path: p}
}

// relative resolves a root-relative path lexically: one that climbs out
// of the root and back in ("../root/a.md") is inside.
func relative(rel, root string) Place {
	p := path.Join(root, rel)
	switch root = path.Clean(root); {
	case p == root:
		return Place{Inside: true, Rel: "."}
	case strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/"):
		return Place{Inside: true, Rel: strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")}
	}
	return Place{Path: p}
}

// resolveURI resolves a URI of a scheme other than file.
func resolveURI(u *url.URL, root string, exists func(string) bool) (Place, bool) {
	in := func(rel string) bool { return exists(path.Join(root, rel)) }
	q := u.Query()
	for _, key := range []string{"file", "path", "filepath"} {
		if v := q.Get(key); v != "" {
			v = strings.TrimPrefix(strings.ReplaceAll(v, `\`, "/"), "/")
			if !in(v) && in(v+".md") {
				v += ".md"
			}
			return relative(v, root), true
		}
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	var elems []string
	if u.Host != "" {
		elems = append(elems, u.Host)
	}
	for e := range strings.SplitSeq(strings.ReplaceAll(p, `\`, "/"), "/") {
		if e != "" {
			elems = append(elems, e)
		}
	}
	if len(elems) == 0 {
		return Place{}, false
	}
	for _, e := range elems {
		if e == ".." {
			return relative(strings.Join(elems, "/"), root), true
		}
	}
	for i := range elems {
		if rel := strings.Join(elems[i:], "/"); in(rel) {
			return relative(rel, root), true
		}
	}
	if u.Host != "" && len(elems) > 1 {
		elems = elems[1:]
	}
	return relative(strings.Join(elems, "/"), root), true
}
