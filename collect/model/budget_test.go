package model

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates (the whole process's, so that
// nothing f starts escapes the count).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Read may allocate at most readBudget(n) bytes for a file of n bytes,
// whether it is read or refused: allocPerByte for what a valid model
// holds (a nil slice is 24 bytes in memory for 1 in the file, and a
// value may be filled twice as it grows) and allocFixed for the buffers
// of a read (the 64 KiB buffer, a chunk of a leaf, ahead bytes for each
// of the values being filled at once).
const (
	allocPerByte = 64
	allocFixed   = 2 << 20
)

func readBudget(n int) uint64 { return allocPerByte*uint64(n) + allocFixed }

// nestedClaims returns a model file whose experiment declares a
// hyperparameter of depth lists, each claiming 65,537 values and holding
// one: the file ends inside the innermost, so that every list is being
// filled when Read fails.
func nestedClaims(t testing.TB, depth int) []byte {
	t.Helper()
	v := HParamValue{Kind: NumberValue}
	for range depth {
		v = HParamValue{Kind: ListValue, List: []HParamValue{v}}
	}
	r := &Report{Logdirs: []Logdir{{Name: "l"}}, Runs: []*Run{{Name: "r", Logdir: "l", Path: "r",
		HParams: &HParams{Experiment: &Experiment{HParams: []HParamInfo{{Name: "x", Discrete: []HParamValue{v}}}}}}}}
	b := write(t, r)
	// A list value: Kind 4, Bool, Number, Str, then List's count (2: one).
	level := []byte{4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}
	i := bytes.Index(b, level)
	if i < 0 {
		t.Fatal("no list value in the encoding")
	}
	out := bytes.Clone(b[:i])
	for range depth {
		out = append(out, level[:len(level)-1]...)
		out = append(out, 0x82, 0x80, 0x04) // 65,538: 65,537 values
	}
	return out
}

// TestReadAllocatesInProportionToItsBytes feeds Read files whose lengths
// claim far more than they hold, nested and not, and a valid model: each
// costs at most readBudget of its bytes. Before the decoder budgeted
// what it allocates ahead, 400 nested claims (5.7 KB) cost 2.1 GB.
func TestReadAllocatesInProportionToItsBytes(t *testing.T) {
	header := write(t, &Report{})
	header = header[:bytes.IndexByte(header, '\n')+1]
	claim := func(prefix ...byte) []byte { return append(bytes.Clone(header), prefix...) }
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0x07} // 2^31 - 1: 2^31 - 2 elements
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"nested lists", nestedClaims(t, 400)},
		{"log directories", claim(append([]byte{0}, huge...)...)},
		// A run (mark 1) of empty name, log directory and path whose
		// files claim 2^31 - 2 elements.
		{"a run's files", claim(append([]byte{1, 0, 0, 0}, huge...)...)},
		{"runs", claim(bytes.Repeat([]byte{1, 0, 0, 0, 1}, 1000)...)},
		{"a string", claim(append([]byte{1}, append(huge, 'x')...)...)},
		{"a valid model", write(t, sample(memSource{}))},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			got := allocated(func() { _, err = Read(bytes.NewReader(c.in), nil) })
			t.Logf("%d bytes: %d allocated", len(c.in), got)
			if got > readBudget(len(c.in)) {
				t.Errorf("%d bytes read (%v) allocated %d bytes, over the %d budget", len(c.in), err, got, readBudget(len(c.in)))
			}
			if c.name != "a valid model" && err == nil {
				t.Errorf("a file of %d bytes claiming more was read", len(c.in))
			}
		})
	}
}

// TestReadNamesAShortPathOfDeepDamage: the error of damage deep in nested
// values names the outer fields, not one per level.
func TestReadNamesAShortPathOfDeepDamage(t *testing.T) {
	_, err := Read(bytes.NewReader(nestedClaims(t, 400)), nil)
	if err == nil || strings.Count(err.Error(), "HParamValue.List") > maxErrorPath || len(err.Error()) > 2000 {
		t.Errorf("Read: %d bytes of error, %d levels named: %.200v", len(err.Error()), strings.Count(err.Error(), "HParamValue.List"), err)
	}
}
