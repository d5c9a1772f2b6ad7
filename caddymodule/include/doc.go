// Package include merges robots.txt files: a site's own file and lists
// such as the community list of AI crawlers, so that an operator can serve
// and enforce one file. It does not depend on Caddy.
//
// Merge(site, includes...) returns a Merged whose Body is:
//
//   - the site's file, verbatim (a line end is added if it lacks one);
//   - for each include, in order, a blank line, the comment line
//     "# included from <name>", and the groups the include adds.
//
// The site's file wins. Every body is read with package robots: its size
// limit, line ends, comments, key spellings and product tokens. An agent
// is the product token of a user-agent line, compared case-insensitively,
// or "*"; "*" is named by a source that has a "*" group. An include adds
// only agents no earlier source names: the site first, then the includes
// in order, so the first source naming an agent owns it. The user-agent
// lines of agents owned by an earlier source, and those that name no
// agent at all, are dropped; a group left with no user-agent line is
// dropped with its rules.
//
// A kept group is written as the include writes it, group by group, so
// that an agent named by several groups of an include still obeys their
// union: its user-agent lines, then its allow and disallow lines with the
// patterns exactly as written, its valid crawl-delay lines and its
// content-signal lines, in their order, each field in its standard
// spelling (a crawl-delay or content-signal line that came before the
// group's first kept user-agent line is written just after it, where it
// still belongs to the group). Comments, blank lines, sitemaps (they point at other sites)
// and other fields are not copied. When the text before a group ends in a
// run of user-agent lines with no rule after them (which would otherwise
// take in the next user-agent lines), an empty "Disallow:" line, which
// ends the run and adds no rule, is written first.
//
// So the merged file, parsed by package robots, gives every agent the
// site names exactly the site's group, and every agent only an include
// names exactly that include's group. One consequence: an include may
// name a more specific token than the site, such as "googlebot-image"
// where the site names only "googlebot"; that crawler then obeys the
// include's group instead of falling back to the site's googlebot group.
//
// Merged.Origin maps each line of Body back to its source: the site's
// lines to themselves, copied lines to their line in the include, and the
// lines Merge writes itself (comments, blank lines, the empty "Disallow:")
// to line 0 of the source they belong to.
//
// The merged body stays within robots.DefaultMaxSize (512,000 bytes), the
// part robots.txt readers read, unless the site's own file is already
// larger. An include whose groups do not all fit is cut before the first
// group that does not fit; the agents that group or a later one names are
// left out entirely, so no agent obeys half of its rules. The includes
// after it are not added. Each such case is reported in Merged.Warnings.
//
// Merge takes time and memory linear in the total size of its input.
package include
