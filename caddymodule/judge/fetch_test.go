package judge

import (
	"testing"
	"time"
)

func TestNotModifiedNamesVersion(t *testing.T) {
	const etag = `"v1"`
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, inm, ims string
		want           bool
	}{
		{"its entity-tag", etag, "", true},
		{"its weak entity-tag, in a list", `"other", W/` + etag, "", true},
		{"another entity-tag", `"v0"`, "", false},
		{"any entity-tag", "*", "", false},
		{"any entity-tag, in a list", `"v0", *`, "", false},
		// ServeContent reads the date only without If-None-Match.
		{"another entity-tag and a date", `"v0"`, "Wed, 01 Jan 2025 11:00:00 GMT", false},
		{"a date before now", "", "Wed, 01 Jan 2025 11:00:00 GMT", true},
		{"now", "", "Wed, 01 Jan 2025 12:00:00 GMT", true},
		{"a date in the future", "", "Wed, 01 Jan 2025 12:00:01 GMT", false},
		{"no date", "", "yesterday", false},
		{"no validator", "", "", false},
	} {
		if got := NotModifiedNamesVersion(tc.inm, tc.ims, etag, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
