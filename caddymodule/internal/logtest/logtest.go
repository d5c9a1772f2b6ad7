// Package logtest writes Caddy JSON access logs for the tests of the
// report and of the report command, which check the same counts.
package logtest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// T0 is 2025-01-01T12:00:00Z.
const T0 = 1735732800.0

// Line is one access-log line as Caddy writes it; rt nil: a person.
func Line(ts float64, ip, uri, ua string, status int, rt map[string]any) string {
	e := map[string]any{
		"level": "info", "ts": ts, "logger": "http.log.access.log0", "msg": "handled request",
		"request": map[string]any{
			"remote_ip": ip, "remote_port": "55000", "client_ip": ip, "proto": "HTTP/1.1", "method": "GET",
			"host": "example.com", "uri": uri, "headers": map[string]any{"User-Agent": []string{ua}},
		},
		"bytes_read": 0, "duration": 0.0001, "size": 10, "status": status,
	}
	if rt != nil {
		e["robots_txt"] = rt
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// RT is a robots_txt object; extra is further fields as name, value pairs.
func RT(bot, group, verdict, rule string, line int, mode, action string, extra ...any) map[string]any {
	m := map[string]any{"bot": bot, "group": group, "verdict": verdict, "mode": mode, "action": action}
	if rule != "" {
		m["rule"], m["line"] = rule, line
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

// Sample is a small hand-written log in two parts: the first is read
// plain, the second gzip-compressed. One line of the first is longer
// than maxLine, the report's longest.
func Sample(maxLine int) (plain, second string) {
	gpt := "GPTBot, ClaudeBot"
	var a, b []string
	a = append(a,
		Line(T0-60, "192.0.2.1", "/", "Mozilla/5.0 Firefox/133.0", 200, nil),
		Line(T0, "10.0.0.1", "/robots.txt", "GPTBot/1.1", 200, RT("GPTBot", gpt, "allowed", "", 0, "enforce", "served")),
		Line(T0+10, "10.0.0.1", "/a", "GPTBot/1.1", 403, RT("GPTBot", gpt, "disallowed", "disallow: /", 13, "enforce", "blocked", "fetched", true, "fetched_ago", 10.0)),
		"this is not JSON",
		Line(T0+20, "10.0.0.1", "/b", "GPTBot/1.1", 403, RT("GPTBot", gpt, "disallowed", "disallow: /", 13, "enforce", "blocked", "fetched", true, "fetched_ago", 20.0))+"\r",
		`{"level":"info","msg":"JSON without ts","request":{"uri":"/"}}`,
		Line(T0+30, "10.0.0.2", "/c", "GPTBot/1.1", 403, RT("GPTBot", gpt, "disallowed", "disallow: /", 13, "enforce", "blocked", "fetched", false)),
		`{"level":"info","ts":1735732900,"logger":"http.handlers.robots_txt","msg":"robots.txt violation blocked","bot":"GPTBot"}`,
		"",
		`{"ts": 1735732801, "request": {"uri": "/truncated"`,
		Line(T0+40, "192.0.2.2", "/about", "Mozilla/5.0 Chrome/131", 200, nil),
		// A line longer than the report reads: skipped, counted.
		Line(T0+50, "10.9.9.9", "/"+strings.Repeat("x", maxLine), "HugeBot", 404, RT("HugeBot", "*", "allowed", "", 0, "enforce", "passed")),
	)
	b = append(b,
		Line(T0+3600, "10.1.0.1", "/private/x", "curl/8.5.0", 200, RT("curl", "*", "disallowed", "disallow: /private/", 4, "monitor", "logged")),
		Line(T0+3601, "10.1.0.1", "/x?sessionid=1", "curl/8.5.0", 200, RT("curl", "*", "disallowed", "disallow: /*?sessionid=", 6, "monitor", "logged")),
		Line(T0+3602, "10.1.0.1", "/private/y", "curl/8.5.0", 200, RT("curl", "*", "disallowed", "disallow: /private/", 4, "monitor", "logged")),
		Line(T0+3603, "10.1.0.1", "/ok", "curl/8.5.0", 200, RT("curl", "*", "allowed", "", 0, "monitor", "passed")),
		Line(T0+3604, "10.1.0.1", "/ok2", "curl/8.5.0", 200, RT("curl", "*", "allowed", "", 0, "monitor", "passed")),
		Line(T0+7200, "10.2.0.1", "/drafts/x", "Googlebot/2.1", 200, RT("Googlebot", "Googlebot", "grace", "disallow: /drafts/", 9, "enforce", "passed", "fetched", true, "fetched_ago", 3600.0)),
		Line(T0+7201, "10.2.0.2", "/x", "Googlebot/2.1", 200, RT("Googlebot", "Googlebot", "allowed", "", 0, "enforce", "passed", "fetched", false)),
		Line(T0+7201.5, "192.0.2.3", "/", "Mozilla/5.0 Safari", 200, nil), // no final newline
	)
	return strings.Join(a, "\n") + "\n", strings.Join(b, "\n")
}

// Gzip compresses s.
func Gzip(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := io.WriteString(zw, s); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
