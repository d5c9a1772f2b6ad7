// Package robots reads robots.txt files (RFC 9309) the way Google's
// reference parser, google/robotstxt, reads them, and answers two
// questions fast: which group of rules does a client obey, and does that
// group allow a URL.
//
// Parse never fails and never panics. A group's rules are compiled when
// it first decides, once, so that a file of thousands of groups costs
// memory for the few a site's clients obey: literal prefixes go into a
// trie, so Decide walks the path once instead of scanning every rule, and
// after that neither Decide nor GroupForUserAgent allocates. Whatever the
// file and the path, one Decide tries each wildcard rule at most once,
// each try a single pass over the path or, once tries have scanned
// several times the path, a few lookups in an index of it.
//
// # How a file is read
//
// Where RFC 9309 is silent or loose, this package does what google/robotstxt
// does, so that a verdict agrees with Google's:
//
//   - At most 512,000 bytes are read (see MaxSize), the 500 KiB Google's
//     crawlers read (the parser library itself reads any length, and
//     RFC 9309 asks for at least 500 KiB); the rest is ignored,
//     and so is a last line the limit cuts short (see Truncate), which
//     would otherwise be read as a shorter, broader rule.
//     A leading UTF-8 byte order mark, or a leading part of one, is skipped.
//     Lines end at CR, LF or CR LF.
//   - A line longer than 16,663 bytes is cut to that length. A NUL byte
//     ends a line's content. Text from "#" to the end of the line is a
//     comment. White space around keys and values is ignored.
//   - A line is "key: value". A line without a colon is accepted when it
//     holds exactly two words ("disallow /tmp"), as Google does.
//   - Keys are case-insensitive and read by prefix, as Google reads them:
//     a key starting with "user-agent", "useragent" or "user agent" is
//     user-agent; "allow" is allow; "disallow", "dissallow", "dissalow",
//     "disalow", "diasllow" or "disallaw" is disallow; "sitemap" or
//     "site-map" is sitemap. Any spelling other than the standard one is
//     accepted and reported as a misspelling. "crawl-delay" is read into
//     Group.CrawlDelay; "content-signal" and "content-usage" into the
//     group's usage preferences (see below); other fields are ignored and
//     reported.
//   - A group is a run of user-agent lines and the lines after it. Only
//     an allow or disallow line (even one with an empty pattern) ends the
//     run, so a user-agent line after a rule starts a new group. A sitemap,
//     crawl-delay or unknown line between two user-agent lines does not:
//     the agents before and after it share one group, as in Google's
//     parser, and a crawl-delay there belongs to that group. Neither does
//     a content-signal or content-usage line, although
//     draft-ietf-aipref-attach-05 calls content-usage a rule: Google's
//     parser does not know it, and which agents share a group must not
//     depend on it. Blank lines
//     mean nothing. Rules before the first user-agent line belong to no
//     group and are ignored (and reported).
//   - A user-agent value "*", alone or followed by white space, names the
//     "*" group. Any other value is cut to its product token, the leading
//     run of letters, "-" and "_": "Googlebot/2.1" names googlebot and
//     "*bot" names no crawler. Tokens compare case-insensitively. A value
//     whose token is cut at a digit ("MJ12bot" is "MJ") also names the
//     crawler of that whole name (see AgentName), which reads the line as
//     its own: NamedGroupFor("MJ12bot") and a header "MJ12bot/v1.4.8"
//     select the group, under the name "MJ12bot"; "MJ99bot" does not, nor
//     does "AI2Bot" obey an "AI3Bot" group. A name may start with digits
//     ("360Spider", "008") if it has three characters or more. Google's
//     parser gives a crawler token with a digit no group at all (none of
//     Google's crawlers has one).
//   - A rule with an empty pattern ("disallow:") is no rule. A pattern
//     that starts with neither "/" nor "*" can match no URL; it is kept,
//     and reported as an error.
//
// # Which group applies
//
// A crawler obeys exactly one group: the merge of every group that names
// its product token. GroupFor takes a product token. When no group names
// it, the "*" group applies; with none, nothing is restricted. A token
// that extends a named one is not it: ChatGPT-User does not obey a
// ChatGPT group, as to Google's parser ("even if there is an entry for a
// related crawler, it is only valid if it's specifically matching").
// That Googlebot-Image obeys a googlebot group when none names it is
// Google's word for its own crawler, which the caller knows (the
// handler's knowledge base), not the file. A named group with no rules
// allows everything: it does not fall back to "*".
//
// Agents named by the same groups of the file obey one Group, and its
// Agents field lists them. Merged groups share the rules and compiled
// matchers of the groups they are made of rather than copy them, so a
// parsed File takes a small multiple of the file's size even when every
// agent is named in a different selection of groups. Parse keeps the
// first 1,000 diagnostics and sums up the rest in one.
//
// GroupForUserAgent takes a whole HTTP User-Agent header, which is what a
// server sees, and finds the file's own tokens inside it; see its doc.
//
// # How a URL is matched
//
// Matching is on the path with its parameters and query (PathFromURL
// extracts it from a URL as Google does), case-sensitively, anchored at the
// start. "*" matches any run of characters and "$" as the last character
// of a pattern anchors the end; elsewhere "$" is itself. The matching rule
// with the highest priority decides; the priority is the pattern's length
// as Google counts it (after non-ASCII bytes are percent-encoded), so a
// trailing "*" matches the same URLs but counts one longer, as in Google's
// parser. An allow and a disallow of equal priority: allow wins. No match:
// allowed. /robots.txt itself is always allowed, as RFC 9309 says it is
// implicitly; Google's parser matches it like any path.
//
// As in Google's parser, "allow: /dir/index.html" (or index.htm) also
// allows "/dir/" alone, the URL that usually serves that page.
//
// # Usage preferences
//
// Beside access rules a robots.txt can say what crawlers may do with the
// content they fetch. Two fields say it, and Group.Signals reads both; they
// never change what Decide answers.
//
// Content-Signal is Cloudflare's Content Signals Policy (contentsignals.org,
// released under CC0): comma-separated key=value entries, as in
// "Content-Signal: search=yes, ai-input=no, ai-train=no". The keys are
// search (a search index with links and short excerpts, not AI summaries),
// ai-input (input to an AI model at answer time: retrieval-augmented
// generation, grounding) and ai-train (training or fine-tuning AI models),
// each yes or no; an absent key states nothing. Keys and values are read
// case-insensitively. The "use" entry Cloudflare's managed robots.txt
// writes (immediate, reference or full) is checked and not kept. A line
// applies to every path of the group it is written in; the policy defines
// no path, and a line that starts with one is ignored and reported rather
// than applied to every path.
//
// Content-Usage is the robots.txt attachment of the IETF's AI preferences
// (draft-ietf-aipref-attach-05, section 3): "Content-Usage: [path ]prefs".
// A value starting with "/" has a path, which ends at the first space or
// tab; without one the line applies to "/". The path matches as allow and
// disallow patterns do ("*", a final "$", canonical spelling), and for a
// given URL the line with the longest matching path applies; lines with
// the same path are combined. The preferences are a Structured Fields
// Dictionary (RFC 9651) in the vocabulary of draft-ietf-aipref-vocab-07:
// the labels train-ai and search, with the tokens y or n, as in
// "train-ai=n, search=y". As the vocabulary draft says, unknown labels,
// other values and parameters state nothing, and a value that is not a
// dictionary (upper-case keys, a trailing comma...) states nothing at all.
//
// Both fields belong to the group they are written in. Before the first
// user-agent line they address no crawler and are ignored: Cloudflare's
// examples write Content-Signal under "User-agent: *", and the aipref
// draft defines Content-Usage as a rule of a group, which in RFC 9309 a
// line outside any group is not. Malformed lines are reported
// (bad-content-signal, bad-content-usage; rule-outside-group before any
// group), and what they state correctly still counts.
//
// The two vocabularies map onto each other: ai-train is train-ai and
// search is search, the two categories draft-ietf-aipref-vocab-07 defines.
// ai-input has no aipref category (the working group has discussed an "AI
// Input" one but not defined it; labels of earlier drafts such as ai-use,
// ai-output and train-genai are gone), so only Content-Signal sets it and
// Signals.ContentUsage leaves it out.
//
// Precedence: a group's Content-Signal lines give its preferences for every
// path, and the best-matching Content-Usage line overrides each preference
// it sets, being path-scoped and the IETF's. Where statements of equal rank
// conflict (two lines of one group, the parts of a merged group, lines
// with one path) the stricter applies, No over Yes over unset, which is how
// draft-ietf-aipref-vocab-07, section 5.1, combines preferences: a crawler
// named in two groups is addressed by both.
//
// Before matching, both the pattern and the path are brought to one
// canonical spelling (see Canonical): escapes of unreserved characters are
// decoded, other escapes are upper-cased, and bytes that may not stand raw
// in a URL, such as non-ASCII UTF-8, are percent-encoded. So "/ü", "/%c3%bc"
// and "/%C3%BC" are one path, and so are "/%70rivate" and "/private".
// Google's parser does less: it encodes non-ASCII bytes and upper-cases
// the escapes of a pattern only, and compares the rest byte for byte, so
// to it "/%70rivate" is not "/private" and "/a%2fb" not "/a%2Fb". As in
// Google's reading, an ASCII byte that a URL carries escaped (a space, a
// quote, "<", "|") written raw in a disallow pattern stays raw, and so
// matches no URL sent escaped, only a target sent with it raw (see
// Group.DecideRaw): "Disallow: /a|b" refuses "/a|b" and not "/a%7Cb",
// and "Disallow: /my folder/" is not "/my%20folder/" (lint says so:
// raw-byte); in an allow pattern it matches either spelling, so that
// where the two readings part this one allows. In a disallow pattern an escape of an unreserved
// character ranks as the character it stands for; an allow pattern keeps
// Google's length, so that where the readings part this one allows. A "%" that starts no escape stays "%" in a
// pattern, where it matches the "%" of any escape, as it does to Google
// (a target that escapes an unreserved character, "/%7Ejoe/", is read as
// sent for it: see Group.DecideRaw);
// an escape right after it is kept as written, so that "/%%41" does not
// become "/%A", the start of "/%AB". In a path such a "%" (which no server
// accepts in a request) is "%25", the character itself. One canonical spelling makes every spelling
// of a URL that a server serves as one resource agree, which closes a
// bypass (a bot asking for "/%70rivate" gets the page at "/private"); the
// price is that a request for such a spelling can be refused where
// Google's parser, comparing the spellings, would allow it. A crawler
// that follows the site's links meets that price in three cases: a
// pattern that escapes an unreserved character the links write plain
// ("Disallow: /%7Ejoe/" refuses "/~joe/" here, not to Google); an escape
// the links write in lower case ("/a%7cb" is refused by "Disallow:
// /*%7C" here, not by Google); and a byte that may not stand raw in a
// URL but that browsers and crawlers send raw ("|" and "^", and "{", "}"
// and "`" in a query): "Disallow: /sch/*%7C" refuses "/sch/a|b" here and
// not to Google, which compares "%7C" with "|". Such a rule means the
// character, and a bot that sends it either way reaches the same page.
package robots
