package botdetect

import "testing"

// TestDatasetSteps reports the average work per header of the data set in
// classify's steps, a deterministic measure of cost next to the noisy
// benchmarks.
func TestDatasetSteps(t *testing.T) {
	rows := loadDataset(t)
	c := New(nil, nil)
	total, bytes := 0, 0
	for _, r := range rows {
		_, _, s := c.classify(r.UA)
		total += s
		bytes += min(len(r.UA), maxScan)
	}
	t.Logf("%d headers: %.1f steps per header, %.2f per byte", len(rows), float64(total)/float64(len(rows)), float64(total)/float64(bytes))
}
