package botdetect

import (
	"strings"
	"testing"
)

// hostileShapes build crafted headers of about n bytes, the shapes that
// would make a careless classifier rescan the header from each position.
var hostileShapes = []struct {
	name  string
	build func(n int) string
}{
	{"paren-braces", func(n int) string { return "(" + strings.Repeat("{{", n/2) }},
	{"slashes", func(n int) string { return strings.Repeat("/", n) }},
	{"semicolons", func(n int) string { return "Mozilla/5.0 (" + strings.Repeat(";", n) }},
	{"spaces", func(n int) string { return "Mozilla/5.0" + strings.Repeat(" ", n) + "x" }},
	{"letters", func(n int) string { return strings.Repeat("a", n) }},
	{"mozilla-repeated", func(n int) string { return strings.Repeat("Mozilla/5.0 (", n/13+1) }},
	{"android-comment-bots", func(n int) string { return "Mozilla/5.0 (Linux; Android 10; " + strings.Repeat("bot ", n/4) }},
	{"android-comment-items", func(n int) string { return "Mozilla/5.0 (Linux; Android 10; " + strings.Repeat("a;bot ", n/6) }}, // each sign's item is counted
	{"android-comments", func(n int) string { return strings.Repeat("(Android 1; xbot ", n/17) }},                               // each comment may be the device's
	{"app-android-comments", func(n int) string { return strings.Repeat("Android (a; b; c; xbot) ", n/24) }},
	{"urls", func(n int) string { return "(" + strings.Repeat("://", n/3) }},
	{"at-signs", func(n int) string { return strings.Repeat("a@", n/2) }},
	{"products", func(n int) string { return strings.Repeat("A/1 ", n/4) }},
	{"nested-parens", func(n int) string { return strings.Repeat("(", n/2) + strings.Repeat(")", n/2) }},
	{"browser-padded", func(n int) string { return uaChromeWindows + strings.Repeat(" Safari/537.36", n/14) }},
	{"commas", func(n int) string { return strings.Repeat("a1,", n/3) }},                  // each comma is looked at as an Apple model's
	{"build-numbers", func(n int) string { return strings.Repeat(" 1.2.3", n/6) }},        // each first dot is looked at as a build number's
	{"spelt-addresses", func(n int) string { return strings.Repeat("a at b", n/6) }},      // each " at " is looked at as an address's
	{"copied-headers", func(n int) string { return strings.Repeat("a, Mozilla/", n/11) }}, // each as a copied header's
}

// stepsPerByte is the most steps classify can count for one byte read,
// whatever the header: the byte itself in each pass (the first, and the
// second for the words of people's software, run at most twice), every
// candidate of the byte's bucket, the comparison and shape window of the
// candidates whose first eight bytes can all match the same header bytes,
// and the whole-header checks after the scan. It is a constant of the
// tables, not of the header.
func stepsPerByte(c *Classifier) int {
	busiest := func(buckets []span, probes []probe) int {
		most := 0
		for _, b := range buckets {
			ps := probes[b.lo:b.hi]
			for _, p := range ps {
				n := len(ps)
				for _, q := range ps {
					// q can match where p does only if they agree
					// on the bytes both look at.
					both := p.mask & q.mask
					if p.bits&both != q.bits&both {
						continue
					}
					nd := &c.needles[q.needle]
					n += len(nd.text)
					if nd.shape != nil {
						n += shapeSteps
					}
				}
				most = max(most, n)
			}
		}
		return most
	}
	// An Android comment's device slots are found at most twice for each
	// "android" (in the comment, and in an app's comment after the word),
	// and where the first comment ends once.
	device := 2*4*maxLabel/len("android") + 1
	return 1 + busiest(c.buckets[:], c.probes) + 2*(1+busiest(c.plat.buckets[:], c.plat.probes)) + 2 + len(headerShapes) + device
}

// stepLimit is the most steps classify may take for ua, given its tables'
// stepsPerByte.
func stepLimit(perByte int, ua string) int {
	read := len(ua)
	if read > maxScan {
		read = maxNameScan
	}
	return perByte*read + 100
}

// The bound must stay a small constant: a table change that piles
// patterns onto one bucket shows up here before it shows up in time.
func TestStepsPerByte(t *testing.T) {
	c := New(nil, nil)
	n := stepsPerByte(c)
	if n > 600 {
		t.Errorf("the busiest buckets cost %d steps per byte, want at most 600", n)
	}
	t.Logf("at most %d steps per byte read", n)
}

func BenchmarkClassifyHostile(b *testing.B) {
	c := New(nil, nil)
	for _, sh := range hostileShapes {
		for _, size := range []struct {
			name string
			n    int
		}{{"200B", 200}, {"20KB", 20 << 10}} {
			ua := sh.build(size.n)
			b.Run(sh.name+"/"+size.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ua)))
				for b.Loop() {
					bot, _ := c.Classify(ua)
					sink = sink != bot
				}
			})
		}
	}
}

// The work Classify does must grow linearly with the header, and past
// maxScan cost no more than a header of maxNameScan bytes: every crafted
// shape is measured in steps (bytes looked at and candidate patterns tried,
// counted by classify) at several lengths, never in time.
func TestClassifyLinear(t *testing.T) {
	c := New([]string{"internaltool"}, []string{"trustedmonitor"})
	perByte := stepsPerByte(c)
	shapes := append(hostileShapes, struct {
		name  string
		build func(n int) string
	}{"browser", func(n int) string { return strings.Repeat(uaChromeWindows+" ", n/len(uaChromeWindows)+1)[:n] }})
	for _, sh := range shapes {
		var short int // the steps for a header of maxNameScan bytes
		for _, n := range []int{256, maxNameScan, 1024, maxScan, 4096, 20 << 10, 200 << 10} {
			ua := sh.build(n)
			_, _, steps := c.classify(ua)
			if limit := stepLimit(perByte, ua); steps > limit {
				t.Errorf("%s, %d bytes: %d steps, more than %d", sh.name, len(ua), steps, limit)
			}
			if n == maxNameScan {
				short = steps
			}
			if len(ua) > maxScan && steps > short+short/10 {
				t.Errorf("%s, %d bytes: %d steps, more than at %d bytes (%d)", sh.name, len(ua), steps, maxNameScan, short)
			}
		}
	}
	// Doubling a header of people's software doubles the work, no more.
	for _, ua := range benchMix {
		_, _, one := c.classify(ua)
		_, _, two := c.classify(ua + " " + ua)
		if two > 2*one+200 {
			t.Errorf("%q: %d steps, doubled %d", ua, one, two)
		}
	}
}

// FuzzClassify feeds Classify any header: it must not panic, must name a
// crawler only for a bot, must take no more steps than the linear bound, and
// must let the operator's human marker win wherever it stands.
func FuzzClassify(f *testing.F) {
	for _, ua := range benchMix {
		f.Add(ua)
	}
	for _, sh := range hostileShapes {
		f.Add(sh.build(300))
	}
	f.Add("Watch4,3/5.3.8 (16U680)")
	f.Add("Bullhorn/1.0 (+http://bullhorn.fm/) trustedmonitor")
	c := New([]string{"internaltool"}, []string{"trustedmonitor"})
	perByte := stepsPerByte(c)
	f.Fuzz(func(t *testing.T, ua string) {
		bot, name, steps := c.classify(ua)
		if name != "" && !bot {
			t.Errorf("Classify(%q) names %q but calls it human", ua, name)
		}
		if limit := stepLimit(perByte, ua); steps > limit {
			t.Errorf("Classify(%q): %d steps, more than %d", ua, steps, limit)
		}
		if b, n := c.Classify(ua); b != bot || n != name {
			t.Errorf("Classify(%q) = %v, %q, then %v, %q", ua, bot, name, b, n)
		}
		// The marker is found only in the part of a long header read.
		if marked := "trustedmonitor " + ua; len(marked) <= maxScan {
			if b, _ := c.Classify(marked); b {
				t.Errorf("Classify(%q) = bot despite the operator's human marker", marked)
			}
		}
	})
}

// A header longer than maxScan is no person's software.
func TestTooLong(t *testing.T) {
	c := New(nil, nil)
	long := uaChromeWindows + strings.Repeat(" Safari/537.36", maxScan/14+1)
	if bot, _ := c.Classify(long); !bot {
		t.Errorf("a %d-byte browser-like header is human", len(long))
	}
	if bot, _ := c.Classify(uaChromeWindows); bot {
		t.Errorf("Classify(%q) = bot", uaChromeWindows)
	}
	// A crawler's name in the part read is still reported.
	if _, name := c.Classify(uaGPTBot + strings.Repeat(" x", maxScan)); name != "GPTBot" {
		t.Errorf("long GPTBot header: name %q", name)
	}
}

// BenchmarkClassifyDataset classifies a sample of the labelled data set
// (every 50th row, about 2,500 headers), uncached: the cost of a typical
// header as the traffic brings it. It runs only with BOTDETECT_DATASET set.
func BenchmarkClassifyDataset(b *testing.B) {
	rows := loadDataset(b)
	var uas []string
	for i := 0; i < len(rows); i += 50 {
		uas = append(uas, rows[i].UA)
	}
	c := New(nil, nil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bot, _ := c.Classify(uas[i%len(uas)])
		sink = sink != bot
	}
}
