// Command caddy is Caddy with the standard modules and the robots_txt handler
// built in, so the module can be run with nothing but the Go toolchain:
//
//	go run ./cmd/caddy run --config examples/Caddyfile
//
// Users who build their own Caddy use xcaddy instead:
//
//	xcaddy build --with github.com/robotsguard/caddy-robots-txt
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"

	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/robotsguard/caddy-robots-txt"
)

func main() {
	caddycmd.Main()
}
