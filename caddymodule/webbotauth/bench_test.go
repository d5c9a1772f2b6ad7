package webbotauth

import (
	"context"
	"testing"
	"time"
)

// BenchmarkVerifyUnsigned is the path every unsigned bot request takes.
func BenchmarkVerifyUnsigned(b *testing.B) {
	v := New(Options{})
	r := newRequest("example.com")
	r.Header.Set("User-Agent", "GPTBot/1.1")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, _ := v.Verify(ctx, r); ok {
			b.Fatal("verified an unsigned request")
		}
	}
}

// BenchmarkVerifyCached verifies a signed request whose directory is cached.
func BenchmarkVerifyCached(b *testing.B) {
	s := newSigner(b)
	_, client := startDirectory(b, &dirHandler{body: jwksFor(s.pub())})
	v := New(Options{Client: client, Now: newClock(testNow).Now, Wait: 5 * time.Second})
	r := signedRequest(s, testAgent)
	ctx := context.Background()
	if _, ok, err := v.Verify(ctx, r); !ok {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := v.Verify(ctx, r); !ok {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyHostileCovered is the worst a signature's covered fields
// can cost within the bounds: as many components as allowed, reading as
// many bytes of a field as allowed, and a request that asks for far more.
func BenchmarkVerifyHostileCovered(b *testing.B) {
	for _, bc := range []struct {
		name       string
		n, members int
	}{
		{"within-bounds", 14, 25}, // 14 parses of a field of ~280 bytes: the 4 KiB budget
		{"refused-500x1500", 500, 1500},
	} {
		b.Run(bc.name, func(b *testing.B) {
			v := New(Options{Now: newClock(testNow).Now, AllowedAgents: []string{testAgent}})
			r := hostileCovered(bc.n, bc.members)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, ok, _ := v.Verify(ctx, r); ok {
					b.Fatal("verified a forged signature")
				}
			}
		})
	}
}
