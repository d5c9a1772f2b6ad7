package testfixtures

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The labelled User-Agent data set (see ../shared/data/README.md) is read
// by the tests that measure the bot classifier, directly and through a
// running Caddy. They run only when asked:
//
//	BOTDETECT_DATASET=/path/to/useragents-labeled.jsonl.gz go test ./...
//	BOTDETECT_DATASET=auto go test ./...   # walk up to shared/data
//
// Without the variable they skip; with it, a missing file is a failure.
const (
	DatasetEnv  = "BOTDETECT_DATASET"
	DatasetPath = "shared/data/useragents-labeled.jsonl.gz" // relative to a directory above the checkout
)

// ExternalEnv names a file of headers the data set does not hold, from the
// same public sources and in the same format, built by
// ./internal/testfixtures/external. The classifier's tests measure it
// when the variable is set.
const ExternalEnv = "BOTDETECT_EXTERNAL"

// LabelledUA is one row of the data set.
type LabelledUA struct {
	UA        string `json:"ua"`
	Bot       bool   `json:"bot"`
	Category  string `json:"category"`
	Ambiguous bool   `json:"ambiguous"`
	Tier      string `json:"tier"`
}

// The groups the figures are given for.
const (
	CuratedBots     = "curated bots"
	CuratedHumans   = "curated humans"
	BulkBots        = "bulk bots"
	AmbiguousBots   = "ambiguous bots"
	AmbiguousHumans = "ambiguous humans"
)

// Group names the row's part of the figures: the curated, unambiguous rows
// are the ones the classifier's targets are set on.
func (r LabelledUA) Group() string {
	switch {
	case r.Ambiguous && r.Bot:
		return AmbiguousBots
	case r.Ambiguous:
		return AmbiguousHumans
	case r.Tier == "curated" && r.Bot:
		return CuratedBots
	case r.Tier == "curated":
		return CuratedHumans
	case r.Bot:
		return r.Tier + " bots"
	default:
		return r.Tier + " humans"
	}
}

// DatasetFile resolves BOTDETECT_DATASET to the data set's path; asked is
// false when the variable is unset. "auto" looks for DatasetPath in every
// parent of the working directory.
func DatasetFile() (path string, asked bool, err error) {
	path = os.Getenv(DatasetEnv)
	switch path {
	case "":
		return "", false, nil
	case "auto":
		dir, err := os.Getwd()
		if err != nil {
			return "", true, err
		}
		for {
			p := filepath.Join(dir, DatasetPath)
			if _, err := os.Stat(p); err == nil {
				return p, true, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return "", true, fmt.Errorf("%s=auto: %s not found in any parent of the working directory", DatasetEnv, DatasetPath)
			}
			dir = parent
		}
	}
	return path, true, nil
}

// ReadDataset reads the data set at path.
func ReadDataset(path string) ([]LabelledUA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var rows []LabelledUA
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var r LabelledUA
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}
