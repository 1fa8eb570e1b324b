package model

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The on-disk form of a model: a header line naming the format, its
// version and the schema of the types it was written with, then the
// report in a binary encoding of our own: its runs first, one at a time,
// each behind a 1 byte, a 0 byte after the last, then the report's other
// fields (log directories, warnings, restart rule).
//
//	trainreport-model 7 <schema>\n(1 <run>)* 0 <report without its runs>
//
// The runs come first and one at a time so that a model can be written
// as it is collected (Writer), each run written and dropped before the
// next: `collect --shard` holds no more than the runs being read. The
// runs are in the model's order (CompareRunNames), which Read requires:
// one model has one encoding.
//
// The encoding walks the model's types by reflection and writes every
// exported field in declaration order: bools as a byte, integers as
// (zigzag) varints, floats as their IEEE 754 bits (8 bytes, little
// endian, so NaN payloads, ±Inf and -0 come back bit for bit), strings as
// a length and their bytes, slices and maps as 0 for nil or 1 + their
// length and their elements (map entries sorted by key, so the bytes are
// deterministic), pointers as 0 for nil or 1 and what they point to.
// Unexported fields (a BlobRef's source, a report's open log directories)
// are not written: Read attaches sources anew.
//
// Not encoding/gob: measured, gob does not send a struct field that holds
// -0 (it tests floats against 0) nor an empty slice, which decode as +0
// and nil, and pages tell those apart (a "-0" in a data file, [] against
// null in JSON). Gob's self-description would buy tolerance of added
// fields, which the schema in the header replaces with a clear refusal.
const (
	formatName = "trainreport-model"
	// formatVersion is the version of the encoding and of the model's
	// types; bump it with any change to either (TestSchemaPinned fails
	// until it is).
	formatVersion = 8
	// maxHeader bounds the header line.
	maxHeader = 256
	// maxDepth bounds the nesting of values read (lists of lists of
	// hyperparameter values are the only unbounded nesting of the types).
	maxDepth = 1000
	// maxErrorPath bounds the depth of the fields an error names, so that
	// the message of a deeply nested damage stays short.
	maxErrorPath = 64
)

var (
	reportType  = reflect.TypeFor[Report]()
	blobRefType = reflect.TypeFor[BlobRef]()
	pointsType  = reflect.TypeFor[[]Point]()
	floatsType  = reflect.TypeFor[[]float64]()
)

// schema returns a fingerprint of the encoded types: their names, fields
// and kinds, so that a file written with other types is refused rather
// than misread.
var schema = sync.OnceValue(func() string {
	var b strings.Builder
	describe(&b, reportType, map[reflect.Type]bool{})
	h := fnv.New64a()
	h.Write([]byte(b.String()))
	return fmt.Sprintf("%016x", h.Sum64())
})

// describe writes the encoded shape of t, and panics on a type the
// encoding does not handle: a mistake in the model's types, found by the
// first test that writes a model.
func describe(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	if t.Name() != "" && t.Kind() == reflect.Struct {
		b.WriteString(t.Name())
		if seen[t] {
			return
		}
		seen[t] = true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float64, reflect.String:
		b.WriteString(t.Kind().String())
	case reflect.Slice:
		b.WriteString("[]")
		describe(b, t.Elem(), seen)
	case reflect.Array:
		b.WriteString("[" + strconv.Itoa(t.Len()) + "]")
		describe(b, t.Elem(), seen)
	case reflect.Pointer:
		b.WriteString("*")
		describe(b, t.Elem(), seen)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			panic("model: map key of " + t.String() + " is not a string")
		}
		if holdsBlobRef(t.Elem()) {
			panic("model: map value " + t.Elem().String() + " holds a BlobRef, which Read could not attach")
		}
		b.WriteString("map[string]")
		describe(b, t.Elem(), seen)
	case reflect.Struct:
		b.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			b.WriteString(f.Name + " ")
			describe(b, f.Type, seen)
			b.WriteString(";")
		}
		b.WriteString("}")
	default:
		// float32 among them: reflect hands it over as a float64, and
		// the conversion back quiets a signalling NaN.
		panic("model: cannot encode " + t.String())
	}
}

// holdsBlobRef reports whether a value of type t may hold a BlobRef.
func holdsBlobRef(t reflect.Type) bool {
	return holds(t, map[reflect.Type]bool{})
}

func holds(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == blobRefType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Pointer, reflect.Map:
		return holds(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if holds(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// Write writes the report in the on-disk form Read reads.
func Write(w io.Writer, r *Report) error {
	mw := NewWriter(w)
	for _, run := range r.Runs {
		if err := mw.WriteRun(run); err != nil {
			return err
		}
	}
	return mw.Close(r)
}

// Writer writes a model in the on-disk form Read reads, a run at a time:
// a caller that writes each run as soon as it is complete and then drops
// it holds one run, not the model. The runs must come in the model's
// order (CompareRunNames), as Report.Runs holds them.
type Writer struct {
	bw      *bufio.Writer
	e       encoder
	last    string // the name of the last run written
	started bool   // a run was written
	err     error  // the first error, which every later call returns
}

// NewWriter starts a model on w: it writes the header line.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%s %d %s\n", formatName, formatVersion, schema())
	return &Writer{bw: bw, e: encoder{w: bw}}
}

// WriteRun writes the next run of the model. The bytes may stay in the
// Writer's buffer (64 KiB) until a later call: the run itself is not
// kept, and may be dropped or changed once WriteRun returns.
func (mw *Writer) WriteRun(run *Run) error {
	if mw.err != nil {
		return mw.err
	}
	if run == nil {
		mw.err = errors.New("model writer: a nil run")
		return mw.err
	}
	if mw.started && CompareRunNames(mw.last, run.Name) >= 0 {
		mw.err = fmt.Errorf("model writer: run %q after %q: out of order or repeated", run.Name, mw.last)
		return mw.err
	}
	mw.last, mw.started = run.Name, true
	mw.bw.WriteByte(1)
	mw.e.value(reflect.ValueOf(run).Elem())
	// A write error of the underlying writer stays in the bufio.Writer:
	// seen here at the latest by the next run's flush.
	if _, err := mw.bw.Write(nil); err != nil {
		mw.err = err
	}
	return mw.err
}

// Close ends the model with the fields of r other than its runs (its log
// directories, warnings, restart rule), which a collection knows once its
// runs are read, and flushes it. r.Runs must be nil or the runs already
// written (Write passes the report whole); they are not written again.
func (mw *Writer) Close(r *Report) error {
	if mw.err != nil {
		return mw.err
	}
	mw.bw.WriteByte(0)
	mw.head(reflect.ValueOf(r).Elem())
	mw.err = mw.bw.Flush()
	if mw.err == nil {
		mw.err = errors.New("model writer: closed")
		return nil
	}
	return mw.err
}

// head encodes the exported fields of a Report but its runs.
func (mw *Writer) head(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && f.Name != "Runs" {
			mw.e.value(v.Field(i))
		}
	}
}

type encoder struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
}

func (e *encoder) uvarint(x uint64) { e.w.Write(binary.AppendUvarint(e.buf[:0], x)) }
func (e *encoder) varint(x int64)   { e.w.Write(binary.AppendVarint(e.buf[:0], x)) }
func (e *encoder) u64(x uint64)     { e.w.Write(binary.LittleEndian.AppendUint64(e.buf[:0], x)) }

// count writes the length of a slice or map, 0 standing for nil.
func (e *encoder) count(v reflect.Value) bool {
	if v.IsNil() {
		e.uvarint(0)
		return false
	}
	e.uvarint(uint64(v.Len()) + 1)
	return true
}

func (e *encoder) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.w.WriteByte(1)
		} else {
			e.w.WriteByte(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.varint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.uvarint(v.Uint())
	case reflect.Float64:
		e.u64(math.Float64bits(v.Float()))
	case reflect.String:
		e.uvarint(uint64(v.Len()))
		e.w.WriteString(v.String())
	case reflect.Slice:
		if !e.count(v) {
			return
		}
		switch v.Type() { // the bulk of a model, written without reflection
		case pointsType:
			for _, p := range v.Interface().([]Point) {
				e.u64(math.Float64bits(p.WallTime))
				e.varint(p.Step)
				e.u64(math.Float64bits(p.Value))
			}
			return
		case floatsType:
			for _, f := range v.Interface().([]float64) {
				e.u64(math.Float64bits(f))
			}
			return
		}
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.w.WriteByte(0)
			return
		}
		e.w.WriteByte(1)
		e.value(v.Elem())
	case reflect.Map:
		if !e.count(v) {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			e.value(k)
			e.value(v.MapIndex(k))
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				e.value(v.Field(i))
			}
		}
	default:
		panic("model: cannot encode " + v.Type().String()) // describe refused it first
	}
}

// Read reads a report written by Write. For each of its log directories
// it calls open with the directory's name (Logdir.Name) and attaches the
// Source it returns to every payload reference of that directory, and to
// the report, whose Close releases it; open may return a nil Source to
// leave a directory's payloads unread (their Read and Check then say so),
// and may itself be nil. A file of another format, version or schema is
// refused, as is a model that fails CheckValid.
func Read(r io.Reader, open func(logdir string) (Source, error)) (*Report, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if err := readHeader(br); err != nil {
		return nil, err
	}
	rep := &Report{}
	d := decoder{r: br}
	if err := d.report(rep); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("model file: bytes after the report")
	}
	if err := rep.CheckValid(); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	srcs := map[string]Source{}
	for _, ld := range rep.Logdirs {
		if _, ok := srcs[ld.Name]; ok || open == nil {
			continue
		}
		src, err := open(ld.Name)
		if err != nil {
			rep.Close()
			return nil, fmt.Errorf("log directory %s: %w", ld.Name, err)
		}
		srcs[ld.Name] = src
		if src != nil {
			rep.Attach(src)
		}
	}
	attach(reflect.ValueOf(rep).Elem(), srcs)
	return rep, nil
}

// readHeader reads and checks the header line.
func readHeader(br *bufio.Reader) error {
	line, err := br.ReadSlice('\n')
	if err != nil || len(line) > maxHeader {
		return fmt.Errorf("not a %s file: no header line", formatName)
	}
	// Split at single spaces, as Write writes them: one model has one
	// encoding, its header included (strings.Fields took a tab or a
	// vertical tab for a space, found by FuzzRead).
	fields := strings.Split(strings.TrimSuffix(string(line), "\n"), " ")
	if len(fields) != 3 || fields[0] != formatName {
		return fmt.Errorf("not a %s file: header %q", formatName, clip(string(line), 40))
	}
	if fields[1] != strconv.Itoa(formatVersion) {
		return fmt.Errorf("%s file of version %s; this trainreport reads version %d", formatName, fields[1], formatVersion)
	}
	if fields[2] != schema() {
		return fmt.Errorf("%s file of schema %s; this trainreport reads schema %s of version %d (written by another build of the same version?)",
			formatName, fields[2], schema(), formatVersion)
	}
	return nil
}

type decoder struct {
	r   *bufio.Reader
	buf [8]byte
}

// report reads the runs, each behind a 1 byte until a 0 byte, then the
// other fields of the report. The runs are not counted ahead: each is
// appended as its bytes arrive, so a forged file costs memory in
// proportion to its bytes, as a length claim does.
func (d *decoder) report(rep *Report) error {
	for i := 0; ; i++ {
		run, done, err := d.run(i)
		if err != nil {
			return err
		}
		if done {
			break
		}
		rep.Runs = append(rep.Runs, run)
	}
	return d.rest(rep)
}

// run reads the run numbered i (for messages), or the 0 byte after the
// last run (done).
func (d *decoder) run(i int) (run *Run, done bool, err error) {
	b, err := d.fixed(1)
	if err != nil {
		return nil, false, fmt.Errorf("run %d: %w", i, err)
	}
	if b[0] == 0 {
		return nil, true, nil
	}
	if b[0] != 1 {
		return nil, false, fmt.Errorf("run %d: mark %d", i, b[0])
	}
	run = &Run{}
	if err := d.value(reflect.ValueOf(run).Elem(), 1); err != nil {
		return nil, false, fmt.Errorf("run %d: %w", i, err)
	}
	return run, false, nil
}

// rest reads the fields of the report other than its runs, which follow
// them.
func (d *decoder) rest(rep *Report) error {
	v := reflect.ValueOf(rep).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "Runs" {
			continue
		}
		if err := d.value(v.Field(i), 1); err != nil {
			return fmt.Errorf("Report.%s: %w", f.Name, err)
		}
	}
	return nil
}

var errDepth = errors.New("values nested too deeply")

// uvarint reads a varint as binary.PutUvarint writes it, refusing the
// longer forms of a value (which binary.ReadUvarint takes): one model has
// one encoding.
func (d *decoder) uvarint() (uint64, error) {
	var x uint64
	for i, shift := 0, uint(0); i < binary.MaxVarintLen64; i, shift = i+1, shift+7 {
		b, err := d.r.ReadByte()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if b < 0x80 {
			if i > 0 && b == 0 || i == binary.MaxVarintLen64-1 && b > 1 {
				return 0, errors.New("varint not in its shortest form, or too long")
			}
			return x | uint64(b)<<shift, nil
		}
		x |= uint64(b&0x7f) << shift
	}
	return 0, errors.New("varint too long")
}

func (d *decoder) varint() (int64, error) {
	ux, err := d.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x, err
}

func (d *decoder) fixed(n int) ([]byte, error) {
	// From the buffer when it holds them: a point is three reads, and
	// io.ReadFull's calls were most of a merge's decoding.
	if b, err := d.r.Peek(n); err == nil {
		copy(d.buf[:n], b)
		d.r.Discard(n)
		return d.buf[:n], nil
	}
	if _, err := io.ReadFull(d.r, d.buf[:n]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return d.buf[:n], nil
}

func (d *decoder) u64() (uint64, error) {
	b, err := d.fixed(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// count reads the length of a slice or map: -1 for nil.
func (d *decoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("length %d", n-1)
	}
	return int(n) - 1, nil
}

// A length read from a damaged or forged file may claim far more than the
// file holds, so the decoder allocates ahead of the bytes that fill a
// value only within a budget, and grows the value as its bytes arrive.
// Leaves (strings, points, floats) hold no other value, so one at a time
// is being filled: they get chunk bytes ahead. Slices and maps of other
// values may nest (a list of hyperparameter values is a value), up to
// maxDepth of them being filled at once: each gets ahead bytes, so that a
// file of nested claims costs memory in proportion to its own bytes, not
// to depth x chunk (measured before: 5.7 KB of nested list claims made
// Read allocate 2.1 GB).
const (
	chunk = 1 << 16
	ahead = 1 << 10
)

// prealloc returns the capacity to give a slice or map of n elements of
// size bytes each (key and value for a map), ahead of its bytes: within
// ahead bytes, and at least one element.
func prealloc(n int, size uintptr) int {
	if size == 0 {
		return n
	}
	return min(n, max(1, ahead/int(size)))
}

func (d *decoder) str() (string, error) {
	n, err := d.uvarint()
	if err != nil {
		return "", err
	}
	var b []byte
	for n > 0 {
		k := min(n, chunk)
		b = slices.Grow(b, int(k))
		m, err := io.ReadFull(d.r, b[len(b):len(b)+int(k)])
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		b = b[:len(b)+m]
		n -= k
	}
	return string(b), nil
}

func (d *decoder) value(v reflect.Value, depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	switch v.Kind() {
	case reflect.Bool:
		b, err := d.fixed(1)
		if err != nil {
			return err
		}
		if b[0] > 1 {
			return fmt.Errorf("bool %d", b[0])
		}
		v.SetBool(b[0] == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := d.varint()
		if err != nil {
			return err
		}
		if v.OverflowInt(x) {
			return fmt.Errorf("%d overflows %s", x, v.Type())
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x, err := d.uvarint()
		if err != nil {
			return err
		}
		if v.OverflowUint(x) {
			return fmt.Errorf("%d overflows %s", x, v.Type())
		}
		v.SetUint(x)
	case reflect.Float64:
		x, err := d.u64()
		if err != nil {
			return err
		}
		v.SetFloat(math.Float64frombits(x))
	case reflect.String:
		s, err := d.str()
		if err != nil {
			return err
		}
		v.SetString(s)
	case reflect.Slice:
		n, err := d.count()
		if err != nil || n < 0 {
			return err
		}
		switch v.Type() {
		case pointsType:
			return d.points(v, n)
		case floatsType:
			return d.floats(v, n)
		}
		v.Set(reflect.MakeSlice(v.Type(), 0, prealloc(n, v.Type().Elem().Size())))
		for i := range n {
			if i == v.Cap() {
				v.Grow(min(n-i, i)) // doubles: as much again as was filled
			}
			v.SetLen(i + 1)
			if err := d.value(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			if err := d.value(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Pointer:
		b, err := d.fixed(1)
		if err != nil {
			return err
		}
		switch b[0] {
		case 0:
			v.SetZero()
		case 1:
			p := reflect.New(v.Type().Elem())
			if err := d.value(p.Elem(), depth+1); err != nil {
				return err
			}
			v.Set(p)
		default:
			return fmt.Errorf("pointer mark %d", b[0])
		}
	case reflect.Map:
		n, err := d.count()
		if err != nil || n < 0 {
			return err
		}
		m := reflect.MakeMapWithSize(v.Type(), prealloc(n, v.Type().Key().Size()+v.Type().Elem().Size()))
		last := ""
		for i := range n {
			k := reflect.New(v.Type().Key()).Elem()
			if err := d.value(k, depth+1); err != nil {
				return err
			}
			if i > 0 && k.String() <= last {
				return fmt.Errorf("map keys out of order at %q", clip(k.String(), 40))
			}
			last = k.String()
			e := reflect.New(v.Type().Elem()).Elem()
			if err := d.value(e, depth+1); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			if err := d.value(v.Field(i), depth+1); err != nil {
				if depth >= maxErrorPath {
					return err // the path named so far is enough, and stays short
				}
				return fmt.Errorf("%s.%s: %w", t.Name(), t.Field(i).Name, err)
			}
		}
	default:
		panic("model: cannot decode " + v.Type().String())
	}
	return nil
}

// points reads n points without reflection.
func (d *decoder) points(v reflect.Value, n int) error {
	ps := make([]Point, 0, min(n, chunk/int(pointsType.Elem().Size())))
	for range n {
		// From the buffer when it holds a point's longest form: a read
		// per point rather than per field, which was most of a merge's
		// decoding. Anything else (the end of the file, a varint not in
		// its shortest form) takes the reads below, which name it.
		if b, err := d.r.Peek(maxPointBytes); err == nil {
			if p, k, ok := parsePoint(b); ok {
				d.r.Discard(k)
				ps = append(ps, p)
				continue
			}
		}
		w, err := d.u64()
		if err != nil {
			return err
		}
		s, err := d.varint()
		if err != nil {
			return err
		}
		x, err := d.u64()
		if err != nil {
			return err
		}
		ps = append(ps, Point{WallTime: math.Float64frombits(w), Step: s, Value: math.Float64frombits(x)})
	}
	v.Set(reflect.ValueOf(slices.Clip(ps)))
	return nil
}

// floats reads n float64s without reflection.
// maxPointBytes is the longest encoding of a Point: its wall time, its
// step as a varint, its value.
const maxPointBytes = 8 + binary.MaxVarintLen64 + 8

// parsePoint decodes the point b begins with, as points reads it field by
// field, and its length; false when b holds none that points would take
// (a varint not in its shortest form, or too long).
func parsePoint(b []byte) (Point, int, bool) {
	w := binary.LittleEndian.Uint64(b)
	var ux uint64
	k := 8
	for i, shift := 0, uint(0); ; i, shift = i+1, shift+7 {
		if i == binary.MaxVarintLen64 {
			return Point{}, 0, false
		}
		c := b[k]
		k++
		if c < 0x80 {
			if i > 0 && c == 0 || i == binary.MaxVarintLen64-1 && c > 1 {
				return Point{}, 0, false
			}
			ux |= uint64(c) << shift
			break
		}
		ux |= uint64(c&0x7f) << shift
	}
	step := int64(ux >> 1)
	if ux&1 != 0 {
		step = ^step
	}
	x := binary.LittleEndian.Uint64(b[k:])
	return Point{WallTime: math.Float64frombits(w), Step: step, Value: math.Float64frombits(x)}, k + 8, true
}

func (d *decoder) floats(v reflect.Value, n int) error {
	fs := make([]float64, 0, min(n, chunk/8))
	for range n {
		x, err := d.u64()
		if err != nil {
			return err
		}
		fs = append(fs, math.Float64frombits(x))
	}
	v.Set(reflect.ValueOf(slices.Clip(fs)))
	return nil
}

// attach sets the source of every BlobRef below v (which must be
// addressable) to that of its log directory in srcs, or to none. Maps
// are not walked: describe makes sure none holds a BlobRef.
func attach(v reflect.Value, srcs map[string]Source) {
	refs(v, func(b *BlobRef) { b.src = srcs[b.Logdir] })
}

// blobHolders caches holdsBlobRef by type: attach asks for every value it
// walks.
var blobHolderCache sync.Map // reflect.Type -> bool

func blobHolders(t reflect.Type) bool {
	if h, ok := blobHolderCache.Load(t); ok {
		return h.(bool)
	}
	h := holdsBlobRef(t)
	blobHolderCache.Store(t, h)
	return h
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
