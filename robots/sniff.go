package robots

// LooksLikeRobotsTxt reports whether the body f was parsed from reads as
// a robots.txt at all: one with a field robots.txt knows, or one of only
// blank lines and comments (an empty robots.txt). A body with text in it
// but no such field (an HTML error page, a binary, a log written to the
// wrong path) is not; a server or an editor put something else where
// robots.txt should be, and a caller should not read it as "allow all".
func (f *File) LooksLikeRobotsTxt() bool {
	if f.Fields() > 0 {
		return true
	}
	for _, d := range f.Diagnostics() {
		switch d.Kind {
		case KindNoSeparator, KindUnknownField, KindNUL, KindInvalidUTF8:
			return false
		}
	}
	return true
}
