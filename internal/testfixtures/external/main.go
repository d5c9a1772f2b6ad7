// Command external builds a labelled set of User-Agent headers that the
// shared data set does not hold, from the same public sources, so that the
// bot classifier can be measured on headers it was not written from.
//
// The shared data set (../shared/data/useragents-labeled.jsonl.gz) holds
// about half of each source's test fixtures. This command reads checkouts of
// the sources, labels every header the way the shared set labels its source,
// and writes the rows the shared set does not have, in the shared set's
// format, to standard output:
//
//	go run ./internal/testfixtures/external \
//		-shared ../shared/data/useragents-labeled.jsonl.gz \
//		-crawler-detect ~/src/Crawler-Detect -isbot ~/src/isbot \
//		-matomo ~/src/device-detector -ua-parser-js ~/src/ua-parser-js \
//		| gzip > /tmp/external.jsonl.gz
//
// Then BOTDETECT_EXTERNAL=/tmp/external.jsonl.gz go test
// ./caddymodule/botdetect -run TestDatasetExternal -v measures the
// classifier on it. Any source may be left out. A header that two sources
// label differently is dropped.
//
// -browscap reads the test fixtures of github.com/browscap/browscap, a
// source the shared set never drew on; given alone, it builds a set for an
// audit by a labeller of its own (BENCHMARKS.md):
//
//	go run ./internal/testfixtures/external \
//		-shared ../shared/data/useragents-labeled.jsonl.gz \
//		-browscap ~/src/browscap | gzip > /tmp/browscap.jsonl.gz
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/robotsguard/caddy-robots-txt/internal/testfixtures"
)

type collector struct {
	rows     map[string]testfixtures.LabelledUA
	conflict map[string]bool
}

func (c *collector) add(ua string, bot bool, category string, ambiguous bool) {
	ua = strings.TrimRight(ua, "\r\n")
	if strings.TrimSpace(ua) == "" {
		return
	}
	r := testfixtures.LabelledUA{UA: ua, Bot: bot, Category: category, Ambiguous: ambiguous, Tier: "curated"}
	if old, ok := c.rows[ua]; ok {
		if old.Bot != bot {
			c.conflict[ua] = true
		}
		return
	}
	c.rows[ua] = r
}

func main() {
	shared := flag.String("shared", "", "the shared data set, whose headers are left out")
	crawlerDetect := flag.String("crawler-detect", "", "checkout of github.com/JayBizzle/Crawler-Detect")
	isbot := flag.String("isbot", "", "checkout of github.com/omrilotan/isbot")
	matomo := flag.String("matomo", "", "checkout of github.com/matomo-org/device-detector")
	uaParser := flag.String("ua-parser-js", "", "checkout of github.com/faisalman/ua-parser-js")
	browscap := flag.String("browscap", "", "checkout of github.com/browscap/browscap")
	flag.Parse()
	if *shared == "" {
		log.Fatal("-shared is required: the rows it holds are left out")
	}
	c := &collector{rows: make(map[string]testfixtures.LabelledUA), conflict: make(map[string]bool)}
	for _, src := range []struct {
		dir  string
		read func(*collector, string) error
	}{
		{*crawlerDetect, readCrawlerDetect},
		{*isbot, readIsbot},
		{*matomo, readMatomo},
		{*uaParser, readUAParser},
		{*browscap, readBrowscap},
	} {
		if src.dir == "" {
			continue
		}
		if err := src.read(c, src.dir); err != nil {
			log.Fatal(err)
		}
	}
	known, err := testfixtures.ReadDataset(*shared)
	if err != nil {
		log.Fatal(err)
	}
	inShared := make(map[string]bool, len(known))
	for _, r := range known {
		inShared[r.UA] = true
	}
	var uas []string
	held := 0
	for ua := range c.rows {
		switch {
		case c.conflict[ua]:
		case inShared[ua]:
			held++
		default:
			uas = append(uas, ua)
		}
	}
	sort.Strings(uas)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, ua := range uas {
		if err := enc.Encode(c.rows[ua]); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d headers read, %d labelled both ways, %d more in the shared set; %d written", len(c.rows), len(c.conflict), held, len(uas))
}

// readCrawlerDetect reads Crawler-Detect's test lists, one header a line.
// devices.txt may be missing (it is large); crawlers.txt may not.
func readCrawlerDetect(c *collector, dir string) error {
	for _, f := range []struct {
		name     string
		bot      bool
		category string
		optional bool
	}{
		{"tests/data/user_agent/crawlers.txt", true, "crawler", false},
		{"tests/data/user_agent/devices.txt", false, "browser", true},
	} {
		data, err := os.ReadFile(filepath.Join(dir, f.name))
		if f.optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			c.add(line, f.bot, f.category, false)
		}
	}
	return nil
}

// readIsbot reads isbot's fixtures: maps of a product to its headers.
func readIsbot(c *collector, dir string) error {
	for _, f := range []struct {
		name     string
		bot      bool
		category string
	}{
		{"fixtures/crawlers.yml", true, "crawler"},
		{"fixtures/browsers.yml", false, "browser"},
	} {
		var m map[string][]string
		if err := readYAML(filepath.Join(dir, f.name), &m); err != nil {
			return err
		}
		for _, uas := range m {
			for _, ua := range uas {
				c.add(ua, f.bot, f.category, false)
			}
		}
	}
	return nil
}

// readMatomo reads device-detector's fixtures: bots.yml holds bots, the
// other device and client fixtures people's software, except the clients
// typed as libraries (bots), feed readers and media players (people's, but
// ambiguous, as the data README counts them).
func readMatomo(c *collector, dir string) error {
	var files []string
	for _, pattern := range []string{"Tests/fixtures/*.yml", "Tests/Parser/Client/fixtures/*.yml"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no device-detector fixtures", dir)
	}
	for _, file := range files {
		base := strings.TrimSuffix(filepath.Base(file), ".yml")
		if strings.HasPrefix(base, "clienthints") {
			continue // the header alone does not say what the client is
		}
		var entries []struct {
			UA     string `yaml:"user_agent"`
			Client any    `yaml:"client"`
		}
		if err := readYAML(file, &entries); err != nil {
			return err
		}
		for _, e := range entries {
			typ := base
			if m, ok := e.Client.(map[string]any); ok && base != "bots" {
				if t, ok := m["type"].(string); ok {
					typ = t
				}
			}
			switch typ {
			case "bots":
				c.add(e.UA, true, "crawler", false)
			case "library":
				c.add(e.UA, true, "library", true)
			case "feed reader", "feed_reader":
				c.add(e.UA, false, "feed_reader", true)
			case "mediaplayer":
				c.add(e.UA, false, "mediaplayer", true)
			default:
				c.add(e.UA, false, "browser", false)
			}
		}
	}
	return nil
}

// readUAParser reads ua-parser-js's test data: lists of {"ua": ...}. The
// extension files name their kind: crawlers, fetchers and command-line
// clients are bots, libraries ambiguous bots, media players ambiguous
// people's software; every other file holds people's software.
func readUAParser(c *collector, dir string) error {
	root := filepath.Join(dir, "test", "data", "ua")
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var entries []struct {
			UA string `json:"ua"`
		}
		if err := json.Unmarshal(data, &entries); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		kind := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, e := range entries {
			switch kind {
			case "crawler", "fetcher", "cli":
				c.add(e.UA, true, kind, false)
			case "library":
				c.add(e.UA, true, kind, true)
			case "mediaplayer":
				c.add(e.UA, false, kind, true)
			default:
				c.add(e.UA, false, "browser", false)
			}
		}
		return nil
	})
}

// browscapEntry is one test of browscap's tests/issues/*.php: a PHP array
// item that gives a header ('ua') and what browscap says of it.
var (
	browscapEntry     = regexp.MustCompile(`(?m)^    '[^'\n]*' => \[$`)
	browscapUA        = regexp.MustCompile(`'ua' => '((?:[^'\\]|\\.)*)'`)
	browscapType      = regexp.MustCompile(`'Browser_Type' => '([^']*)'`)
	browscapFakeOrMod = regexp.MustCompile(`'(?:isFake|isModified)' => true`)
)

// readBrowscap reads browscap's fixtures. Browser_Type "Bot" and
// "Bot/Crawler" (crawlers, libraries, scanners) are bots; "Browser",
// "Application" and "Email Client" people's software; feed readers and
// media players people's but ambiguous, as the data README counts them.
// Headers browscap calls fake or modified, and the other types ("Tool",
// "Offline Browser", "unknown"), are left out.
func readBrowscap(c *collector, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "tests", "issues", "*.php"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no browscap fixtures in tests/issues", dir)
	}
	unquote := strings.NewReplacer(`\\`, `\`, `\'`, `'`)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		starts := browscapEntry.FindAllIndex(data, -1)
		for i, st := range starts {
			end := len(data)
			if i+1 < len(starts) {
				end = starts[i+1][0]
			}
			entry := data[st[1]:end]
			ua, typ := browscapUA.FindSubmatch(entry), browscapType.FindSubmatch(entry)
			if ua == nil || typ == nil || browscapFakeOrMod.Match(entry) {
				continue
			}
			h := unquote.Replace(string(ua[1]))
			switch string(typ[1]) {
			case "Bot", "Bot/Crawler":
				c.add(h, true, "crawler", false)
			case "Browser", "Application", "Email Client":
				c.add(h, false, "browser", false)
			case "Feed Reader":
				c.add(h, false, "feed_reader", true)
			case "Multimedia Player":
				c.add(h, false, "mediaplayer", true)
			}
		}
	}
	return nil
}

func readYAML(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
