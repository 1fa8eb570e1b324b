package checkpoint

import (
	"os"
	"testing"
)

// FuzzParseIndex feeds ParseIndex arbitrary bytes: it must return an
// error or an index whose entries it can look up, never panic, and
// allocate in proportion to its input (testdata/fuzz/FuzzParseIndex keeps
// a few inputs: TensorFlow's indexes, a snappy one, a cut one).
func FuzzParseIndex(f *testing.F) {
	for _, p := range []string{"testdata/dtypes/ckpt.index", "testdata/keras/train/keras_embedding.ckpt-0.index"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(writeBundle(threeTensors, tableOptions{perBlock: 2, snappy: true}).index)
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := ParseIndex(b)
		if err != nil {
			return
		}
		for _, e := range ix.Entries {
			if got, ok := ix.Lookup(e.Key); !ok || got.Key != e.Key {
				t.Fatalf("Lookup(%q) = %v, %v", e.Key, got.Key, ok)
			}
			if e.Shard >= ix.NumShards || e.Offset < 0 || e.Size < 0 {
				t.Fatalf("entry %+v of %d shards", e, ix.NumShards)
			}
		}
	})
}

// FuzzBlock feeds the block and entry decoders what the CRCs keep from
// FuzzParseIndex's mutations.
func FuzzBlock(f *testing.F) {
	b, _ := appendBlock(nil, []tableKV{{"", headerProto(1)}, {"emb", testEntry{dtype: 1, shape: []int64{2, 3}, size: 24}.proto()}}, false)
	f.Add(b[:len(b)-blockTrailerLen])
	f.Fuzz(func(t *testing.T, b []byte) {
		kvs, err := blockEntries(b)
		if err != nil {
			return
		}
		for _, x := range kvs {
			e, err := parseEntry(x.value)
			if err == nil && (e.Offset < 0 || e.Size < 0) {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
