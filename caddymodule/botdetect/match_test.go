package botdetect

// eachMatch calls f with the index of every needle of c that matches ua
// somewhere, once per match, ignoring how Classify would weigh it. The
// grouped cross-validation uses it to learn which table entries each fold
// of the data set supports.
func (c *Classifier) eachMatch(ua string, f func(ni int)) {
	var win uint64
	for j := 0; j < len(ua) && j < 8; j++ {
		win |= uint64(lowerOf[ua[j]]) << (8 * j)
	}
	for i := 0; i < len(ua); i++ {
		if i > 0 {
			win >>= 8
			if i+7 < len(ua) {
				win |= uint64(lowerOf[ua[i+7]]) << 56
			}
		}
		k := int(classOf[byte(win)])*numClasses + int(classOf[byte(win>>8)])
		for _, ps := range [][]probe{c.probes[c.buckets[k].lo:c.buckets[k].hi], c.plat.probes[c.plat.buckets[k].lo:c.plat.buckets[k].hi]} {
			for _, p := range ps {
				if win&p.mask != p.bits {
					continue
				}
				if c.needles[p.needle].matchAt(ua, i) >= 0 {
					f(int(p.needle))
				}
			}
		}
	}
}
