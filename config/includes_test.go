package config

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	t.Setenv("ROBOTS_TXT_TEST_HOST", "lists.example")
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"a file", list, list, ""},
		{"a file that does not exist yet", filepath.Join(dir, "later.txt"), filepath.Join(dir, "later.txt"), ""},
		{"a file under an environment variable", "{env.ROBOTS_TXT_TEST_DIR}/list.txt", list, ""},
		{"a URL", "https://lists.example/ai.txt", "https://lists.example/ai.txt", ""},
		{"a URL whose scheme is in capitals", "HTTPS://lists.example/ai.txt", "https://lists.example/ai.txt", ""},
		{"a URL from the environment", "{env.ROBOTS_TXT_TEST_URL}", "https://lists.example/ai.txt", ""},
		{"an unset variable", "{env.ROBOTS_TXT_TEST_UNSET}", "", "is empty once its placeholders are replaced ({env.ROBOTS_TXT_TEST_UNSET} is empty: an environment variable that is not set?)"},
		{"a URL with an unset variable as its host", "https://{env.ROBOTS_TXT_TEST_UNSET}/ai.txt", "", `is "https:///ai.txt" once its placeholders are replaced ({env.ROBOTS_TXT_TEST_UNSET} is empty`},
		{"a request placeholder", "/srv/{http.request.host}/list.txt", "", "depends on the request"},
		{"a URL with a request placeholder", "https://lists.example/{http.request.host}.txt", "", "depends on the request ({http.request.host}"},
		{"a URL with a variable as its host", "https://{env.ROBOTS_TXT_TEST_HOST}/ai.txt", "https://lists.example/ai.txt", ""},
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

// TestIncludeSameListTwice: one list under two spellings (an absolute path
// and a relative one from Caddy's working directory, a path with "..", an
// {env.*} entry and its value) is given twice, which would add only an
// empty section to the served robots.txt; each way a config is read says
// so, the Caddyfile at the second entry's line. Other lists, and URLs
// written otherwise, are not the same.
func TestIncludeSameListTwice(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(wd, "ai.txt")
	t.Setenv("ROBOTS_TXT_TEST_DIR", wd)
	for _, tc := range []struct {
		name    string
		include []string
		err     string // "" for none
		line    int    // of the Caddyfile error, each entry on a line of its own
	}{
		{"an absolute path and a relative one", []string{abs, "./ai.txt"}, `"./ai.txt" is given more than once (first at line 2, as "` + abs + `")`, 3},
		{"two relative spellings", []string{"ai.txt", "lists/../ai.txt"}, `"lists/../ai.txt" is given more than once (first at line 2, as "ai.txt")`, 3},
		{"the same spelling", []string{"ai.txt", "ai.txt"}, `"ai.txt" is given more than once (first at line 2)`, 3},
		{"two lists", []string{"ai.txt", "lists/ai.txt"}, "", 0},
		{"URLs written otherwise", []string{"https://lists.example/ai.txt", "https://lists.example/./ai.txt"}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := "robots_txt {\n"
			for _, inc := range tc.include {
				input += "\tinclude " + quote(inc) + "\n"
			}
			_, err := parse(input + "}")
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Caddyfile: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasSuffix(err.Error(), ", at Testfile:"+strconv.Itoa(tc.line))):
				t.Errorf("Caddyfile: %v; want %q at line %d", err, tc.err, tc.line)
			}
			err = Config{Include: tc.include}.Validate()
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), "include[1]: ")):
				t.Errorf("Validate: %v; want include[1] given more than once", err)
			}
		})
	}
	// An {env.*} entry is known only once resolved, as the handler and
	// check resolve it.
	_, err = ResolveIncludes([]string{"{env.ROBOTS_TXT_TEST_DIR}/ai.txt", "./ai.txt"})
	if want := `include[1]: "./ai.txt" is the same list as include[0] ("{env.ROBOTS_TXT_TEST_DIR}/ai.txt") once resolved`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ResolveIncludes: %v; want %q", err, want)
	}
}
