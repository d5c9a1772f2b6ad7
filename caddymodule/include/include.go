package include

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robotsguard/caddy-robots-txt/robots"
)

// ReadList reads an included list as the handler takes one: what a crawler
// reads of it (500 KiB, and one byte more, which tells Merge and Parse
// whether the limit cuts a line short), and only if it reads as a
// robots.txt, so that an error page or a file of another kind adds
// nothing.
func ReadList(r io.Reader) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, robots.DefaultMaxSize+1))
	if err != nil {
		return nil, err
	}
	if !robots.Parse(body).LooksLikeRobotsTxt() {
		return nil, errors.New("no line is a robots.txt field (is it an HTML page?)")
	}
	return body, nil
}

// Source is one robots.txt body and the name it is known by.
type Source struct {
	// Name is a file path or URL, shown in comments and warnings.
	Name string
	// Body is the robots.txt text.
	Body []byte
}

// Merged is the result of Merge.
type Merged struct {
	// Body is the merged robots.txt: the site's file first, verbatim, then
	// for each included source a comment line naming it and the groups it
	// adds.
	Body []byte
	// Warnings lists what could not be merged and why, one sentence each.
	Warnings []string
	// Lists are the includes as parsed, in order, merged or not: their
	// own findings are theirs, since Body spells what it merges in the
	// standard way and leaves out what it cannot merge.
	Lists []*robots.File

	names     []string // names[0] is the site's, names[i+1] include i's
	siteLines int      // lines 1..siteLines of Body are the site's own
	origins   []origin // lines siteLines+1.. of Body
}

type origin struct {
	src  int32 // index into names
	line int32 // line in that source; 0 for a line Merge wrote
}

// Included reports whether line of Body came from an included source,
// or was written by Merge for one, rather than from the site's file.
func (m *Merged) Included(line int) bool {
	return m != nil && line > m.siteLines
}

// Origin returns the source of line (1-based) of Body and the line's
// number there. Lines of the site's part keep their numbers. Lines Merge
// wrote itself (the "# included from" comments, blank lines and the empty
// "Disallow:" lines that close a group) give line 0 and the source they
// belong to. A line out of range gives ("", 0).
func (m *Merged) Origin(line int) (source string, srcLine int) {
	if m == nil || line < 1 {
		return "", 0
	}
	if line <= m.siteLines {
		return m.names[0], line
	}
	i := line - m.siteLines - 1
	if i >= len(m.origins) {
		return "", 0
	}
	o := m.origins[i]
	return m.names[o.src], int(o.line)
}

// closer ends a run of user-agent lines without adding a rule: an allow or
// disallow line, even with an empty pattern, ends the run, and an empty
// pattern is no rule.
const closer = "Disallow:"

// Merge returns the site's robots.txt followed by what each include adds
// to it; see the package documentation for the rules.
func Merge(site Source, includes ...Source) *Merged {
	m := &Merged{names: make([]string, 0, len(includes)+1)}
	m.names = append(m.names, site.Name)
	for _, inc := range includes {
		m.names = append(m.names, inc.Name)
	}
	total := len(site.Body)
	for _, inc := range includes {
		total += len(inc.Body) + len(inc.Name) + 32
	}
	w := &writer{m: m, buf: make([]byte, 0, min(total, robots.DefaultMaxSize))}
	w.buf = append(w.buf, site.Body...)
	if len(includes) == 0 {
		m.Body = w.buf
		m.siteLines = countLines(w.buf) + 1 // and the line after the last line end
		return m
	}
	m.Lists = make([]*robots.File, len(includes))
	if len(site.Body) >= robots.DefaultMaxSize {
		m.Body = w.buf
		m.siteLines = countLines(w.buf) + 1
		for i, inc := range includes {
			m.Lists[i] = robots.Parse(inc.Body)
			m.warn("%s: not included: the site's own robots.txt already fills the %d bytes robots.txt readers read", inc.Name, robots.DefaultMaxSize)
		}
		return m
	}
	if n := len(w.buf); n > 0 && w.buf[n-1] != '\n' {
		w.buf = append(w.buf, '\n') // after a lone CR this makes one CR LF
	}
	m.siteLines = countLines(w.buf)

	sf := robots.Parse(site.Body)
	owned := map[string]bool{}
	for _, a := range sf.Agents() {
		owned[strings.ToLower(a)] = true
	}
	if hasGlobal(sf) {
		owned["*"] = true
	}
	w.open = scan(site.Body).open
	w.openSrc = 0

	full := false
	for i, inc := range includes {
		src := int32(i + 1)
		f := robots.Parse(inc.Body)
		m.Lists[i] = f
		if full {
			m.warn("%s: not included: the merged robots.txt reached %d bytes", inc.Name, robots.DefaultMaxSize)
			continue
		}
		s := scan(inc.Body)
		if groups, rules := f.Counts(); groups != len(s.groups) || rules != s.rules {
			m.warn("%s: not included: its groups could not be read consistently", inc.Name)
			continue
		}
		if len(inc.Body) > robots.DefaultMaxSize {
			m.warn("%s: only its first %d bytes were read, as robots.txt readers do", inc.Name, robots.DefaultMaxSize)
		}
		full = w.addSource(src, inc.Name, f, s, owned)
	}
	m.Body = w.buf
	return m
}

func (m *Merged) warn(format string, args ...any) {
	m.Warnings = append(m.Warnings, fmt.Sprintf(format, args...))
}

// writer appends lines to the merged body and records their origin.
type writer struct {
	m       *Merged
	buf     []byte
	open    bool  // buf ends inside a run of user-agent lines
	openSrc int32 // the source of that run
}

func (w *writer) line(text string, src int32, num int) {
	w.buf = append(w.buf, text...)
	w.buf = append(w.buf, '\n')
	w.m.origins = append(w.m.origins, origin{src: src, line: int32(num)})
}

func (w *writer) srcLine(l *srcLine, src int32) {
	w.buf = l.appendTo(w.buf)
	w.buf = append(w.buf, '\n')
	w.m.origins = append(w.m.origins, origin{src: src, line: int32(l.num)})
}

// addSource appends the groups of include src that name agents nobody
// before it names, and records the agents as owned. It reports whether the
// size limit stopped it.
func (w *writer) addSource(src int32, name string, f *robots.File, s *scanned, owned map[string]bool) (full bool) {
	// The agents this source adds: those no earlier source names.
	keep := map[string]bool{}
	for _, a := range f.Agents() {
		if k := strings.ToLower(a); !owned[k] {
			keep[k] = true
		}
	}
	if hasGlobal(f) && !owned["*"] {
		keep["*"] = true
	}

	header := "# included from " + sanitize(name)
	need := 1 + len(header) + 1
	if w.open {
		need += len(closer) + 1
	}
	limit := robots.DefaultMaxSize
	if len(w.buf)+need > limit {
		w.m.warn("%s: not included: the merged robots.txt would pass %d bytes", name, limit)
		return true
	}
	if w.open {
		w.line(closer, w.openSrc, 0)
		w.open = false
	}
	w.line("", src, 0)
	w.line(header, src, 0)

	// Which groups fit: sizes as if every kept agent stays.
	size := len(w.buf)
	cut := len(s.groups)
	for g := range s.groups {
		n, agents, rules := 0, 0, false
		lines := s.group(g)
		for i := range lines {
			l := &lines[i]
			switch {
			case l.kind == kAgent:
				if !keep[l.agent] {
					continue
				}
				agents++
			case l.kind == kAllow || l.kind == kDisallow:
				rules = true
			}
			n += l.renderLen() + 1
		}
		if agents == 0 {
			continue
		}
		if !rules {
			n += len(closer) + 1
		}
		if size+n > limit {
			cut = g
			break
		}
		size += n
	}
	if cut < len(s.groups) {
		// An agent named in a group that does not fit is left out
		// entirely, so no agent obeys part of its rules.
		for g := cut; g < len(s.groups); g++ {
			for _, l := range s.group(g) {
				if l.kind == kAgent {
					delete(keep, l.agent)
				}
			}
		}
		w.m.warn("%s: the merged robots.txt would pass %d bytes: %d of its %d groups, and the agents they name, were left out", name, limit, len(s.groups)-cut, len(s.groups))
		full = true
	}

	for g := 0; g < cut; g++ {
		lines := s.group(g)
		named := false
		for _, l := range lines {
			if l.kind == kAgent && keep[l.agent] {
				named = true
				break
			}
		}
		if !named {
			continue
		}
		// robots gives a crawl-delay or content-signal line to the
		// user-agent lines above it up to the previous such line, never to
		// those below (the rules that end the run are everyone's): it is
		// written only when one of those agents is kept, or it would pass
		// to agents it was not written for. Those agents all come before
		// the line, so kept, whether one of them is kept, is known by then.
		kept := false
		for i := range lines {
			l := &lines[i]
			switch l.kind {
			case kAgent:
				if i > 0 && lines[i-1].kind.preference() {
					kept = false // the agents of the next such line start here
				}
				if !keep[l.agent] {
					continue
				}
				kept = true
				w.open, w.openSrc = true, src
			case kAllow, kDisallow:
				w.open = false
			default:
				if !kept {
					continue
				}
			}
			w.srcLine(l, src)
		}
	}
	if w.open {
		w.line(closer, src, 0)
		w.open = false
	}
	for k := range keep {
		owned[k] = true
	}
	return full
}

func hasGlobal(f *robots.File) bool {
	for _, g := range f.Groups() {
		for _, a := range g.Agents {
			if a == "*" {
				return true
			}
		}
	}
	return false
}

// countLines counts line ends as robots does: CR, LF or CR LF.
func countLines(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			n++
		case '\r':
			n++
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		}
	}
	return n
}

// sanitize makes a name safe to put in a comment line.
func sanitize(name string) string {
	if len(name) > 1000 {
		name = name[:1000]
	}
	b := []byte(name)
	for i, c := range b {
		if c < 0x20 || c == 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}
