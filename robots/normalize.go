package robots

import (
	"strings"
	"unsafe"
)

// Both patterns and request paths are brought to one canonical spelling before
// they are compared, so that every spelling of a URL that RFC 3986 calls
// equivalent gets the same verdict:
//
//   - %XX escapes of unreserved characters (ALPHA, DIGIT, "-", ".", "_", "~")
//     are decoded: /%70rivate is /private;
//   - every other %XX escape keeps its meaning and is upper-cased: %2f is %2F;
//   - bytes that may not stand raw in a URL (non-ASCII UTF-8, controls, space,
//     and " < > \ ^ ` { | }) are percent-encoded: /ü is /%C3%BC (in a
//     pattern, only the non-ASCII ones: see canonicalPattern);
//   - in a path, a "%" that does not start an escape is the character
//     itself: %25. In a pattern it stays "%", which matches the "%" of any
//     escape, as in Google's reading: "Disallow: /*%" blocks every URL with
//     an escape in it, and "Disallow: /a%2" blocks "/a%2F" (see
//     canonicalPattern).
//
// Reserved characters (":/?#[]@!$&'()*+,;=") keep their meaning, so %2F is
// not "/" and %2A is not the wildcard "*".

const upperHex = "0123456789ABCDEF"

// byteClass tells, for each byte, how canonical form treats it.
var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			t[c] = classUnreserved
		case c == ':', c == '/', c == '?', c == '#', c == '[', c == ']', c == '@',
			c == '!', c == '$', c == '&', c == '\'', c == '(', c == ')',
			c == '*', c == '+', c == ',', c == ';', c == '=':
			t[c] = classReserved
		case c == '%':
			t[c] = classPercent
		default:
			t[c] = classEncode
		}
	}
	return t
}()

// The classes of bytes that stand for themselves in canonical form share
// the bit classPlain, so that one AND tests several bytes at once.
const (
	classEncode     uint8 = 0
	classPercent    uint8 = 1
	classPlain      uint8 = 2
	classUnreserved       = classPlain
	classReserved         = classPlain | 1
)

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isCanonical reports whether s is already in canonical form, which is the
// case for nearly every real request path; it lets Decide skip the copy.
func isCanonical(s string) bool {
	for i := 0; i < len(s); i++ {
		for i+4 <= len(s) && byteClass[s[i]]&byteClass[s[i+1]]&byteClass[s[i+2]]&byteClass[s[i+3]]&classPlain != 0 {
			i += 4
		}
		if i == len(s) {
			break
		}
		switch byteClass[s[i]] {
		case classEncode:
			return false
		case classPercent:
			if i+2 >= len(s) {
				return false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 || byteClass[hi<<4|lo] == classUnreserved ||
				(s[i+1] >= 'a' && s[i+1] <= 'f') || (s[i+2] >= 'a' && s[i+2] <= 'f') {
				return false
			}
			i += 2
		}
	}
	return true
}

// appendCanonical appends the canonical form of path s to dst.
func appendCanonical(dst []byte, s string) []byte {
	return appendCanon(dst, s, "%25", false, false)
}

// appendCanon appends the canonical form of s to dst, writing lone for a
// "%" that does not start an escape, with rawASCII leaving as they are
// the ASCII bytes canonical form escapes, and with keep leaving escaped
// the unreserved characters canonical form decodes (in upper-case hex).
func appendCanon(dst []byte, s string, lone string, rawASCII, keep bool) []byte {
	lastLone := -1 // where the last lone "%" written as "%" is in dst
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch byteClass[c] {
		case classUnreserved, classReserved:
			dst = append(dst, c)
		case classPercent:
			if i+2 < len(s) {
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					v := hi<<4 | lo
					if !keep && byteClass[v] == classUnreserved && !(lastLone >= 0 && completesEscape(dst, lastLone, v)) {
						dst = append(dst, v)
					} else {
						dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
					}
					i += 2
					continue
				}
			}
			if lone == "%" {
				lastLone = len(dst)
			}
			dst = append(dst, lone...)
		default:
			if rawASCII && c < 0x80 {
				dst = append(dst, c)
				continue
			}
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// completesEscape reports whether appending the decoded byte v to dst,
// where a lone "%" stands at lone, would make an escape of it: "/%%41"
// decoded is "/%A", which reads as the start of "/%AB" and would match
// what Google, comparing "/%%41" byte for byte, does not. Such an escape
// is kept as written.
func completesEscape(dst []byte, lone int, v byte) bool {
	if _, hex := unhex(v); !hex {
		return false
	}
	switch len(dst) - lone {
	case 1: // "%" then v
		return true
	case 2: // "%", a hex digit, then v
		_, hex := unhex(dst[lone+1])
		return hex
	}
	return false
}

// Canonical returns the canonical spelling of a path (or pattern) that this
// package matches on. It is exported so that callers can log or compare
// paths the way the matcher sees them.
func Canonical(s string) string {
	if isCanonical(s) {
		return s
	}
	return string(appendCanonical(make([]byte, 0, len(s)+16), s))
}

// canonicalPattern is Canonical for a rule's pattern. It differs so as
// to err, where this reading and Google's part, towards allowing:
//
//   - a "%" that starts no escape stays "%" rather than becoming "%25".
//     Google compares such a pattern byte for byte with the URL, where
//     every "%" starts an escape, so "/a%" matches "/a%20" and "/a%25"
//     alike; reading it as "%25" would match only the second, and let
//     through what Google's reading calls disallowed;
//   - in a disallow rule (raw set), an ASCII byte that canonical form
//     escapes (a space, " < > \ ^ ` { | }, a control) stays raw, and so
//     matches no canonical path, where it is always escaped, but only the
//     target as the client sent it, read with such bytes raw (see
//     Group.DecideRaw). Google leaves it raw too and compares it with
//     the URL as sent: "Disallow: /a|b" refuses "/a|b", which browsers
//     and crawlers send raw, and not "/a%7Cb"; "Disallow: /my folder/"
//     matches no URL, since HTTP carries a space escaped. An allow rule's
//     bytes are escaped, so that it matches both spellings, and kept raw
//     as well for the target read as sent: where the readings part, this
//     one allows.
//
// Non-ASCII bytes are escaped, as Google escapes them in a pattern.
func canonicalPattern(p string, raw bool) string { return patternForm(p, raw, false) }

// patternForm is canonicalPattern, and with keep the form a target read
// as sent is matched with (see Group.DecideRaw): escapes of unreserved
// characters kept. A canonical pattern has none, and is either.
func patternForm(p string, raw, keep bool) string {
	if isCanonical(p) {
		return p
	}
	return string(appendCanon(make([]byte, 0, len(p)+16), p, "%", raw, keep))
}

// priority is a rule's match priority, so that where this reading and
// Google's part it errs towards allowing. Google ranks a pattern by its
// length once its non-ASCII bytes are escaped; so does an allow rule
// here. A disallow rule's escapes of unreserved characters count one byte
// each, as the character they stand for, since it matches decoded here:
// "Disallow: /%61bc" matches what "/abc" matches, and ranks as "/abc",
// below "Allow: /abcd" on /abcd, which Google allows (to it "/%61bc"
// matches no plain URL). An allow rule written so keeps its length and
// wins where Google's would ("Allow: /%7Ejoe/" over "Disallow: /*.pdf$"
// on /%7Ejoe/cv.pdf). A pattern with no such escape (nearly every one)
// has Google's number whatever its directive.
func priority(p string, d Directive) int {
	n := len(p)
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] >= 0x80:
			n += 2
		case d == Disallow && p[i] == '%' && i+2 < len(p):
			hi, ok1 := unhex(p[i+1])
			lo, ok2 := unhex(p[i+2])
			if ok1 && ok2 && byteClass[hi<<4|lo] == classUnreserved {
				n -= 2
				i += 2
			}
		}
	}
	return n
}

// bytesOf views s as a byte slice without copying. The slice must not be
// written to.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// PathFromURL returns the path, parameters and query of url, the part a
// robots.txt rule is matched against, the way google/robotstxt extracts it:
// scheme and authority are dropped, so is a fragment, and the result always
// starts with "/". An empty or unparsable URL gives "/".
func PathFromURL(url string) string {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	earlyPath := indexAny(url, start, "/?;")
	protoEnd := indexString(url, start, "://")
	if earlyPath >= 0 && (protoEnd < 0 || earlyPath < protoEnd) {
		protoEnd = -1
	}
	if protoEnd < 0 {
		protoEnd = start
	} else {
		protoEnd += 3
	}
	pathStart := indexAny(url, protoEnd, "/?;")
	if pathStart < 0 {
		return "/"
	}
	end := len(url)
	if hash := indexString(url, start, "#"); hash >= 0 {
		if hash < pathStart {
			return "/"
		}
		end = hash
	}
	if url[pathStart] != '/' {
		return "/" + url[pathStart:end]
	}
	return url[pathStart:end]
}

func indexAny(s string, from int, chars string) int {
	for i := from; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return i
			}
		}
	}
	return -1
}

func indexString(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// hasLonePercent reports whether pattern p holds a "%" that starts no
// escape ("/*%", "/a%4"): Google matches it with the "%" of any escape in
// the URL as sent, which canonical form decodes when it escapes an
// unreserved character (see Group.ReadsSent).
func hasLonePercent(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			continue
		}
		if i+2 >= len(p) {
			return true
		}
		_, ok1 := unhex(p[i+1])
		_, ok2 := unhex(p[i+2])
		if !ok1 || !ok2 {
			return true
		}
		i += 2
	}
	return false
}

// holdsUnreservedEscape reports whether s holds an escape of an
// unreserved character ("%7E", "%41"), which canonical form decodes.
func holdsUnreservedEscape(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); {
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if ok1 && ok2 && byteClass[hi<<4|lo] == classUnreserved {
			return true
		}
		next := strings.IndexByte(s[i+1:], '%')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}
