package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestResolveIncludes(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	if err := os.WriteFile(list, []byte("User-agent: EvilBot\nDisallow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROBOTS_TXT_TEST_DIR", dir)
	t.Setenv("ROBOTS_TXT_TEST_URL", "https://lists.example/ai.txt")
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"a file", list, list, ""},
		{"a file that does not exist yet", filepath.Join(dir, "later.txt"), filepath.Join(dir, "later.txt"), ""},
		{"a file under an environment variable", "{env.ROBOTS_TXT_TEST_DIR}/list.txt", list, ""},
		{"a URL", "https://lists.example/ai.txt", "https://lists.example/ai.txt", ""},
		{"a URL whose scheme is in capitals", "HTTPS://lists.example/ai.txt", "https://lists.example/ai.txt", ""},
		{"a URL from the environment", "{env.ROBOTS_TXT_TEST_URL}", "https://lists.example/ai.txt", ""},
		{"an unset variable", "{env.ROBOTS_TXT_TEST_UNSET}", "", "is empty once its placeholders are replaced"},
		{"a request placeholder", "/srv/{http.request.host}/list.txt", "", "depends on the request"},
		{"a directory", dir, "", "is a directory"},
		{"another scheme", "ftp://lists.example/ai.txt", "", "give an absolute http or https URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveIncludes([]string{tc.in})
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("ResolveIncludes(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.err)
			case tc.err == "" && (err != nil || !slices.Equal(got, []string{tc.want})):
				t.Errorf("ResolveIncludes(%q) = %v, %v; want [%s]", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestStrictIncludes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(good, []byte("User-agent: EvilBot\nDisallow: /\n"), 0o644)
	os.WriteFile(bad, []byte("<html><body>not a robots.txt</body></html>\n"), 0o644)
	for _, tc := range []struct {
		name string
		in   []string
		err  string
	}{
		{"a good list and a URL", []string{good, "https://lists.example/ai.txt"}, ""},
		{"a missing list", []string{filepath.Join(dir, "missing.txt")}, "does not exist"},
		{"a list that is no robots.txt", []string{good, bad}, `strict: included list "` + bad + `" has errors`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := StrictIncludes(tc.in)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("StrictIncludes(%v) = %v; want %q", tc.in, err, tc.err)
			}
		})
	}
}
