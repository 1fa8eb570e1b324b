package checkpoint

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// expected is testdata/expected.json: what TensorFlow's own checkpoint
// reader read back from the checkpoints gen.py wrote, by prefix.
type expectedTensor struct {
	Key    string    `json:"key"`
	DType  string    `json:"dtype"`
	Shape  []int64   `json:"shape"`
	Values []float64 `json:"values"`
}

func readExpected(t *testing.T) map[string][]expectedTensor {
	t.Helper()
	b, err := os.ReadFile("testdata/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string][]expectedTensor
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

// decode decodes little-endian elements of a dtype read, for comparing
// with TensorFlow's values.
func decode(t *testing.T, dtype string, b []byte) []float64 {
	t.Helper()
	le := binary.LittleEndian
	var out []float64
	switch dtype {
	case "float32":
		for i := 0; i < len(b); i += 4 {
			out = append(out, float64(math.Float32frombits(le.Uint32(b[i:]))))
		}
	case "float64":
		for i := 0; i < len(b); i += 8 {
			out = append(out, math.Float64frombits(le.Uint64(b[i:])))
		}
	case "bfloat16":
		for i := 0; i < len(b); i += 2 {
			out = append(out, float64(math.Float32frombits(uint32(le.Uint16(b[i:]))<<16)))
		}
	case "float16":
		for i := 0; i < len(b); i += 2 {
			out = append(out, half(le.Uint16(b[i:])))
		}
	case "int32":
		for i := 0; i < len(b); i += 4 {
			out = append(out, float64(int32(le.Uint32(b[i:]))))
		}
	case "int64":
		for i := 0; i < len(b); i += 8 {
			out = append(out, float64(int64(le.Uint64(b[i:]))))
		}
	default:
		t.Fatalf("no decoder of %s in the test", dtype)
	}
	return out
}

// half converts IEEE 754 half-precision bits.
func half(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * frac * math.Pow(2, -24)
	case 0x1f:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + frac/1024) * math.Pow(2, float64(exp-15))
}

func TestReadsEveryTensorTensorFlowWrote(t *testing.T) {
	for prefix, want := range readExpected(t) {
		t.Run(prefix, func(t *testing.T) {
			src := testsupport.OpenDir(t, "testdata")
			b, err := Open(src, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Index.Entries) != len(want) {
				t.Errorf("%d entries, TensorFlow read %d", len(b.Index.Entries), len(want))
			}
			for _, w := range want {
				e, ok := b.Index.Lookup(w.Key)
				if !ok {
					t.Errorf("no entry %q", w.Key)
					continue
				}
				if e.TypeName() != w.DType {
					t.Errorf("%s: dtype %s, want %s", w.Key, e.TypeName(), w.DType)
				}
				tensor, err := b.Locate(w.Key, 1<<20)
				if w.DType == "string" {
					if err == nil || !strings.Contains(err.Error(), "string values, which are not read") {
						t.Errorf("%s: string tensor located: %v", w.Key, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", w.Key, err)
					continue
				}
				if !slices.Equal(e.Shape, w.Shape) {
					t.Errorf("%s: shape %v, want %v", w.Key, e.Shape, w.Shape)
				}
				if err := b.CheckCRC(tensor); err != nil {
					t.Errorf("%s: %v", w.Key, err)
				}
				raw, err := src.ReadAt(tensor.File, tensor.Offset, tensor.Size)
				if err != nil {
					t.Fatal(err)
				}
				got := decode(t, e.DType, raw)
				if len(got) != len(w.Values) {
					t.Errorf("%s: %d values, want %d", w.Key, len(got), len(w.Values))
					continue
				}
				for i := range got {
					// Bits, not ==: -0 and 0 differ in what was written.
					if math.Float64bits(got[i]) != math.Float64bits(w.Values[i]) {
						t.Errorf("%s[%d] = %v, TensorFlow read %v", w.Key, i, got[i], w.Values[i])
					}
				}
			}
		})
	}
}

// writeFiles writes a bundle as dir/prefix.index and its one shard.
func writeFiles(t *testing.T, dir, prefix string, f bundleFiles) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, prefix+".index"), f.index, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, DataName(prefix, 0, 1)), f.data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var threeTensors = []testTensor{
	{"a", []int64{2, 2}, []float32{1, 2, 3, 4}},
	{"b/kernel", []int64{1, 3}, []float32{-1, 0.5, 8}},
	{"b/kernel/.ATTRIBUTES/VARIABLE_VALUE", []int64{3}, []float32{7, 8, 9}},
	{"c", []int64{0, 4}, nil},
	{"d", []int64{1}, []float32{42}},
}

func TestReadsBlocksOfManyEntriesAndSnappyBlocks(t *testing.T) {
	for _, opt := range []tableOptions{{}, {perBlock: 1}, {perBlock: 2}, {perBlock: 2, snappy: true}} {
		f := writeBundle(threeTensors, opt)
		ix, err := ParseIndex(f.index)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		if ix.NumShards != 1 || len(ix.Entries) != len(threeTensors) {
			t.Fatalf("%+v: %d shards, %d entries", opt, ix.NumShards, len(ix.Entries))
		}
		var off int64
		for i, want := range threeTensors {
			e := ix.Entries[i]
			if e.Key != want.key || !slices.Equal(e.Shape, want.shape) || e.DType != "float32" || e.Offset != off || e.Size != int64(4*len(want.values)) {
				t.Errorf("%+v: entry %d = %+v, want %+v at %d", opt, i, e, want, off)
			}
			off += e.Size
		}
	}
}

func TestRefusesATruncatedIndex(t *testing.T) {
	f := writeBundle(threeTensors, tableOptions{perBlock: 2})
	for n := range len(f.index) {
		if _, err := ParseIndex(f.index[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes of an index read without an error", n, len(f.index))
		}
	}
	_, err := ParseIndex(f.index[:len(f.index)-1])
	if err == nil || !strings.Contains(err.Error(), "no table magic number") {
		t.Errorf("cut index: %v", err)
	}
}

func TestRefusesADamagedBlock(t *testing.T) {
	f := writeBundle(threeTensors, tableOptions{})
	// TensorFlow does not read the metaindex block (it holds nothing);
	// neither do we.
	meta, _, err := readHandle(f.index[len(f.index)-footerLen:])
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(f.index) - footerLen {
		if uint64(i) >= meta.off && uint64(i) < meta.off+meta.size+blockTrailerLen {
			continue
		}
		b := slices.Clone(f.index)
		b[i] ^= 0x40
		if _, err := ParseIndex(b); err == nil {
			t.Fatalf("a flipped bit at byte %d of the index went unnoticed", i)
		}
	}
	b := slices.Clone(f.index)
	b[3] ^= 0x40 // in the first data block
	if _, err := ParseIndex(b); err == nil || !strings.Contains(err.Error(), "CRC32C") {
		t.Errorf("damaged block: %v", err)
	}
}

func TestRefusesTensorBytesThatDoNotMatchTheirCRC(t *testing.T) {
	dir := t.TempDir()
	f := writeBundle(threeTensors, tableOptions{})
	f.data[5] ^= 1 // in "a"
	writeFiles(t, dir, "m", f)
	b, err := Open(testsupport.OpenDir(t, dir), "m")
	if err != nil {
		t.Fatal(err)
	}
	for key, bad := range map[string]bool{"a": true, "d": false} {
		tensor, err := b.Locate(key, 100)
		if err != nil {
			t.Fatal(err)
		}
		err = b.CheckCRC(tensor)
		if bad != (err != nil) || bad && !strings.Contains(err.Error(), "damaged") {
			t.Errorf("%s: CheckCRC = %v", key, err)
		}
	}
}

// hostileIndex is an index of one entry e, with a 16-byte shard.
func hostileIndex(t *testing.T, dir string, e testEntry) *Bundle {
	t.Helper()
	index := writeTable([]tableKV{{"", headerProto(1)}, {"t", e.proto()}}, tableOptions{})
	writeFiles(t, dir, "m", bundleFiles{index: index, data: make([]byte, 16)})
	b, err := Open(testsupport.OpenDir(t, dir), "m")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRefusesTensorsTheShardDoesNotHold(t *testing.T) {
	for name, c := range map[string]struct {
		e    testEntry
		want string
	}{
		"past the end":     {testEntry{dtype: 1, shape: []int64{2, 2}, offset: 8, size: 16}, "past the end"},
		"offset past":      {testEntry{dtype: 1, shape: []int64{1}, offset: 1 << 62, size: 4}, "past the end"},
		"size not shape's": {testEntry{dtype: 1, shape: []int64{2, 2}, size: 12}, "takes 16"},
		"huge shape":       {testEntry{dtype: 1, shape: []int64{1 << 40, 1 << 40}, size: 16}, "more than"},
		"huge size":        {testEntry{dtype: 2, shape: []int64{1 << 30, 1 << 30}, size: 1 << 63 >> 1}, "more than"},
		"no such shard":    {testEntry{dtype: 1, shape: []int64{1}, shard: 0, size: 4}, ""},
		"string":           {testEntry{dtype: 7, shape: []int64{1}, size: 4}, "string values"},
		"unknown type":     {testEntry{dtype: 99, shape: []int64{1}, size: 4}, "DataType 99"},
		"sliced":           {testEntry{dtype: 1, shape: []int64{1}, size: 4, sliced: true}, "slices"},
	} {
		t.Run(name, func(t *testing.T) {
			b := hostileIndex(t, t.TempDir(), c.e)
			_, err := b.Locate("t", 1<<30)
			if c.want == "" {
				if err != nil {
					t.Errorf("Locate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Locate = %v, want an error with %q", err, c.want)
			}
		})
	}
	// A shard number at or past num_shards is refused by the index.
	index := writeTable([]tableKV{{"", headerProto(1)}, {"t", testEntry{dtype: 1, shard: 1}.proto()}}, tableOptions{})
	if _, err := ParseIndex(index); err == nil || !strings.Contains(err.Error(), "shard 1 of 1") {
		t.Errorf("shard past num_shards: %v", err)
	}
}

func TestRefusesAShardNamedByASymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	dir := t.TempDir()
	f := writeBundle(threeTensors, tableOptions{})
	writeFiles(t, dir, "m", f)
	shard := filepath.Join(dir, DataName("m", 0, 1))
	if err := os.Rename(shard, filepath.Join(dir, "real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", shard); err != nil {
		t.Fatal(err)
	}
	b, err := Open(testsupport.OpenDir(t, dir), "m")
	if err != nil {
		t.Fatal(err)
	}
	tensor, err := b.Locate("a", 100)
	if !errors.Is(err, logfs.ErrNotRegular) {
		t.Errorf("Locate through a link = %v, want ErrNotRegular", err)
	}
	// Even a place checked before the link appeared is not read through it.
	tensor.File = DataName("m", 0, 1)
	tensor.Size, tensor.Offset = 4, 0
	if err := b.CheckCRC(tensor); err == nil {
		t.Error("CheckCRC read through a link")
	}
}

func TestRefusesHostileHeadersAndBlocks(t *testing.T) {
	entry := testEntry{dtype: 1, shape: []int64{1}, size: 4}.proto()
	for name, c := range map[string]struct {
		index []byte
		want  string
	}{
		"no header":         {writeTable([]tableKV{{"t", entry}}, tableOptions{}), "no bundle header"},
		"no shards":         {writeTable([]tableKV{{"", nil}}, tableOptions{}), "no num_shards"},
		"too many shards":   {writeTable([]tableKV{{"", headerProto(1 << 20)}}, tableOptions{}), "num_shards"},
		"big-endian":        {writeTable([]tableKV{{"", append(headerProto(1), 0x10, 1)}}, tableOptions{}), "big-endian"},
		"newer version":     {writeTable([]tableKV{{"", append(headerProto(1), 0x1a, 2, 0x10, 2)}}, tableOptions{}), "version 2"},
		"keys out of order": {writeTable([]tableKV{{"", headerProto(1)}, {"b", entry}, {"a", entry}}, tableOptions{perBlock: 2}), "does not follow"},
		"footer only":       {writeTable(nil, tableOptions{})[len(writeTable(nil, tableOptions{}))-footerLen:], "ends past"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseIndex(c.index)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseIndex = %v, want an error with %q", err, c.want)
			}
		})
	}
}

func TestRefusesASnappyBlockThatExpandsPastTheBound(t *testing.T) {
	// A snappy block whose preamble claims 1 GiB: a few bytes that must not
	// make the reader allocate it.
	blk := binary.AppendUvarint(nil, 1<<30)
	blk = append(blk, 0)
	var tbl []byte
	tbl = append(tbl, blk...)
	tbl = append(tbl, compressionSnappy)
	tbl = binary.LittleEndian.AppendUint32(tbl, mask(crcOf(tbl)))
	h := handle{0, uint64(len(blk))}
	tbl, meta := appendBlock(tbl, nil, false)
	tbl, ih := appendBlock(tbl, []tableKV{{"z", appendHandle(nil, h)}}, false)
	foot := appendHandle(appendHandle(nil, meta), ih)
	foot = append(foot, make([]byte, 40-len(foot))...)
	tbl = append(tbl, binary.LittleEndian.AppendUint64(foot, tableMagic)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ParseIndex(tbl)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "expand past") {
		t.Errorf("ParseIndex = %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("reading a %d-byte index allocated %d bytes", len(tbl), grew)
	}
}

// crcOf is the CRC32C of a block's bytes and type byte, held together in b.
func crcOf(b []byte) uint32 {
	return crc32.Checksum(b, castagnoli)
}

func TestReadsTheSharedCorpusCheckpoint(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "tf2-projector-ckpt", "logs")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared corpus: %v", err)
	}
	b, err := Open(testsupport.OpenDir(t, dir), "embed.ckpt-4")
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range []string{"embed0", "embed1", "embed2"} {
		tensor, err := b.Locate(key, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tensor.Shape, []int64{10000, 16}) || tensor.Offset != int64(i)*640000 || tensor.DType != "float32" {
			t.Errorf("%s: %+v", key, tensor)
		}
		if err := b.CheckCRC(tensor); err != nil {
			t.Error(err)
		}
	}
}

// A block whose CRC holds (its writer is hostile, not the disk) may still
// claim entries longer than itself, or share more of a key than there is.
func TestRefusesBlockEntriesThatClaimMoreThanTheBlock(t *testing.T) {
	restarts := []byte{0, 0, 0, 0, 1, 0, 0, 0}
	for name, c := range map[string]struct {
		entries []byte
		want    string
	}{
		"long key":     {[]byte{0, 100, 1, 'k'}, "claims 100+1 bytes"},
		"long value":   {[]byte{0, 1, 100, 'k', 'v'}, "claims 1+100 bytes"},
		"huge value":   {append([]byte{0, 1}, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'k'), "claims 1+"},
		"shared":       {[]byte{3, 1, 0, 'k'}, "shares 3 bytes of a 0-byte key"},
		"bad varint":   {[]byte{0x80}, "bad length"},
		"restarts":     {nil, ""},
		"out of order": {[]byte{0, 1, 0, 'b', 0, 1, 0, 'a'}, "does not follow"},
	} {
		t.Run(name, func(t *testing.T) {
			b := append(slices.Clone(c.entries), restarts...)
			if name == "restarts" {
				b = []byte{0, 0, 0, 0, 0xff, 0xff, 0, 0} // 65535 restarts in 8 bytes
				c.want = "restart points do not fit"
			}
			_, err := blockEntries(b)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("blockEntries(%x) = %v, want an error with %q", b, err, c.want)
			}
		})
	}
}
