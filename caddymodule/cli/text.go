package cli

import (
	"io"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/internal/text"
)

// check and lint write with the helpers they share with the report,
// under the names they have always used.

type errWriter = text.ErrWriter

func clean(s string) string                   { return text.Clean(s) }
func plural(n int64, one, many string) string { return text.Plural(n, one, many) }
func writeJSON(w io.Writer, v any) error      { return text.WriteJSON(w, v) }
