package text

import (
	"bytes"
	"errors"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\x1b[31mb\x07\u0085c", `a\x1b[31mb\x07\x85c`},
		{"GPTBot ü", "GPTBot ü"},
		{"\x7f\u009b", `\x7f\x9b`},
		// A lone byte that is not UTF-8: 0x9b is a CSI to an 8-bit terminal.
		{"rule \x9b2J", `rule \x9b2J`},
		{"caf\xc3", `caf\xc3`},
		// Bidirectional overrides and isolates reorder what follows.
		{"/b\u202e1 enil", `/b\u202e1 enil`},
		{"a\u2066b\u2069\u200fc", `a\u2066b\u2069\u200fc`},
		{"", ""},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGroup3AndPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-1234567, "-1,234,567"}, {-100, "-100"},
	} {
		if got := Group3(tc.n); got != tc.want {
			t.Errorf("Group3(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 rules"}, {1, "1 rule"}, {2, "2 rules"}, {1500, "1,500 rules"},
	} {
		if got := Plural(tc.n, "rule", "rules"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestWriteJSONLeavesHTMLCharacters(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]string{"k": "<a&b>"}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"k\": \"<a&b>\"\n}\n"; b.String() != want {
		t.Errorf("WriteJSON = %q, want %q", b.String(), want)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("disk full")
}

func TestErrWriterStopsAtFirstError(t *testing.T) {
	fw := &failWriter{}
	ew := &ErrWriter{W: fw}
	ew.Printf("a")
	ew.Printf("b")
	if ew.Err == nil || fw.n != 1 {
		t.Errorf("err %v after %d writes, want an error after 1", ew.Err, fw.n)
	}
}
