package integration

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/robotsguard/caddy-robots-txt/caddymodule/botdetect"
	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

// TestDatasetThroughCaddy sends every header of the labelled data set (when
// BOTDETECT_DATASET is set) to a running Caddy whose robots.txt disallows
// everything to every bot, the way the data set's keepers measure the
// classifier, and checks that Caddy refuses exactly the requests whose
// header botdetect calls a bot: what the figures of the classifier's own
// tests say is what a site gets. It logs the figures as measured through
// Caddy, every row counted by its label.
func TestDatasetThroughCaddy(t *testing.T) {
	path, asked, err := testfixtures.DatasetFile()
	switch {
	case !asked:
		t.Skipf("set %s to run", testfixtures.DatasetEnv)
	case err != nil:
		t.Fatal(err)
	}
	rows, err := testfixtures.ReadDataset(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	inst := startCaddy(t, `http://127.0.0.1:{{port}} {
	root * {{dir}}/site
	robots_txt
	file_server
}
`, func(inst *instance) {
		writeFile(t, filepath.Join(inst.dir, "site", "robots.txt"), "User-agent: *\nDisallow: /\n")
		writeFile(t, filepath.Join(inst.dir, "site", "page.html"), "<p>page</p>\n")
	})

	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: datasetWorkers, Proxy: nil},
	}
	defer client.CloseIdleConnections()
	classifier := botdetect.New(nil, nil)

	type outcome struct {
		row    testfixtures.LabelledUA
		status int
		err    error
	}
	work := make(chan testfixtures.LabelledUA)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for range datasetWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				o := outcome{row: r}
				req, err := http.NewRequest(http.MethodGet, inst.url("/page.html"), nil)
				if err == nil {
					req.Host = inst.host
					// Set directly: an empty value is sent as an
					// empty header, which is what the row says.
					req.Header["User-Agent"] = []string{r.UA}
					var resp *http.Response
					if resp, err = client.Do(req); err == nil {
						_, err = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						o.status = resp.StatusCode
					}
				}
				o.err = err
				results <- o
			}
		}()
	}
	go func() {
		for _, r := range rows {
			if sendable(r.UA) {
				work <- r
			}
		}
		close(work)
		wg.Wait()
		close(results)
	}()

	type tally struct{ rows, refused int }
	figures := make(map[string]*tally)
	var mismatches []string
	sent := 0
	for o := range results {
		sent++
		if o.err != nil {
			mismatches = append(mismatches, fmt.Sprintf("%q: %v", o.row.UA, o.err))
			continue
		}
		bot, _ := classifier.Classify(o.row.UA)
		want := http.StatusOK
		if bot {
			want = http.StatusForbidden
		}
		if o.status != want {
			mismatches = append(mismatches, fmt.Sprintf("%q: status %d, want %d (Classify says bot=%v)", o.row.UA, o.status, want, bot))
		}
		g := o.row.Group()
		if figures[g] == nil {
			figures[g] = new(tally)
		}
		figures[g].rows++
		if o.status == http.StatusForbidden {
			figures[g].refused++
		}
	}

	// Go's client refuses to send a header with control bytes, and so
	// would any proxy; the data set has a couple.
	if unsent := len(rows) - sent; unsent > maxUnsendable {
		t.Errorf("%d of %d headers could not be sent, want at most %d", unsent, len(rows), maxUnsendable)
	}
	t.Logf("%d headers sent, %d with control bytes left out", sent, len(rows)-sent)
	slices.Sort(mismatches)
	for i, m := range mismatches {
		if i == 20 {
			t.Errorf("... and %d more", len(mismatches)-i)
			break
		}
		t.Error(m)
	}
	groups := slices.Sorted(maps.Keys(figures))
	for _, g := range groups {
		f := figures[g]
		t.Logf("through Caddy, %-16s %6d rows, refused %6d (%.3f%%)", g, f.rows, f.refused, 100*float64(f.refused)/float64(f.rows))
	}
	if figures[testfixtures.CuratedBots] == nil || figures[testfixtures.CuratedHumans] == nil {
		t.Errorf("no curated rows were sent: %v", groups)
	}
}

const (
	datasetWorkers = 8
	maxUnsendable  = 10
)

// sendable reports whether an HTTP client will send ua as a header value:
// no control bytes but tab.
func sendable(ua string) bool {
	for i := 0; i < len(ua); i++ {
		if b := ua[i]; b < ' ' && b != '\t' || b == 0x7f {
			return false
		}
	}
	return true
}
