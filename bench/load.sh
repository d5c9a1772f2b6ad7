#!/usr/bin/env bash
# Load run: Caddy with the robots_txt handler vs the same site without it,
# in one Caddy process, measured with wrk over loopback, alternating rounds
# so that both see the same machine. Needs wrk (apt-get install wrk).
#
#	bash bench/load.sh [seconds-per-round] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
rounds=${2:-3}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

work=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/caddy" ./cmd/caddy
cp examples/site/robots.txt "$work/robots.txt"
cat > "$work/Caddyfile" <<CONF
{
	admin off
	auto_https off
}
http://127.0.0.1:18080 {
	robots_txt $work/robots.txt
	respond "hello"
}
http://127.0.0.1:18081 {
	respond "hello"
}
CONF
"$work/caddy" run --config "$work/Caddyfile" >"$work/caddy.log" 2>&1 &
pid=$!
for _ in $(seq 50); do curl -s -o /dev/null 127.0.0.1:18081/ && break; sleep 0.1; done

chrome='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
bot='Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'

rps() { # url ua -> requests/s
	wrk -t1 -c32 -d"${secs}s" -H "User-Agent: $2" "$1" | awk '/Requests\/sec/ {print $2}'
}
for kind in human bot; do
	ua=$chrome
	[ "$kind" = bot ] && ua=$bot
	with=0; without=0
	for r in $(seq "$rounds"); do
		a=$(rps http://127.0.0.1:18081/blog/post.html "$ua")
		b=$(rps http://127.0.0.1:18080/blog/post.html "$ua")
		echo "$kind round $r: without $a req/s, with $b req/s"
		with=$(echo "$with + $b" | bc -l); without=$(echo "$without + $a" | bc -l)
	done
	printf '%s: with/without = %.1f%%\n' "$kind" "$(echo "100 * $with / $without" | bc -l)"
done
