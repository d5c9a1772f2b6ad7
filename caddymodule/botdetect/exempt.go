package botdetect

// Exempt reports whether ua contains one of the operator's extra human
// markers. The handler asks before anything else, because an exempt client
// is not held to robots.txt even when the file names it.
func (c *Classifier) Exempt(ua string) bool {
	if !c.hasHumans {
		return false
	}
	for i := range c.needles {
		n := &c.needles[i]
		if n.kind != kindHuman {
			break // New puts the human markers first
		}
		if indexFold(ua, n.text) >= 0 {
			return true
		}
	}
	return false
}
