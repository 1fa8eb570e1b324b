package memlimit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// GCPercentWithin sets the collector's percent (debug.SetGCPercent) for
// the work that follows so that the heap, from its live size now, grows
// between cycles into the heap memory the runtime holds already, and
// returns the percent set: at least lo, at most hi.
//
// Why: once a report's logs are read, the model is most of the heap and
// the rest of the work (analysis, pages, data files) allocates many
// short-lived buffers. Reading the logs at the default percent took the
// heap to about twice what it keeps, and that memory is held (the runtime
// returns it slowly): a percent that lets the heap grow back into it
// costs no more peak than reading did, and each cycle it saves is a mark
// of the whole model. lo keeps the collector no lazier than before where
// reading held little spare; hi bounds the peak where it held much.
//
// It runs a collection first, so that the live size is measured, not the
// last cycle's (the model grew since): its cost is one cycle, which the
// next allocation would soon have started anyway.
func GCPercentWithin(lo, hi int) int {
	held := heapHeld()
	runtime.GC()
	p := gcPercentFor(held, heapLive(), lo, hi)
	debug.SetGCPercent(p)
	return p
}

// gcPercentFor is the percent by which a heap of live bytes may grow to
// held bytes, within [lo, hi].
func gcPercentFor(held, live uint64, lo, hi int) int {
	if live == 0 {
		return hi
	}
	p := lo
	if held > live {
		p = int(min(float64(held-live)/float64(live)*100, float64(hi)))
	}
	return max(lo, min(p, hi))
}

// heapHeld returns the heap memory the runtime holds from the system: its
// objects, live or not yet swept, the unused part of their spans and the
// free spans it has not returned.
func heapHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
}

// heapLive returns the heap's live bytes as the last collection marked
// them.
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
