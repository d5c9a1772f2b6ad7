// Package text holds the small output helpers that the robots commands
// and the report share: numbers with thousands separators, plurals, JSON
// for programs, and text from files and logs made safe for a terminal.
// It imports no Caddy package, so the report can use it as well as the
// commands.
package text

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Clean makes text from a file or a log safe to print on a terminal or
// in a page: control characters (which could move the cursor or change
// colours), bytes that are not UTF-8 (a lone 0x9b is a CSI to an 8-bit
// terminal) and the bidirectional controls (which reorder what follows,
// so a rule could make the line number beside it read as another) are
// shown escaped.
func Clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case isControl(c):
			fmt.Fprintf(&b, "\\x%02x", c)
		case isBidi(c):
			fmt.Fprintf(&b, "\\u%04x", c)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsCleaning(s string) bool {
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(c, n) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports whether the rune c, n bytes long, is one Clean
// escapes.
func unsafeRune(c rune, n int) bool {
	return c == utf8.RuneError && n == 1 || isControl(c) || isBidi(c)
}

// isControl covers C1 as well as C0: some terminals act on C1 codes
// (U+009B is a one-character CSI).
func isControl(c rune) bool {
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)
}

// isBidi reports the Unicode bidirectional formatting characters: marks,
// embeddings, overrides and isolates.
func isBidi(c rune) bool {
	return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
}

// Group3 renders n with thousands separators: 1234567 is "1,234,567".
func Group3(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

// Plural renders n and the noun that agrees with it: "1 rule", "2 rules".
func Plural(n int64, one, many string) string {
	if n == 1 {
		return Group3(n) + " " + one
	}
	return Group3(n) + " " + many
}

// WriteJSON writes v as the commands' JSON output: indented, with <, >
// and & left as they are (the output is read by programs, not browsers).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// ErrWriter remembers the first write error, so that output made of many
// writes is checked once, at the end (Err).
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Printf writes like fmt.Fprintf, and nothing once a write has failed.
func (e *ErrWriter) Printf(format string, args ...any) {
	if e.Err == nil {
		_, e.Err = fmt.Fprintf(e.W, format, args...)
	}
}
