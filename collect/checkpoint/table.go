package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/golang/snappy"
)

// The table format (LevelDB's, which TensorFlow's lib/io/table keeps):
//
//	data block ... data block, metaindex block, index block, footer
//
// Each block is followed by a 5-byte trailer: a compression type byte
// and the masked CRC32C of the block's bytes and that type byte. The
// 48-byte footer holds the metaindex and index block handles (varint
// offset and size each), zero padding to 40 bytes, and the magic number.
// The index block's values are the handles of the data blocks, in key
// order; the data blocks hold the table's keys and values.
const (
	tableMagic      = 0xdb4775248b80fb57
	footerLen       = 48
	blockTrailerLen = 5

	compressionNone   = 0
	compressionSnappy = 1
)

// maxDecodedBytes bounds what the snappy blocks of one index may expand
// to: a few bytes of snappy can claim megabytes.
const maxDecodedBytes = 4 * MaxIndexBytes

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskDelta is added to a rotated CRC by TensorFlow's (and LevelDB's)
// crc32c::Mask, so that the CRC of bytes holding CRCs stays well spread.
const maskDelta = 0xa282ead8

func unmask(c uint32) uint32 {
	rot := c - maskDelta
	return rot>>17 | rot<<15
}

// kv is one key and value of a table.
type kv struct {
	key, value []byte
}

// handle is a block's place in the table file.
type handle struct {
	off, size uint64
}

func readHandle(b []byte) (handle, []byte, error) {
	off, n := binary.Uvarint(b)
	if n <= 0 {
		return handle{}, nil, errors.New("bad block handle")
	}
	size, m := binary.Uvarint(b[n:])
	if m <= 0 {
		return handle{}, nil, errors.New("bad block handle")
	}
	return handle{off, size}, b[n+m:], nil
}

// table reads the keys and values of a table file held whole in b.
type table struct {
	b       []byte
	decoded int // bytes snappy blocks expanded to so far
}

// readTable returns every key and value of the table b, in file order,
// checking each block's CRC.
func readTable(b []byte) ([]kv, error) {
	if len(b) < footerLen {
		return nil, fmt.Errorf("%d bytes, shorter than a table footer (%d): truncated?", len(b), footerLen)
	}
	foot := b[len(b)-footerLen:]
	if m := binary.LittleEndian.Uint64(foot[footerLen-8:]); m != tableMagic {
		return nil, fmt.Errorf("no table magic number at the end (found %#x): not a checkpoint index, or truncated", m)
	}
	_, rest, err := readHandle(foot) // the metaindex: TensorFlow writes it empty
	if err != nil {
		return nil, fmt.Errorf("footer: metaindex: %w", err)
	}
	index, _, err := readHandle(rest)
	if err != nil {
		return nil, fmt.Errorf("footer: index: %w", err)
	}
	t := &table{b: b[:len(b)-footerLen]}
	ib, err := t.block(index)
	if err != nil {
		return nil, fmt.Errorf("index block: %w", err)
	}
	handles, err := blockEntries(ib)
	if err != nil {
		return nil, fmt.Errorf("index block: %w", err)
	}
	var out []kv
	var next uint64 // data blocks follow one another: no two share bytes
	for i, e := range handles {
		h, _, err := readHandle(e.value)
		if err != nil {
			return nil, fmt.Errorf("index entry %d: %w", i, err)
		}
		if h.off < next {
			return nil, fmt.Errorf("data block %d at byte %d overlaps the one before", i, h.off)
		}
		next = h.off + h.size + blockTrailerLen
		db, err := t.block(h)
		if err != nil {
			return nil, fmt.Errorf("data block %d: %w", i, err)
		}
		kvs, err := blockEntries(db)
		if err != nil {
			return nil, fmt.Errorf("data block %d at byte %d: %w", i, h.off, err)
		}
		out = append(out, kvs...)
	}
	return out, nil
}

// block returns the contents of the block at h, checked and uncompressed.
func (t *table) block(h handle) ([]byte, error) {
	n := uint64(len(t.b))
	if h.off > n || h.size > n-h.off || blockTrailerLen > n-h.off-h.size {
		return nil, fmt.Errorf("block of %d bytes at byte %d ends past the %d bytes before the footer: truncated?", h.size, h.off, n)
	}
	b := t.b[h.off : h.off+h.size+blockTrailerLen]
	data, typ := b[:h.size], b[h.size]
	want := unmask(binary.LittleEndian.Uint32(b[h.size+1:]))
	if got := crc32.Update(crc32.Checksum(data, castagnoli), castagnoli, b[h.size:h.size+1]); got != want {
		return nil, fmt.Errorf("block at byte %d: CRC32C %#08x, the trailer says %#08x: damaged", h.off, got, want)
	}
	switch typ {
	case compressionNone:
		return data, nil
	case compressionSnappy:
		n, err := snappy.DecodedLen(data)
		if err != nil {
			return nil, fmt.Errorf("block at byte %d: snappy: %w", h.off, err)
		}
		if n > maxDecodedBytes-t.decoded {
			return nil, fmt.Errorf("block at byte %d: snappy blocks expand past %d bytes", h.off, maxDecodedBytes)
		}
		t.decoded += n
		out, err := snappy.Decode(nil, data)
		if err != nil {
			return nil, fmt.Errorf("block at byte %d: snappy: %w", h.off, err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("block at byte %d: unknown compression type %d", h.off, typ)
}

// blockEntries decodes a block: entries of (varint shared, varint
// unshared, varint value length, the key's unshared bytes, the value),
// each key sharing a prefix with the one before, then the restart
// offsets (uint32 each) and their count (uint32). Restarts only speed up
// seeks; reading every entry in turn needs them only to find where the
// entries end.
func blockEntries(b []byte) ([]kv, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%d bytes, too short for a block", len(b))
	}
	restarts := uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	if restarts > uint64(len(b)-4)/4 {
		return nil, fmt.Errorf("%d restart points do not fit in %d bytes", restarts, len(b))
	}
	end := len(b) - 4 - 4*int(restarts)
	p := b[:end]
	var out []kv
	var key []byte
	for off := 0; len(p) > 0; {
		var v [3]uint64
		for i := range v {
			x, n := binary.Uvarint(p)
			if n <= 0 {
				return nil, fmt.Errorf("entry at byte %d: bad length", off)
			}
			v[i], p, off = x, p[n:], off+n
		}
		shared, unshared, vlen := v[0], v[1], v[2]
		if shared > uint64(len(key)) {
			return nil, fmt.Errorf("entry at byte %d shares %d bytes of a %d-byte key", off, shared, len(key))
		}
		if unshared > uint64(len(p)) || vlen > uint64(len(p))-unshared {
			return nil, fmt.Errorf("entry at byte %d claims %d+%d bytes, past the block's end (%d bytes on)", off, unshared, vlen, len(p))
		}
		k := make([]byte, 0, shared+unshared)
		k = append(append(k, key[:shared]...), p[:unshared]...)
		if len(out) > 0 && bytes.Compare(k, key) <= 0 {
			return nil, fmt.Errorf("entry at byte %d: key %q does not follow %q", off, k, key)
		}
		out = append(out, kv{key: k, value: p[unshared : unshared+vlen]})
		key = k
		p, off = p[unshared+vlen:], off+int(unshared+vlen)
	}
	return out, nil
}
