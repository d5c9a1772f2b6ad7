package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads --since: an RFC 3339 time, or a duration before now
// ("24h", "90m", "7d").
func ParseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	d, err := parseDuration(s)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--since %q: want an RFC 3339 time (2025-01-02T15:04:05Z), a date (2025-01-02) or a positive duration (24h, 90m, 7d)", s)
	}
	return now.Add(-d), nil
}

// parseDuration is time.ParseDuration that also takes days ("7d", "1d12h").
func parseDuration(s string) (time.Duration, error) {
	if i := strings.IndexByte(s, 'd'); i > 0 {
		days, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, err
		}
		var rest time.Duration
		if i+1 < len(s) {
			if rest, err = time.ParseDuration(s[i+1:]); err != nil {
				return 0, err
			}
		}
		return time.Duration(days*24*float64(time.Hour)) + rest, nil
	}
	return time.ParseDuration(s)
}
