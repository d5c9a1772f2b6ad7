package robots

import "fmt"

// Severity ranks a Diagnostic.
type Severity uint8

const (
	// Info marks something worth knowing that changes nothing, such as a
	// user-agent value read as a shorter product token.
	Info Severity = iota
	// Warning marks a line that is ignored or read differently than it
	// was probably meant, such as an unknown field or an accepted misspelling.
	Warning
	// Error marks content that cannot have the effect its author wanted,
	// such as a rule that can never match or content past the size limit.
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// Kind names the finding a Diagnostic reports, for programs that filter them.
type Kind string

// The kinds of Diagnostic that Parse reports.
const (
	KindUnknownField     Kind = "unknown-field"
	KindNonStandardField Kind = "non-standard-field"
	KindMisspelling      Kind = "misspelling"
	KindNoSeparator      Kind = "no-separator"
	KindRuleOutsideGroup Kind = "rule-outside-group"
	KindRelativePath     Kind = "relative-path"
	// KindRawByte is a pattern holding raw an ASCII byte that clients
	// send escaped (a space, a quote, "<", "|"...): it matches no URL
	// sent so.
	KindRawByte Kind = "raw-byte"
	// KindEscapedReserved is a disallow pattern escaping a reserved
	// character that servers decode ("%3A", "%28"): it matches only
	// URLs that send the escape.
	KindEscapedReserved Kind = "escaped-reserved"
	KindEmptyUserAgent  Kind = "empty-user-agent"
	KindAgentToken      Kind = "agent-token"
	// KindBrowserAgent is a user-agent line whose product token every
	// browser sends ("Mozilla", often a whole header pasted after
	// "User-agent:"): no crawler goes by it.
	KindBrowserAgent  Kind = "browser-agent"
	KindBadCrawlDelay Kind = "bad-crawl-delay"
	KindBadSitemap    Kind = "bad-sitemap"
	KindSizeLimit     Kind = "size-limit"
	KindInvalidUTF8   Kind = "invalid-utf8"
	KindLongLine      Kind = "long-line"
	KindNUL           Kind = "nul-byte"
	// KindBadContentSignal is a Content-Signal line, or an entry of one,
	// that is not read: an unknown signal, a value other than yes or no,
	// an entry that is not key=value.
	KindBadContentSignal Kind = "bad-content-signal"
	// KindBadContentUsage is a Content-Usage line, or a member of one,
	// that states no preference: a value that is not a Structured Fields
	// dictionary, a label outside the aipref vocabulary, a value other
	// than the token y or n, a missing statement.
	KindBadContentUsage Kind = "bad-content-usage"
	// KindTooMany stands for the findings past the first thousand, which
	// are not listed one by one; its severity is the worst of them.
	KindTooMany Kind = "too-many-findings"
)

// Diagnostic is one finding about one line of a robots.txt file.
type Diagnostic struct {
	// Line is the 1-based line number.
	Line int
	// Severity ranks the finding.
	Severity Severity
	// Kind names the finding.
	Kind Kind
	// Message says what was found and what the parser did about it.
	Message string
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("line %d: %s: %s", d.Line, d.Severity, d.Message)
}
