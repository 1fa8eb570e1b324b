package graph

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// stepStats writes a StepStats: per device, its name and node stats
// [name, all_end_rel_micros, total_bytes...].
func stepStats(devices map[string][][]any, order ...string) []byte {
	var b []byte
	for _, dev := range order {
		var d []byte
		d = protowire.AppendTag(d, 1, protowire.BytesType)
		d = protowire.AppendString(d, dev)
		for _, n := range devices[dev] {
			var ns []byte
			ns = protowire.AppendTag(ns, 1, protowire.BytesType)
			ns = protowire.AppendString(ns, n[0].(string))
			ns = protowire.AppendTag(ns, 2, protowire.VarintType) // all_start_micros
			ns = protowire.AppendVarint(ns, 1_000_000)
			ns = protowire.AppendTag(ns, 5, protowire.VarintType)
			ns = protowire.AppendVarint(ns, uint64(n[1].(int)))
			for _, bytes := range n[2:] {
				var m []byte
				m = protowire.AppendTag(m, 1, protowire.BytesType)
				m = protowire.AppendString(m, "cpu")
				m = protowire.AppendTag(m, 2, protowire.VarintType)
				m = protowire.AppendVarint(m, uint64(bytes.(int)))
				m = protowire.AppendTag(m, 3, protowire.VarintType) // peak_bytes, not read
				m = protowire.AppendVarint(m, 1<<40)
				ns = protowire.AppendTag(ns, 6, protowire.BytesType)
				ns = protowire.AppendBytes(ns, m)
			}
			ns = protowire.AppendTag(ns, 8, protowire.BytesType) // timeline_label, not read
			ns = protowire.AppendString(ns, "label")
			d = protowire.AppendTag(d, 2, protowire.BytesType)
			d = protowire.AppendBytes(d, ns)
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, d)
	}
	return b
}

func TestDecodeStepStats(t *testing.T) {
	b := stepStats(map[string][][]any{
		"/device:CPU:0": {{"a", 10, 100, 28}, {"b", 5}},
		"/device:GPU:0": {{"a", 7, 1000}, {"", 3}},
	}, "/device:CPU:0", "/device:GPU:0")
	stats, err := DecodeStepStats(b)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(stats)
	// a ran on both devices: its time and memory add up, its device is the
	// first; a node without a name is dropped.
	if want := "[{a /device:CPU:0 17 1128} {b /device:CPU:0 5 0}]"; got != want {
		t.Errorf("stats %s, want %s", got, want)
	}
	for cut := range b { // no prefix panics (most are errors)
		_, _ = DecodeStepStats(b[:cut])
	}
	if _, err := DecodeStepStats([]byte{10, 200}); err == nil {
		t.Error("a length past the end read without error")
	}
}

// FuzzStepStats: no input panics, and the stats read name each node once.
func FuzzStepStats(f *testing.F) {
	f.Add(stepStats(map[string][][]any{"/cpu": {{"a", 10, 100, 28}, {"b", 5}}}, "/cpu"))
	f.Add([]byte{10, 200})
	f.Fuzz(func(t *testing.T, b []byte) {
		stats, err := DecodeStepStats(b)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, s := range stats {
			if s.Node == "" || seen[s.Node] {
				t.Fatalf("node %q empty or repeated", s.Node)
			}
			seen[s.Node] = true
		}
	})
}
