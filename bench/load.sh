#!/usr/bin/env bash
# Load run: Caddy with the robots_txt handler vs the same site without it,
# measured with wrk over loopback in alternating rounds, so that both see
# the same machine. Each site runs in its own Caddy process, so that the
# CPU time each spends per request can be read from /proc as well: on a
# small machine shared with the load generator, CPU per request is a
# steadier measure than requests per second. Needs wrk (apt-get install wrk).
#
#	bash bench/load.sh [seconds-per-round] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
rounds=${2:-3}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/caddy" ./cmd/caddy
cp examples/site/robots.txt "$work/robots.txt"
site() { # port, extra directives
	cat <<CONF
{
	admin off
	auto_https off
}
http://127.0.0.1:$1 {
	$2
	respond "hello"
}
CONF
}
site 18080 "robots_txt $work/robots.txt" >"$work/with.Caddyfile"
site 18081 "" >"$work/without.Caddyfile"
"$work/caddy" run --config "$work/with.Caddyfile" >"$work/with.log" 2>&1 &
pids+=($!)
with_pid=$!
"$work/caddy" run --config "$work/without.Caddyfile" >"$work/without.log" 2>&1 &
pids+=($!)
without_pid=$!
for port in 18080 18081; do
	for _ in $(seq 50); do curl -s -o /dev/null "127.0.0.1:$port/" && break; sleep 0.1; done
done

chrome='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
bot='Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'
tick=$(getconf CLK_TCK)

cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# round url ua pid -> "requests/s cpu-microseconds-per-request"
round() {
	local before after out rps reqs
	before=$(cputicks "$3")
	out=$(wrk -t1 -c32 -d"${secs}s" -H "User-Agent: $2" "$1")
	after=$(cputicks "$3")
	rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
	reqs=$(awk '/requests in/ {print $1}' <<<"$out")
	echo "$rps $(echo "($after - $before) * 1000000 / $tick / $reqs" | bc -l)"
}

for kind in human bot; do
	ua=$chrome
	[ "$kind" = bot ] && ua=$bot
	rw=0; ro=0; cw=0; co=0
	for r in $(seq "$rounds"); do
		read -r a ca < <(round http://127.0.0.1:18081/blog/post.html "$ua" "$without_pid")
		read -r b cb < <(round http://127.0.0.1:18080/blog/post.html "$ua" "$with_pid")
		printf '%s round %d: without %s req/s %.1f us CPU/req, with %s req/s %.1f us CPU/req\n' "$kind" "$r" "$a" "$ca" "$b" "$cb"
		rw=$(echo "$rw + $b" | bc -l); ro=$(echo "$ro + $a" | bc -l)
		cw=$(echo "$cw + $cb" | bc -l); co=$(echo "$co + $ca" | bc -l)
	done
	printf '%s: throughput with/without = %.1f%%; CPU per request with/without = %.1f%% (%.2f us more)\n' \
		"$kind" "$(echo "100 * $rw / $ro" | bc -l)" "$(echo "100 * $cw / $co" | bc -l)" "$(echo "($cw - $co) / $rounds" | bc -l)"
done
