package botdetect

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// datasetPath is where the labelled User-Agent data set lives relative to a
// directory above the checkout: the repository is cloned beside shared/.
const datasetPath = "shared/data/useragents-labeled.jsonl.gz"

// Floors on the curated, unambiguous rows. False positives are held to the
// project's target (0.1%) because a false positive is a person refused a
// page. Recall is held just below what the tables reach today (96.1%, 2,994
// of 3,114), so that it cannot slip. The project aims for 98%, but about
// three quarters of the 120 rows still missed are labelled bots that are
// really software people use (Microsoft Office, Outlook, Apple Mail, VLC,
// podcast and feed-reader apps, the DuckDuckGo app) or junk ("ipad",
// "Dark", "Abcd"), which no rule should call a bot; the rest are names too
// obscure to confirm as automated clients (see BENCHMARKS.md).
const (
	minCuratedRecall = 0.96
	maxCuratedFPRate = 0.001
)

type labelledUA struct {
	UA        string `json:"ua"`
	Bot       bool   `json:"bot"`
	Category  string `json:"category"`
	Ambiguous bool   `json:"ambiguous"`
	Tier      string `json:"tier"`
}

// findDataset walks up from the working directory looking for datasetPath.
func findDataset() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(dir, datasetPath)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func loadDataset(t *testing.T) []labelledUA {
	t.Helper()
	path, ok := findDataset()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("data set %s not found in any parent of the working directory", datasetPath)
		}
		t.Skipf("data set %s not found in any parent of the working directory; clone the repository beside shared/ to run this test", datasetPath)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	var rows []labelledUA
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r labelledUA
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return rows
}

// tally counts how many rows of one group Classify called bots; for a group
// of bots that is the recall, for a group of humans the false positives.
type tally struct {
	rows, bots int
	wrong      []labelledUA
}

func (t *tally) rate() float64 {
	if t.rows == 0 {
		return 0
	}
	return float64(t.bots) / float64(t.rows)
}

func TestDataset(t *testing.T) {
	rows := loadDataset(t)
	c := New(nil, nil)

	groups := make(map[string]*tally)
	group := func(name string) *tally {
		if groups[name] == nil {
			groups[name] = new(tally)
		}
		return groups[name]
	}
	for _, r := range rows {
		var name string
		switch {
		case r.Ambiguous && r.Bot:
			name = "ambiguous bots"
		case r.Ambiguous:
			name = "ambiguous humans"
		case r.Tier == "curated" && r.Bot:
			name = "curated bots"
		case r.Tier == "curated":
			name = "curated humans"
		case r.Bot:
			name = r.Tier + " bots"
		default:
			name = r.Tier + " humans"
		}
		g := group(name)
		g.rows++
		bot, _ := c.Classify(r.UA)
		if bot {
			g.bots++
		}
		if bot != r.Bot {
			g.wrong = append(g.wrong, r)
		}
	}

	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g := groups[name]
		measure := "recall"
		if !strings.HasSuffix(name, "bots") {
			measure = "false positives"
		}
		t.Logf("%-17s %6d rows, %-15s %6d (%.3f%%)", name, g.rows, measure, g.bots, 100*g.rate())
	}
	if g := group("curated humans"); len(g.wrong) > 0 {
		t.Logf("curated false positives:\n%s", sample(g.wrong, 20))
	}

	// BOTDETECT_MISSES=file writes every misclassified row, for tuning the tables.
	if out := os.Getenv("BOTDETECT_MISSES"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			for _, r := range groups[name].wrong {
				fmt.Fprintf(f, "%s\t%s\t%s\n", name, r.Category, r.UA)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}

	if g := group("curated bots"); g.rate() < minCuratedRecall {
		t.Errorf("recall on curated unambiguous bots is %.3f%%, want at least %.1f%%; misses include:\n%s",
			100*g.rate(), 100*minCuratedRecall, sample(g.wrong, 20))
		t.Log("set BOTDETECT_MISSES=/some/file to write every misclassified row")
	}
	if g := group("curated humans"); g.rate() > maxCuratedFPRate {
		t.Errorf("false-positive rate on curated unambiguous humans is %.3f%%, want at most %.1f%%; false positives include:\n%s",
			100*g.rate(), 100*maxCuratedFPRate, sample(g.wrong, 20))
	}
}

func sample(rows []labelledUA, n int) string {
	var s string
	for i, r := range rows {
		if i == n {
			s += fmt.Sprintf("\t... and %d more\n", len(rows)-n)
			break
		}
		s += fmt.Sprintf("\t%q\n", r.UA)
	}
	return s
}
