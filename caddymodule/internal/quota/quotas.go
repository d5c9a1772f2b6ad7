package quota

// FetchesPerClient and FetchesPerNetwork bound the fetch records one
// client (an address, an IPv6 /64) and one IPv6 /48 hold, in a tracker's
// memory and in the blob an instance shares (package share): an unnamed
// bot's record is keyed by its User-Agent header, and the Host it asked,
// both the client's to choose, and in a plain LRU a client fetching
// robots.txt under 110,000 headers pushed out every other bot's record
// (its grace, its fetched). Beyond its quota a client's newest fetch
// replaces its own oldest. 256 is room for one address's crawler to read
// the robots.txt of 256 of the sites this Caddy serves with one file, or
// for a few bots behind one NAT; a /48 is many subscribers', so it holds
// more.
const (
	FetchesPerClient  = 256
	FetchesPerNetwork = 4_096
)

// TrapSitesPerClient and TrapSitesPerNetwork bound what one client (an
// address, an IPv6 /64) and one IPv6 /48 hold of the trap's memory, and
// of the blob an instance shares: a site (a Host) that answers any name
// lets a client spring the trap under as many sites as it likes, and in a
// plain LRU it pushed every other trapped address out. Beyond its quota a
// client's newest trap replaces its own oldest, so it is still held where
// it sprang the trap last. 64 sites is more than one crawler is caught on
// by one Caddy before its first traps expire; a /48 is many subscribers',
// so it holds more.
const (
	TrapSitesPerClient  = 64
	TrapSitesPerNetwork = 1_024
)
