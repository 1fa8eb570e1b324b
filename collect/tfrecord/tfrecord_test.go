package tfrecord

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// record is what a test expects Next to yield: a good record's data, or a
// damaged record's offset.
type record struct {
	data    string
	damaged bool
	offset  int64
}

// readAll reads every record of b and returns them with the reader's Err.
func readAll(t testing.TB, b []byte) ([]record, error) {
	t.Helper()
	r := NewReader(bytes.NewReader(b), "f")
	var out []record
	for r.Next() {
		if d := r.Damage(); d != nil {
			if r.Record() != nil {
				t.Fatalf("offset %d: damaged record has data", r.Offset())
			}
			if d.Offset != r.Offset() {
				t.Errorf("Damage().Offset = %d, Offset() = %d", d.Offset, r.Offset())
			}
			out = append(out, record{damaged: true, offset: d.Offset})
			continue
		}
		out = append(out, record{data: string(r.Record()), offset: r.Offset()})
	}
	if r.Record() != nil || r.Damage() != nil {
		t.Errorf("after the last Next: Record() = %q, Damage() = %v, want nil", r.Record(), r.Damage())
	}
	if r.Next() {
		t.Errorf("Next after the end returned true")
	}
	return out, r.Err()
}

// frame returns the records framed one after another, and the offset at
// which each starts followed by the total length.
func frame(recs ...string) ([]byte, []int64) {
	var b []byte
	var offs []int64
	for _, d := range recs {
		offs = append(offs, int64(len(b)))
		b = AppendRecord(b, []byte(d))
	}
	return b, append(offs, int64(len(b)))
}

// header returns a record header announcing length, with a valid length CRC.
func header(length uint64) []byte {
	var h [12]byte
	binary.LittleEndian.PutUint64(h[:8], length)
	binary.LittleEndian.PutUint32(h[8:], MaskedCRC(h[:8]))
	return h[:]
}

func wantProblem(t *testing.T, err error, p Problem, off int64) {
	t.Helper()
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("Err() = %v, want an *Error (%v)", err, p)
	}
	if e.Problem != p || e.Offset != off {
		t.Errorf("Err() = %v at offset %d, want %v at offset %d (%v)", e.Problem, e.Offset, p, off, e)
	}
	if e.File != "f" {
		t.Errorf("Err().File = %q, want the name given to NewReader", e.File)
	}
}

func TestMaskedCRCKnownVector(t *testing.T) {
	const crc = 0xE3069283 // CRC-32C of "123456789"
	if got := crc32.Checksum([]byte("123456789"), crc32.MakeTable(crc32.Castagnoli)); got != crc {
		t.Fatalf("CRC-32C check value = %#08x, want %#08x", got, crc)
	}
	// masked(c) = ((c >> 15) | (c << 17)) + 0xa282ead8, in uint32 arithmetic.
	const want = uint32(0xc78ab0e5)
	var c uint32 = crc
	if m := ((c >> 15) | (c << 17)) + 0xa282ead8; m != want {
		t.Fatalf("formula gives %#08x, test constant is %#08x", m, want)
	}
	if got := MaskedCRC([]byte("123456789")); got != want {
		t.Errorf("MaskedCRC(%q) = %#08x, want %#08x", "123456789", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	big := strings.Repeat("x", 3<<20) // spans several read chunks
	tests := []struct {
		name string
		recs []string
	}{
		{"no records", nil},
		{"one empty record", []string{""}},
		{"several records", []string{"a", "", "hello", "\x00\xff\x00"}},
		{"record larger than a read chunk", []string{"head", big, "tail"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			for _, d := range tc.recs {
				if err := w.Write([]byte(d)); err != nil {
					t.Fatal(err)
				}
			}
			b, offs := frame(tc.recs...)
			if !bytes.Equal(buf.Bytes(), b) {
				t.Fatalf("Writer and AppendRecord disagree")
			}
			got, err := readAll(t, buf.Bytes())
			if err != nil {
				t.Fatalf("Err() = %v, want nil", err)
			}
			if len(got) != len(tc.recs) {
				t.Fatalf("read %d records, want %d", len(got), len(tc.recs))
			}
			for i, g := range got {
				if g.damaged || g.data != tc.recs[i] || g.offset != offs[i] {
					t.Errorf("record %d: damaged=%v len=%d offset=%d, want len=%d offset=%d",
						i, g.damaged, len(g.data), g.offset, len(tc.recs[i]), offs[i])
				}
			}
		})
	}
}

func TestZeroBytesIsCleanEnd(t *testing.T) {
	got, err := readAll(t, nil)
	if len(got) != 0 || err != nil {
		t.Errorf("got %d records, Err() = %v; want none and nil", len(got), err)
	}
}

func TestDataCRCMismatchSkipsOneRecord(t *testing.T) {
	recs := []string{"first", "second", "third"}
	b, offs := frame(recs...)
	tests := []struct {
		name string
		at   int64 // byte to flip
	}{
		{"flipped data byte", offs[1] + 12 + 2},
		{"flipped data CRC byte", offs[2] - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := bytes.Clone(b)
			c[tc.at] ^= 0x40
			r := NewReader(bytes.NewReader(c), "f")
			var got []record
			for r.Next() {
				if d := r.Damage(); d != nil {
					if d.Problem != BadDataCRC || d.File != "f" {
						t.Errorf("Damage() = %v (%v), want %v", d.Problem, d, BadDataCRC)
					}
					got = append(got, record{damaged: true, offset: d.Offset})
					continue
				}
				got = append(got, record{data: string(r.Record()), offset: r.Offset()})
			}
			if err := r.Err(); err != nil {
				t.Errorf("Err() = %v, want nil", err)
			}
			want := []record{{"first", false, offs[0]}, {"", true, offs[1]}, {"third", false, offs[2]}}
			if len(got) != len(want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("record %d = %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}

func TestLengthCRCMismatchStopsFile(t *testing.T) {
	recs := []string{"first", "second", "third"}
	b, offs := frame(recs...)
	tests := []struct {
		name string
		at   int64
	}{
		{"flipped length byte", offs[1] + 0},
		{"flipped high length byte", offs[1] + 7},
		{"flipped length CRC byte", offs[1] + 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := bytes.Clone(b)
			c[tc.at] ^= 0x01
			got, err := readAll(t, c)
			if len(got) != 1 || got[0].data != "first" {
				t.Errorf("records = %+v, want only the first", got)
			}
			wantProblem(t, err, BadLengthCRC, offs[1])
		})
	}
}

// TestTruncationAtEveryOffset cuts a file of three records at every byte.
func TestTruncationAtEveryOffset(t *testing.T) {
	recs := []string{"alpha", "", "a longer third record"}
	b, offs := frame(recs...)
	for cut := 0; cut <= len(b); cut++ {
		got, err := readAll(t, b[:cut])
		// Records wholly before the cut are returned.
		n := 0
		for n < len(recs) && offs[n+1] <= int64(cut) {
			n++
		}
		if len(got) != n {
			t.Errorf("cut at %d: read %d records, want %d", cut, len(got), n)
			continue
		}
		for i := range n {
			if got[i].damaged || got[i].data != recs[i] {
				t.Errorf("cut at %d: record %d = %+v, want %q", cut, i, got[i], recs[i])
			}
		}
		if int64(cut) == offs[n] {
			if err != nil {
				t.Errorf("cut at record boundary %d: Err() = %v, want nil", cut, err)
			}
			continue
		}
		e, ok := AsError(err)
		if !ok || e.Problem != Truncated || e.Offset != offs[n] {
			t.Errorf("cut at %d: Err() = %v, want Truncated at offset %d", cut, err, offs[n])
		}
	}
}

func TestAbsurdLengthIsTruncationNotAllocation(t *testing.T) {
	good, _ := frame("ok")
	tests := []struct {
		name   string
		length uint64
	}{
		{"length 1<<62", 1 << 62},
		{"length 1<<40", 1 << 40},
		{"length MaxInt64", math.MaxInt64},
		{"length MaxUint64", math.MaxUint64},
		{"length that overflows with the footer", math.MaxUint64 - 3},
		{"length just below overflow", math.MaxUint64 - 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := append(bytes.Clone(good), header(tc.length)...)
			b = append(b, "some bytes that do not make up the record"...)
			got, err := readAll(t, b)
			if len(got) != 1 || got[0].data != "ok" {
				t.Errorf("records = %+v, want the one before", got)
			}
			wantProblem(t, err, Truncated, int64(len(good)))

			const limit = 4 << 20
			if n := allocatedBytes(func() { readAll(t, b) }); n > limit {
				t.Errorf("reading allocated %d bytes, want at most %d", n, limit)
			}
		})
	}
}

// allocatedBytes returns the bytes f allocates on the heap.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestLFSPointer(t *testing.T) {
	stub := "version https://git-lfs.github.com/spec/v1\n" +
		"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n" +
		"size 123\n"
	tests := []struct {
		name    string
		in      string
		problem Problem
	}{
		{"LFS pointer stub", stub, LFSPointer},
		{"LFS pointer stub without trailing newline", strings.TrimSuffix(stub, "\n"), LFSPointer},
		{"prefix alone is still a stub", "version https://git-lfs.github.com/spec/", LFSPointer},
		{"text shorter than a header is truncation", "version", Truncated},
		{"other text is a bad length checksum", "hello, this is not an event file at all\n", BadLengthCRC},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, []byte(tc.in))
			if len(got) != 0 {
				t.Errorf("records = %+v, want none", got)
			}
			wantProblem(t, err, tc.problem, 0)
		})
	}
}

func TestIOErrorIsReturned(t *testing.T) {
	b, _ := frame("one", "two")
	boom := errors.New("disk on fire")
	tests := []struct {
		name string
		r    io.Reader
		recs int
	}{
		{"error at start", iotest.ErrReader(boom), 0},
		{"error after the first record", io.MultiReader(bytes.NewReader(b[:len(b)/2+3]), iotest.ErrReader(boom)), 1},
		{"error in the middle of a header", io.MultiReader(bytes.NewReader(b[:5]), iotest.ErrReader(boom)), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(tc.r, "f")
			n := 0
			for r.Next() {
				n++
			}
			if n != tc.recs {
				t.Errorf("read %d records, want %d", n, tc.recs)
			}
			if !errors.Is(r.Err(), boom) {
				t.Errorf("Err() = %v, want it to wrap %v", r.Err(), boom)
			}
		})
	}
}

func TestOneByteReads(t *testing.T) {
	recs := []string{"a", "bb", strings.Repeat("c", 100)}
	b, _ := frame(recs...)
	r := NewReader(iotest.OneByteReader(bytes.NewReader(b)), "f")
	var got []string
	for r.Next() {
		got = append(got, string(r.Record()))
	}
	if r.Err() != nil || strings.Join(got, "|") != strings.Join(recs, "|") {
		t.Errorf("got %q, Err() = %v; want %q, nil", got, r.Err(), recs)
	}
}

func TestProblemString(t *testing.T) {
	for p, want := range map[Problem]string{
		Truncated: "truncated record", BadLengthCRC: "length checksum mismatch",
		BadDataCRC: "data checksum mismatch", LFSPointer: "Git LFS pointer", TooLarge: "record too large", 0: "Problem(0)",
	} {
		if got := p.String(); got != want {
			t.Errorf("Problem(%d).String() = %q, want %q", int(p), got, want)
		}
	}
}

// sparseFile writes a file holding the record "before", a header
// announcing length data bytes over a hole (the file is sparse: the test
// costs no disk), and the record "after" past the hole's end; it returns
// the file and the offsets of the three records.
func sparseFile(t *testing.T, length uint64) (string, [3]int64) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "events.out.tfevents.1.host")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := AppendRecord(nil, []byte("before"))
	offs := [3]int64{0, int64(len(b))}
	b = append(b, header(length)...)
	offs[2] = int64(len(b)) + int64(length) + footerLen
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(AppendRecord(nil, []byte("after")), offs[2]); err != nil {
		t.Fatal(err)
	}
	return p, offs
}

// onlyReader hides every method of a reader but Read (no Seek).
type onlyReader struct{ io.Reader }

// A record whose valid header announces more than MaxRecord bytes is
// skipped without being read into memory, by seeking past it (or reading
// it through when the source cannot seek), and reading goes on at the next
// record. It used to be read whole: 256 MiB cost 1.3 GB and 22 s, 512 MiB
// never finished.
func TestHugeRecordIsSkippedUnread(t *testing.T) {
	for _, tc := range []struct {
		name   string
		length uint64
		seek   bool
	}{
		{"256 MiB, seeking", 256 << 20, true},
		{"512 MiB, seeking", 512 << 20, true},
		{"just over the limit, reading through", MaxRecord + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, offs := sparseFile(t, tc.length)
			var got []record
			var err error
			alloc := allocatedBytes(func() {
				f, ferr := os.Open(p)
				if ferr != nil {
					t.Fatal(ferr)
				}
				defer f.Close()
				var src io.Reader = f
				if !tc.seek {
					src = onlyReader{f}
				}
				r := NewReader(src, "f")
				for r.Next() {
					if d := r.Damage(); d != nil {
						if d.Problem != TooLarge || !strings.Contains(d.Detail, "skipped") {
							t.Errorf("damage %v (%v), want TooLarge", d.Problem, d)
						}
						got = append(got, record{damaged: true, offset: d.Offset})
						continue
					}
					got = append(got, record{data: string(r.Record()), offset: r.Offset()})
				}
				err = r.Err()
			})
			want := []record{{data: "before"}, {damaged: true, offset: offs[1]}, {data: "after", offset: offs[2]}}
			if err != nil || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
				t.Errorf("records %+v, Err() = %v; want %+v, nil", got, err, want)
			}
			if limit := uint64(64 << 20); alloc > limit {
				t.Errorf("reading allocated %d bytes, want at most %d", alloc, limit)
			}
		})
	}
}

// A file that ends inside a record too large to read is truncated there,
// as for any record.
func TestHugeRecordCutShortIsTruncation(t *testing.T) {
	for _, seek := range []bool{true, false} {
		b := append(AppendRecord(nil, []byte("ok")), header(MaxRecord+1)...)
		b = append(b, "a few bytes of the record"...)
		var src io.Reader = bytes.NewReader(b)
		if !seek {
			src = onlyReader{src}
		}
		r := NewReader(src, "f")
		n := 0
		for r.Next() {
			n++
		}
		if n != 1 {
			t.Errorf("seek %v: %d records, want the one before", seek, n)
		}
		wantProblem(t, r.Err(), Truncated, int64(len(AppendRecord(nil, []byte("ok")))))
	}
}

// A big record within MaxRecord is read with geometric growth of the
// window: in all about twice its size is allocated. Growing by 1 MiB at a
// time allocated the sum of every size on the way (136 MiB for this
// 16 MiB record) and copied as much.
func TestBigRecordGrowsWindowGeometrically(t *testing.T) {
	const size = 16 << 20
	b := AppendRecord(AppendRecord(nil, make([]byte, size)), []byte("next"))
	var got []int
	alloc := allocatedBytes(func() {
		r := NewReader(bytes.NewReader(b), "f")
		for r.Next() {
			got = append(got, len(r.Record()))
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	})
	if len(got) != 2 || got[0] != size || got[1] != 4 {
		t.Fatalf("record lengths %v", got)
	}
	if limit := uint64(4 * size); alloc > limit {
		t.Errorf("reading a %d-byte record allocated %d bytes, want at most %d", size, alloc, limit)
	}
}

// FuzzReader checks that no input makes the reader panic, loop, or allocate
// far beyond what the input backs, and that a clean read re-frames to the
// input byte for byte.
func FuzzReader(f *testing.F) {
	b, offs := frame("alpha", "", "a longer third record")
	f.Add([]byte{})
	f.Add(b)
	f.Add(b[:offs[1]+5])
	f.Add(b[:offs[2]+3])
	bad := bytes.Clone(b)
	bad[offs[1]+12] ^= 1 // data CRC
	f.Add(bad)
	bad = bytes.Clone(b)
	bad[offs[1]+9] ^= 1 // length CRC
	f.Add(bad)
	f.Add(append(header(1<<62), "xyz"...))
	f.Add(append(header(math.MaxUint64), "xyz"...))
	f.Add([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 123\n"))

	f.Fuzz(func(t *testing.T, in []byte) {
		var recs []record
		var err error
		alloc := allocatedBytes(func() { recs, err = readAll(t, in) })
		// A record takes at least 16 bytes: the reader cannot yield more.
		if len(recs) > len(in)/16 {
			t.Fatalf("%d records from %d bytes", len(recs), len(in))
		}
		// Buffered reading (64 KiB), one read chunk (1 MiB) ahead of the
		// data, and doubling growth of what the input backs.
		if limit := uint64(4<<20 + 4*len(in)); alloc > limit {
			t.Fatalf("allocated %d bytes for %d input bytes", alloc, len(in))
		}
		var reframed []byte
		prev := int64(-1)
		for _, r := range recs {
			if r.offset <= prev {
				t.Fatalf("offsets not increasing: %d after %d", r.offset, prev)
			}
			prev = r.offset
			if !r.damaged {
				reframed = AppendRecord(reframed, []byte(r.data))
			}
		}
		if err != nil {
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("Err() = %v, want an *Error", err)
			}
			if e.Offset <= prev || e.Offset > int64(len(in)) {
				t.Fatalf("error offset %d, last record at %d, input %d bytes", e.Offset, prev, len(in))
			}
			return
		}
		damaged := false
		for _, r := range recs {
			damaged = damaged || r.damaged
		}
		if !damaged && !bytes.Equal(reframed, in) {
			t.Fatalf("clean read of %d bytes re-frames to %d different bytes", len(in), len(reframed))
		}
	})
}

// BenchmarkReader frames 64 MiB of 100-byte records and checks both CRCs.
func BenchmarkReader(b *testing.B) {
	var file []byte
	rec := bytes.Repeat([]byte{7}, 100)
	for len(file) < 64<<20 {
		file = AppendRecord(file, rec)
	}
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(file), "bench")
		for r.Next() {
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
}

// A truncated record's error says in which part of the record the file
// ends (length header, data, checksum) and how much of it is there, at the
// offset where the record starts, whether the record is read or, too
// large to read, skipped.
func TestTruncationSaysWhatIsMissing(t *testing.T) {
	good := AppendRecord(nil, []byte("ok"))
	rec := AppendRecord(nil, []byte("0123456789")) // 12 + 10 + 4 bytes
	huge := header(MaxRecord + 1)
	tests := []struct {
		name string
		tail []byte
		want string
	}{
		{"in the length header", rec[:5], "truncated record: the file ends in the record's length header (5 of 12 bytes)"},
		{"in the data", rec[:12+7], "truncated record: the file ends in the record's data (7 of 10 bytes)"},
		{"before the checksum", rec[:12+10], "truncated record: the file ends in the record's checksum (0 of 4 bytes; its 10 data bytes are whole)"},
		{"in the checksum", rec[:12+10+3], "truncated record: the file ends in the record's checksum (3 of 4 bytes; its 10 data bytes are whole)"},
		{"in the data of a record too large to read", append(bytes.Clone(huge), "abc"...),
			fmt.Sprintf("truncated record: the file ends in the record's data (3 of %d bytes)", MaxRecord+1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, seek := range []bool{true, false} {
				var src io.Reader = bytes.NewReader(append(bytes.Clone(good), tc.tail...))
				if !seek {
					src = onlyReader{src}
				}
				r := NewReader(src, "f")
				for r.Next() {
				}
				wantProblem(t, r.Err(), Truncated, int64(len(good)))
				if e, ok := AsError(r.Err()); ok && e.Detail != tc.want {
					t.Errorf("seek %v: Detail = %q, want %q", seek, e.Detail, tc.want)
				}
				if e, ok := AsError(r.Err()); ok && e.Error() != fmt.Sprintf("f: offset %d: %s", len(good), tc.want) {
					t.Errorf("seek %v: Error() = %q", seek, e.Error())
				}
			}
		})
	}
}
