// Package robotstxt is the import path users give xcaddy:
//
//	xcaddy build --with github.com/robotsguard/caddy-robots-txt
//
// Importing it registers the robots_txt HTTP handler and its Caddyfile
// directive; the handler lives in package caddymodule.
package robotstxt

import (
	_ "github.com/robotsguard/caddy-robots-txt/caddymodule"
	_ "github.com/robotsguard/caddy-robots-txt/caddymodule/cli"
)
