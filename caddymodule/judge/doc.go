// Package judge decides what robots.txt says about one bot request, apart
// from any web server: which spellings of the request's path are judged,
// how the client is named, whether an earlier version of the file still
// lets it through (grace), and the vocabulary (verdicts, actions, the
// fields of an access-log entry) that the handler writes and the report
// reads. It imports no Caddy package.
package judge
