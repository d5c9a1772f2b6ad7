package config

import (
	"fmt"
	"strconv"
	"time"

	"github.com/caddyserver/caddy/v2"
)

// durationBounds are the bounds of each duration setting, by its JSON
// name, for the errors that say what is allowed: every one has an upper
// bound too, so that none can overflow the time it is added to and
// silently turn its feature off. grace also allows 0 (off).
var durationBounds = map[string][2]caddy.Duration{
	"reload":         {MinInterval, MaxReload},
	"grace":          {MinGrace, MaxGrace},
	"trap_ttl":       {MinTrapTTL, MaxTrapTTL},
	"share_interval": {MinInterval, MaxShareInterval},
}

// durationRange is "a duration from 100ms to 24h": what a duration
// setting allows.
func durationRange(field string) string {
	b := durationBounds[field]
	return fmt.Sprintf("a duration from %s to %s", span(b[0]), span(b[1]))
}

// outOfRange reports whether d, a duration setting's value other than 0
// (its default, or off), lies outside its bounds.
func outOfRange(field string, d caddy.Duration) bool {
	b := durationBounds[field]
	return d < b[0] || d > b[1]
}

// span writes a bound as an operator writes it in a configuration:
// "24h" and "8760h", where time.Duration says "24h0m0s".
func span(d caddy.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}} {
		if n := time.Duration(d); n != 0 && n%u.unit == 0 {
			return strconv.FormatInt(int64(n/u.unit), 10) + u.name
		}
	}
	return time.Duration(d).String()
}
