//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// crcResult is what `benchpeers -crc-only DIR` prints, as one JSON line.
type crcResult struct {
	Files   int64 `json:"files"`
	Records int64 `json:"records"`
	Damaged int64 `json:"damaged"`
	Bytes   int64 `json:"bytes"`
}

// crcOnly is the lower bound: it finds the event files the way trainreport
// does, and reads every record of every file with collect/tfrecord's Reader
// (both CRCs checked), nothing else. Runs are read in parallel, one
// goroutine per core, each run's files in order, as collect.Collect does.
func crcOnly(ctx context.Context, dir string, out io.Writer) error {
	src, err := logfs.Open(dir)
	if err != nil {
		return err
	}
	defer src.Close()
	runs, err := collect.Detection().Discover(ctx, src, func(p string, err error) {
		fmt.Fprintf(os.Stderr, "benchpeers: %s: %v\n", p, err)
	})
	if err != nil {
		return err
	}
	var res crcResult
	var firstErr atomic.Value
	work := make(chan discover.Run)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(runs), 1)) {
		wg.Go(func() {
			for r := range work {
				for _, f := range r.Files {
					if f.Kind != collect.KindEvents {
						continue
					}
					n, recs, bad, err := readFile(filepath.Join(dir, filepath.FromSlash(f.Rel)))
					atomic.AddInt64(&res.Files, 1)
					atomic.AddInt64(&res.Bytes, n)
					atomic.AddInt64(&res.Records, recs)
					atomic.AddInt64(&res.Damaged, bad)
					if err != nil {
						firstErr.CompareAndSwap(nil, err)
					}
				}
			}
		})
	}
	for _, r := range runs {
		work <- r
	}
	close(work)
	wg.Wait()
	if err, ok := firstErr.Load().(error); ok {
		// Damage is data, not failure: trainreport reads on too. Only an
		// unreadable file stops the lower bound.
		return err
	}
	return json.NewEncoder(out).Encode(res)
}

// readFile reads one event file through tfrecord.Reader and returns its
// size, its records and its records that failed the data CRC.
func readFile(path string) (size, records, damaged int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	r := tfrecord.NewReader(f, path)
	for r.Next() {
		records++
		if r.Damage() != nil {
			damaged++
		}
	}
	if err := r.Err(); err != nil {
		if _, ok := tfrecord.AsError(err); !ok {
			return 0, records, damaged, err
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, records, damaged, err
	}
	return fi.Size(), records, damaged, nil
}
