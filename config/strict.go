package config

import (
	"io"
	"os"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/lint"
	"github.com/robotsguard/caddy-robots-txt/robots"
)

// StrictErrors lists what the strict option refuses in a parsed
// robots.txt, the error findings "caddy robots lint" reports: a body that
// is not a robots.txt at all, which is loaded as allowing everything, and
// every error-severity finding of the parser, with its line. A finding on
// a line for which keep returns false is left out (nil keeps all), for a
// caller that reports some lines another way.
func StrictErrors(f *robots.File, keep func(line int) bool) []string {
	var errs []string
	if d, ok := lint.NotRobotsTxt(f); ok {
		errs = append(errs, d.Message)
	}
	for _, d := range f.Diagnostics() {
		if d.Severity == robots.Error && (keep == nil || keep(d.Line)) {
			errs = append(errs, d.String())
		}
	}
	return errs
}

// StrictFileErrors is StrictErrors for the file at path, read as the
// handler reads it (the Caddyfile's reader uses it for a file it finds
// through the site's root): its first robots.DefaultMaxSize bytes, and the
// size finding gives the file's size as the handler's does, not the size
// of what was read. A file that cannot be read gives nothing here:
// CheckFile and the handler's load report that.
func StrictFileErrors(path string) []string {
	return strictErrorsOf(path, robots.DefaultMaxSize+1, false)
}

// strictListErrors is StrictFileErrors for an included list, read as the
// handler reads one (include.ReadList, then cut at robots.DefaultMaxSize
// and the line the limit cuts short), so a longer list is no error, as it
// is none at load.
func strictListErrors(path string) []string {
	return strictErrorsOf(path, robots.DefaultMaxSize+1, true)
}

// strictErrorsOf is StrictErrors for the first limit bytes of the file at
// path, cut to whole lines within robots.DefaultMaxSize when cut is set.
func strictErrorsOf(path string, limit int64, cut bool) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var size int64
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	body, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil
	}
	if cut {
		body = robots.Truncate(body, robots.DefaultMaxSize)
	}
	return StrictErrors(robots.Parse(body, robots.SourceSize(size)), nil)
}
