// Package checkpoint reads TensorFlow's tensor bundles, the V2 checkpoint
// format (docs/FORMATS.md section 16), without TensorFlow: the
// <prefix>.index table that says where each tensor is, and the
// <prefix>.data-<shard>-of-<shards> files that hold the tensors' bytes.
//
// Everything in a checkpoint is untrusted: the index is read whole within
// MaxIndexBytes, every block's CRC is checked, and a tensor's claimed
// place is checked against its data file's real size before anything is
// allocated for it. Tensor bytes stay in their files: Locate says where
// they are, and only CheckCRC reads them, a chunk at a time.
package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
)

// MaxIndexBytes bounds the .index file read. TensorFlow's index holds
// some 60 bytes per tensor: 16 MiB is a quarter of a million tensors.
const MaxIndexBytes = 16 << 20

// maxShards bounds the data files a header may claim.
const maxShards = 1 << 16

// Entry is where one tensor of a bundle is.
type Entry struct {
	// Key is the tensor's name in the checkpoint: the variable's name in
	// TensorFlow 1 checkpoints, the object path in TensorFlow 2 ones
	// ("layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE").
	Key string
	// DType is numpy's name of the element type ("float32", "bfloat16"),
	// or "" when it is one this package does not read; TFType is
	// TensorFlow's DataType number either way.
	DType  string
	TFType int32
	Shape  []int64
	Shard  int
	Offset int64
	Size   int64
	CRC32C uint32 // of the tensor's bytes, unmasked
	// Sliced is set when the tensor was saved as slices, each an entry of
	// its own (partitioned variables); its bytes are not in one place.
	Sliced bool
}

// elemSize returns the bytes of one element, or 0 for a type not read.
func (e Entry) elemSize() int { return dtypes[e.TFType].size }

// TensorFlow's DataType numbers of the types read, and their numpy names.
var dtypes = map[int32]struct {
	name string
	size int
}{
	1: {"float32", 4}, 2: {"float64", 8}, 3: {"int32", 4}, 4: {"uint8", 1}, 5: {"int16", 2},
	6: {"int8", 1}, 9: {"int64", 8}, 14: {"bfloat16", 2}, 17: {"uint16", 2}, 19: {"float16", 2},
	22: {"uint32", 4}, 23: {"uint64", 8},
}

// tfTypeNames names the DataType numbers not read, for messages.
var tfTypeNames = map[int32]string{
	7: "string", 8: "complex64", 10: "bool", 11: "qint8", 12: "quint8", 13: "qint32",
	15: "qint16", 16: "quint16", 18: "complex128", 20: "resource", 21: "variant",
}

// TypeName names e's element type: numpy's name, else TensorFlow's.
func (e Entry) TypeName() string {
	if e.DType != "" {
		return e.DType
	}
	if n, ok := tfTypeNames[e.TFType]; ok {
		return n
	}
	return fmt.Sprintf("DataType %d", e.TFType)
}

// Index is a bundle's .index file.
type Index struct {
	NumShards int
	// Entries are in key order.
	Entries []Entry
}

// Lookup returns the entry of key.
func (ix *Index) Lookup(key string) (Entry, bool) {
	i := sort.Search(len(ix.Entries), func(i int) bool { return ix.Entries[i].Key >= key })
	if i < len(ix.Entries) && ix.Entries[i].Key == key {
		return ix.Entries[i], true
	}
	return Entry{}, false
}

// ParseIndex decodes the bytes of an .index file, checking every block's
// CRC. The empty key holds the header (BundleHeaderProto); every other
// key a tensor (BundleEntryProto).
func ParseIndex(b []byte) (*Index, error) {
	if len(b) > MaxIndexBytes {
		return nil, fmt.Errorf("%d bytes, over the %d read", len(b), MaxIndexBytes)
	}
	kvs, err := readTable(b)
	if err != nil {
		return nil, err
	}
	if len(kvs) == 0 || len(kvs[0].key) != 0 {
		return nil, errors.New("no bundle header (the empty key)")
	}
	ix := &Index{}
	if err := ix.header(kvs[0].value); err != nil {
		return nil, fmt.Errorf("bundle header: %w", err)
	}
	ix.Entries = make([]Entry, 0, len(kvs)-1)
	for i, x := range kvs[1:] {
		// Keys are sorted within a block; across blocks too, or Lookup
		// would miss some.
		if bytes.Compare(x.key, kvs[i].key) <= 0 {
			return nil, fmt.Errorf("key %q does not follow %q", x.key, kvs[i].key)
		}
		e, err := parseEntry(x.value)
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", x.key, err)
		}
		e.Key = string(x.key)
		if e.Shard >= ix.NumShards {
			return nil, fmt.Errorf("tensor %q: shard %d of %d", e.Key, e.Shard, ix.NumShards)
		}
		ix.Entries = append(ix.Entries, e)
	}
	return ix, nil
}

// header reads a BundleHeaderProto: num_shards (1), endianness (2, 0 is
// little-endian), version (3, a VersionDef: producer 1, min_consumer 2,
// bad_consumers 3).
func (ix *Index) header(b []byte) error {
	var endian uint64
	var minConsumer uint64
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			if v == 0 || v > maxShards {
				return fmt.Errorf("num_shards %d is not in 1..%d", int64(v), maxShards)
			}
			ix.NumShards = int(v)
		case num == 2 && typ == protowire.VarintType:
			endian = v
		case num == 3 && typ == protowire.BytesType:
			return fields(sub, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
				if num == 2 && typ == protowire.VarintType {
					minConsumer = v
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if ix.NumShards == 0 {
		return errors.New("no num_shards")
	}
	if endian != 0 {
		return errors.New("big-endian tensors are not read")
	}
	// TensorFlow's bundle version is 1: a bundle that needs a later
	// reader may lay its bytes out otherwise.
	if minConsumer > 1 {
		return fmt.Errorf("written for readers of version %d or later; this one reads version 1", minConsumer)
	}
	return nil
}

// parseEntry reads a BundleEntryProto: dtype (1), shape (2, a
// TensorShapeProto), shard_id (3), offset (4), size (5), crc32c (6,
// fixed32, masked), slices (7).
func parseEntry(b []byte) (Entry, error) {
	var e Entry
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			e.TFType = int32(v)
		case num == 2 && typ == protowire.BytesType:
			s, err := parseShape(sub)
			if err != nil {
				return fmt.Errorf("shape: %w", err)
			}
			e.Shape = s
		case num == 3 && typ == protowire.VarintType:
			if v >= maxShards {
				return fmt.Errorf("shard %d", int64(v))
			}
			e.Shard = int(v)
		case num == 4 && typ == protowire.VarintType:
			e.Offset = int64(v)
		case num == 5 && typ == protowire.VarintType:
			e.Size = int64(v)
		case num == 6 && typ == protowire.Fixed32Type:
			e.CRC32C = unmask(uint32(v))
		case num == 7 && typ == protowire.BytesType:
			e.Sliced = true
		}
		return nil
	})
	if err != nil {
		return e, err
	}
	if e.Offset < 0 || e.Size < 0 {
		return e, fmt.Errorf("offset %d, size %d", e.Offset, e.Size)
	}
	if d, ok := dtypes[e.TFType]; ok {
		e.DType = d.name
	}
	return e, nil
}

// parseShape reads a TensorShapeProto: dim (2: size 1, name 2),
// unknown_rank (3).
func parseShape(b []byte) ([]int64, error) {
	shape := []int64{}
	err := fields(b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch {
		case num == eventpb.FieldShapeDim && typ == protowire.BytesType:
			var size int64
			if err := fields(sub, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
				if num == eventpb.FieldShapeDimSize && typ == protowire.VarintType {
					size = int64(v)
				}
				return nil
			}); err != nil {
				return err
			}
			if size < 0 {
				return fmt.Errorf("dimension %d", size)
			}
			shape = append(shape, size)
		case num == eventpb.FieldShapeUnknownRank && typ == protowire.VarintType && v != 0:
			return errors.New("unknown rank")
		}
		return nil
	})
	return shape, err
}

// fields calls fn for each field of the message b with its number, wire
// type, and its value: v for varints and fixed-size numbers, sub for
// length-delimited ones.
func fields(b []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v uint64
		var sub []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var x uint32
			x, n = protowire.ConsumeFixed32(b)
			v = uint64(x)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			sub, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, v, sub); err != nil {
			return err
		}
	}
	return nil
}

// DataName returns the name of shard of a bundle of shards data files.
func DataName(prefix string, shard, shards int) string {
	return fmt.Sprintf("%s.data-%05d-of-%05d", prefix, shard, shards)
}

// Bundle is an open checkpoint of a log directory.
type Bundle struct {
	src    *logfs.Dir
	Prefix string // slash-separated, relative to the log directory
	Index  *Index
}

// Open reads the index of the checkpoint prefix (slash-separated,
// relative to src: "train/model.ckpt-4" for train/model.ckpt-4.index).
func Open(src *logfs.Dir, prefix string) (*Bundle, error) {
	name := prefix + ".index"
	b, err := src.ReadFile(name, MaxIndexBytes)
	if err != nil {
		return nil, fmt.Errorf("checkpoint index: %w", err)
	}
	ix, err := ParseIndex(b)
	if err != nil {
		return nil, fmt.Errorf("checkpoint index %s: %w", name, err)
	}
	return &Bundle{src: src, Prefix: prefix, Index: ix}, nil
}

// Tensor is where a tensor's bytes are: Size bytes at Offset of the data
// file File (slash-separated, relative to the log directory).
type Tensor struct {
	Entry
	File string
}

// Locate returns where the tensor key is, checked: its element type is
// one read, its size is what its shape and type take, and its bytes lie
// inside a regular file of the log directory. maxValues bounds the
// elements of the shape.
func (b *Bundle) Locate(key string, maxValues int64) (Tensor, error) {
	e, ok := b.Index.Lookup(key)
	if !ok {
		return Tensor{}, fmt.Errorf("no tensor %q in checkpoint %s", key, b.Prefix)
	}
	t := Tensor{Entry: e, File: DataName(b.Prefix, e.Shard, b.Index.NumShards)}
	if e.Sliced {
		return t, fmt.Errorf("tensor %q is saved in slices (a partitioned variable), which are not read", key)
	}
	if e.DType == "" {
		return t, fmt.Errorf("tensor %q holds %s values, which are not read", key, e.TypeName())
	}
	n := int64(1)
	for _, d := range e.Shape {
		if d != 0 && n > maxValues/d {
			return t, fmt.Errorf("tensor %q of shape %v holds more than %d values", key, e.Shape, maxValues)
		}
		n *= d
	}
	if want := n * int64(e.elemSize()); e.Size != want {
		return t, fmt.Errorf("tensor %q: %d bytes, but %v of %s takes %d", key, e.Size, e.Shape, e.DType, want)
	}
	fi, err := b.src.Stat(t.File)
	if err != nil {
		return t, fmt.Errorf("tensor %q: data file: %w", key, err)
	}
	if !fi.Mode().IsRegular() {
		return t, fmt.Errorf("tensor %q: data file %s: %w", key, t.File, logfs.ErrNotRegular)
	}
	if e.Offset > fi.Size() || e.Size > fi.Size()-e.Offset {
		return t, fmt.Errorf("tensor %q: %d bytes at byte %d, past the end of %s (%d bytes): truncated?", key, e.Size, e.Offset, t.File, fi.Size())
	}
	return t, nil
}

// checkChunk is what CheckCRC reads at a time.
const checkChunk = 1 << 20

// CheckCRC reads the tensor's bytes, a chunk at a time, and checks them
// against the index's CRC32C.
func (b *Bundle) CheckCRC(t Tensor) error {
	f, err := b.src.Open(t.File)
	if err != nil {
		return fmt.Errorf("tensor %q: %w", t.Key, err)
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.CopyBuffer(h, io.NewSectionReader(f, t.Offset, t.Size), make([]byte, min(t.Size, checkChunk)+1))
	if err != nil {
		return fmt.Errorf("tensor %q: %s: %w", t.Key, t.File, err)
	}
	if n != t.Size {
		return fmt.Errorf("tensor %q: %s ends %d bytes into the tensor's %d: truncated?", t.Key, t.File, n, t.Size)
	}
	if got := h.Sum32(); got != t.CRC32C {
		return fmt.Errorf("tensor %q: CRC32C %#08x, the index says %#08x: damaged", t.Key, got, t.CRC32C)
	}
	return nil
}
