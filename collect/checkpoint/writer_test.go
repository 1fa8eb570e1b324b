package checkpoint

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"
)

// The tests' own writer of tensor bundles, for inputs TensorFlow does not
// write (damaged, hostile, snappy blocks). It writes what TensorFlow's
// table builder writes, less the prefix compression of keys (every
// entry is a restart point), which readers cannot tell from a block
// whose keys share nothing.

// tableKV is a key and value to write.
type tableKV struct {
	key   string
	value []byte
}

// tableOptions changes how writeTable writes.
type tableOptions struct {
	perBlock int  // entries per data block; 0 is all in one
	snappy   bool // compress data blocks
}

func mask(c uint32) uint32 { return (c>>15 | c<<17) + maskDelta }

// appendBlock appends a block of kvs and its trailer to out, and returns
// its handle.
func appendBlock(out []byte, kvs []tableKV, compress bool) ([]byte, handle) {
	var b []byte
	var restarts []uint32
	prev := ""
	for i, x := range kvs {
		shared := 0
		// Share prefixes within a block after the first entry, as
		// TensorFlow does, with a restart point every 4 entries.
		if i%4 != 0 {
			for shared < len(prev) && shared < len(x.key) && prev[shared] == x.key[shared] {
				shared++
			}
		} else {
			restarts = append(restarts, uint32(len(b)))
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = binary.AppendUvarint(b, uint64(len(x.key)-shared))
		b = binary.AppendUvarint(b, uint64(len(x.value)))
		b = append(b, x.key[shared:]...)
		b = append(b, x.value...)
		prev = x.key
	}
	if len(restarts) == 0 {
		restarts = []uint32{0}
	}
	for _, r := range restarts {
		b = binary.LittleEndian.AppendUint32(b, r)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(restarts)))
	typ := byte(compressionNone)
	if compress {
		b, typ = snappy.Encode(nil, b), compressionSnappy
	}
	h := handle{off: uint64(len(out)), size: uint64(len(b))}
	out = append(out, b...)
	crc := crc32.Update(crc32.Checksum(b, castagnoli), castagnoli, []byte{typ})
	out = append(out, typ)
	out = binary.LittleEndian.AppendUint32(out, mask(crc))
	return out, h
}

func appendHandle(b []byte, h handle) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(b, h.off), h.size)
}

// writeTable returns a table file of kvs, which must be in key order.
func writeTable(kvs []tableKV, opt tableOptions) []byte {
	var out []byte
	var index []tableKV
	per := opt.perBlock
	if per <= 0 {
		per = max(len(kvs), 1)
	}
	for i := 0; i < len(kvs); i += per {
		blk := kvs[i:min(i+per, len(kvs))]
		var h handle
		out, h = appendBlock(out, blk, opt.snappy)
		// The index key of a block is any key from its last on, before
		// the next block's first: its last key is one.
		index = append(index, tableKV{blk[len(blk)-1].key, appendHandle(nil, h)})
	}
	out, meta := appendBlock(out, nil, false)
	out, ih := appendBlock(out, index, false)
	foot := appendHandle(appendHandle(nil, meta), ih)
	foot = append(foot, make([]byte, 40-len(foot))...)
	foot = binary.LittleEndian.AppendUint64(foot, tableMagic)
	return append(out, foot...)
}

// headerProto is a BundleHeaderProto of shards little-endian shards,
// version 1.
func headerProto(shards int) []byte {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(shards))
	var v []byte
	v = protowire.AppendTag(v, 1, protowire.VarintType)
	v = protowire.AppendVarint(v, 1)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// testEntry is a BundleEntryProto to write.
type testEntry struct {
	dtype        int32
	shape        []int64
	shard        int
	offset, size int64
	crc          uint32 // unmasked
	sliced       bool
}

func (e testEntry) proto() []byte {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(e.dtype))
	var s []byte
	for _, d := range e.shape {
		var dim []byte
		dim = protowire.AppendTag(dim, 1, protowire.VarintType)
		dim = protowire.AppendVarint(dim, uint64(d))
		s = protowire.AppendTag(s, 2, protowire.BytesType)
		s = protowire.AppendBytes(s, dim)
	}
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, s)
	for _, f := range []struct {
		num protowire.Number
		v   int64
	}{{3, int64(e.shard)}, {4, e.offset}, {5, e.size}} {
		b = protowire.AppendTag(b, f.num, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(f.v))
	}
	b = protowire.AppendTag(b, 6, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, mask(e.crc))
	if e.sliced {
		b = protowire.AppendTag(b, 7, protowire.BytesType)
		b = protowire.AppendBytes(b, nil)
	}
	return b
}

// bundleFiles is a checkpoint's index and data bytes, written by the
// tests' writer.
type bundleFiles struct {
	index []byte
	data  []byte
}

// testTensor is a named float32 tensor to write.
type testTensor struct {
	key    string
	shape  []int64
	values []float32
}

// writeBundle returns a one-shard bundle of tensors, which must be in key
// order.
func writeBundle(tensors []testTensor, opt tableOptions) bundleFiles {
	kvs := []tableKV{{"", headerProto(1)}}
	var data []byte
	for _, t := range tensors {
		off := int64(len(data))
		for _, v := range t.values {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
		}
		e := testEntry{dtype: 1, shape: t.shape, offset: off, size: int64(len(data)) - off,
			crc: crc32.Checksum(data[off:], castagnoli)}
		kvs = append(kvs, tableKV{t.key, e.proto()})
	}
	return bundleFiles{index: writeTable(kvs, opt), data: data}
}
