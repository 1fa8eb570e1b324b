package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/trainreport/trainreport/internal/outdir"
)

// heapPeakEnv names the file a heap profile of the process at its
// largest live heap is written to, for memory work (docs/DEVELOPMENT.md):
// a profile taken at the end misses what the pages built and dropped,
// one taken at the peak says what it was made of.
const heapPeakEnv = "TRAINREPORT_HEAPPEAK"

// startHeapPeak watches the live heap (as of the last collection) every
// 20 ms, when the environment names a file, and takes a heap profile
// whenever the heap grew by a twentieth past the largest seen, and once
// more when stopped; stop writes the last one taken to the file, with
// the size and time of the peak on stderr. With no file named it does
// nothing.
func startHeapPeak(stderr io.Writer) (stop func(errOut *error)) {
	name := os.Getenv(heapPeakEnv)
	if name == "" {
		return func(*error) {}
	}
	start := time.Now()
	done, ended := make(chan struct{}), make(chan struct{})
	var (
		best    bytes.Buffer
		peak    uint64
		peakAt  time.Duration
		samples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	)
	sample := func() {
		metrics.Read(samples)
		live := samples[0].Value.Uint64()
		if live <= peak+peak/20 {
			return
		}
		var b bytes.Buffer
		if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
			best, peak, peakAt = b, live, time.Since(start)
		}
	}
	go func() {
		defer close(ended)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sample() // the last: a command shorter than a tick has one
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	return func(errOut *error) {
		close(done)
		<-ended
		fmt.Fprintf(stderr, "heap peak: %.1f MB live at %.1fs, profile in %s\n", float64(peak)/1e6, peakAt.Seconds(), name)
		err := outdir.WriteFileAtomic(name, func(w io.Writer) error {
			_, err := best.WriteTo(w)
			return err
		})
		if err != nil && *errOut == nil {
			*errOut = fmt.Errorf("heap profile: %w", err)
		}
	}
}
