package memlimit

import (
	"runtime/debug"
	"testing"
)

// TestGCPercentForGrowsIntoHeldMemory checks the percent chosen from the
// heap the runtime holds and the live heap: the growth that takes live to
// held, no less than lo (reading left no spare, or the live heap is
// larger than what was held) and no more than hi.
func TestGCPercentForGrowsIntoHeldMemory(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		held, live uint64
		want       int
	}{
		{400 * mb, 240 * mb, 66},  // s2k: 160 MB spare over 240 MB live
		{400 * mb, 390 * mb, 25},  // little spare: lo
		{100 * mb, 300 * mb, 25},  // live past held: lo
		{900 * mb, 100 * mb, 100}, // much spare: hi
		{400 * mb, 0, 100},        // nothing live: hi
		{0, 0, 100},
	} {
		if got := gcPercentFor(c.held, c.live, 25, 100); got != c.want {
			t.Errorf("held %d MB, live %d MB: percent %d, want %d", c.held/mb, c.live/mb, got, c.want)
		}
	}
}

// TestGCPercentWithinSetsTheCollectorsPercent checks that the percent
// GCPercentWithin returns is within its bounds and is the one the
// collector then runs at.
func TestGCPercentWithinSetsTheCollectorsPercent(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	// Memory the runtime holds, garbage by the time the percent is set.
	sink := func(b []byte) { b[0] = 1 }
	sink(make([]byte, 64<<20))
	p := GCPercentWithin(30, 70)
	if p < 30 || p > 70 {
		t.Fatalf("percent %d outside [30, 70]", p)
	}
	if cur := debug.SetGCPercent(100); cur != p {
		t.Errorf("the collector runs at %d percent, GCPercentWithin returned %d", cur, p)
	}
}
