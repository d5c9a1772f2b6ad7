package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
)

// ParseSince reads --since: an RFC 3339 time, a date, or a duration
// before now in Caddy's syntax, which adds days ("24h", "90m", "7d").
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	d, err := caddy.ParseDuration(s)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--since %q: want an RFC 3339 time (2025-01-02T15:04:05Z), a date (2025-01-02) or a positive duration (24h, 90m, 7d)", s)
	}
	return now.Add(-d), nil
}
