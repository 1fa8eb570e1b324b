package projector

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// FuzzProjectorConfig feeds arbitrary text to the config reader, in a log
// directory with a few files to name. It must never panic, never name a
// file outside the log directory, and never keep more than the limits.
func FuzzProjectorConfig(f *testing.F) {
	for _, s := range []string{
		`embeddings { tensor_name: "a" tensor_path: "t.tsv" metadata_path: "m.tsv" sprite { image_path: "s.png" single_image_dim: [1, 1] } }`,
		`embeddings { tensor_name: "b" tensor_path: "t.bin" tensor_shape: [2, 2] }`,
		`embeddings { tensor_path: "../outside.tsv" metadata_path: "/etc/passwd" }`,
		`model_checkpoint_dir: ".." embeddings { tensor_name: "c" }`,
		`embeddings { tensor_name: "d" tensor_path: "t.bin" tensor_shape: [4294967295, 4294967295] }`,
		"embeddings {\n",
		`embeddings { tensor_name: "e" tensor_path: "t.tsv" sprite { image_path: "huge.png" single_image_dim: [1, 1] } }`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	logs := filepath.Join(dir, "logs")
	files := map[string][]byte{
		"t.tsv": []byte("1\t2\n3\t4\n"),
		"t.bin": float32LE(1, 2, 3, 4),
		"m.tsv": []byte("a\tb\nx\ty\nz\tw\n"),
		"s.png": {0x89, 'P', 'N', 'G'},
		// A header claiming 30000x30000 pixels: never kept.
		"huge.png": pngHeader(30000, 30000),
	}
	for name, b := range files {
		p := filepath.Join(logs, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "outside.tsv"), []byte("1\t2\n"), 0o644)
	root := NewRoot(testsupport.OpenDir(f, logs), "logs")
	f.Fuzz(func(t *testing.T, b []byte) {
		res := readConfig(root, ConfigName, b)
		for _, e := range res.Embeddings {
			if e.Points != nil {
				if e.Points.Logdir != root.logdir || !fs.ValidPath(e.Points.Path) {
					t.Fatalf("points from %s, outside the log directory", e.Points.Path)
				}
				if e.NumPoints() > MaxPoints || e.Dims() > MaxDims {
					t.Fatalf("shape %v kept", e.Shape)
				}
				if _, err := e.Load(Decoders()); err != nil {
					t.Fatalf("Load: %v", err)
				}
			}
			if e.Metadata != nil && e.Metadata.File != "m.tsv" && e.Metadata.File != "t.tsv" {
				t.Fatalf("metadata from %s", e.Metadata.File)
			}
			if s := e.Sprite; s != nil && (s.Width > maxSpriteSide || s.Height > maxSpriteSide || s.Width <= 0 || s.Height <= 0) {
				t.Fatalf("a sprite of %dx%d kept", s.Width, s.Height)
			}
		}
	})
}

// FuzzOneFlowProjector feeds arbitrary bytes to the OneFlow and TS-VIS
// projector readers. They must never panic, and every span they keep must
// lie inside the input.
func FuzzOneFlowProjector(f *testing.F) {
	good := func(sp *eventpb.OneFlowSummaryProjector) []byte {
		b, err := proto.Marshal(sp)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	f.Add(good(&eventpb.OneFlowSummaryProjector{Projector: []*eventpb.OneFlowProjector{{
		Tag: "x", Step: 1, Value: numpy("float32", []int64{2, 2}, float32LE(1, 2, 3, 4)),
		Label: numpy("<U1", []int64{2}, utf32(1, "a", "b"))}}}), false)
	f.Add(good(&eventpb.OneFlowSummaryProjector{Metadata: &eventpb.OneFlowMetaData{Type: eventpb.OneFlowMetaData_EXCEPTION},
		Projector: []*eventpb.OneFlowProjector{{Tag: "g", Value: numpy("float64", []int64{1}, float64LE(1))}}}), true)
	f.Add([]byte{0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, false)
	f.Fuzz(func(t *testing.T, b []byte, exceptions bool) {
		var res Result
		readOneFlow(&res, bytes.NewReader(b), int64(len(b)), location{path: "projector.1.log"}, "projector.1.log", exceptions)
		check := func(r TensorRef) {
			if r.Offset < 0 || r.Length < 0 || r.Offset+r.Length > int64(len(b)) {
				t.Fatalf("span %d+%d outside %d bytes", r.Offset, r.Length, len(b))
			}
		}
		for _, e := range res.Embeddings {
			if e.Points != nil {
				check(*e.Points)
			}
			if e.Sample != nil {
				check(e.Sample.Tensor)
			}
			if e.Metadata != nil && len(e.Metadata.Rows) > MaxPoints {
				t.Fatalf("%d labels kept", len(e.Metadata.Rows))
			}
		}
		for _, ex := range res.Exceptions {
			for _, en := range ex.Entries {
				check(en.Tensor)
			}
		}
		// The same bytes as the projector value of a TS-VIS record.
		var ts Result
		w := &wire{r: bytes.NewReader(b), end: int64(len(b))}
		tsvisValue(&ts, bytes.NewReader(b), w, 1, 0, location{path: "x"}, "x", map[string]*Sample{})
	})
}

// resultBytes is what a Result holds in strings and numbers, as a report
// would write it: each embedding's names, shape and references, each
// metadata table once (embeddings share a table read from one file), and
// every problem.
func resultBytes(res Result) int {
	n := 0
	tables := map[*Metadata]bool{}
	for _, e := range res.Embeddings {
		n += len(e.Name) + len(e.Source) + len(e.File) + len(e.Checkpoint) + 8*len(e.Shape) + 16
		if p := e.Points; p != nil {
			n += len(p.Path) + len(p.DType) + 8*len(p.Shape) + 16
		}
		if s := e.Sprite; s != nil {
			n += len(s.File) + len(s.Format) + 16
		}
		if md := e.Metadata; md != nil && !tables[md] {
			tables[md] = true
			n += len(md.File)
			for _, c := range md.Columns {
				n += len(c)
			}
			for _, row := range md.Rows {
				for _, v := range row {
					n += len(v) + 1
				}
			}
		}
	}
	for _, p := range res.Problems {
		n += len(p.File) + len(p.Msg) + 8
	}
	return n
}

// FuzzProjectorConfigOutput feeds arbitrary configs to the config reader,
// in a log directory with a few small files to name, and checks the
// amplification property: what a config yields stays within a bound
// proportional to its size (plus the files it can name, each counted
// once): naming the same files again and again, long names, shapes and
// paths repeated in problems cost in proportion to the bytes that say so.
// Found inputs are kept under testdata/fuzz/FuzzProjectorConfigOutput.
func FuzzProjectorConfigOutput(f *testing.F) {
	for _, s := range []string{
		`embeddings { tensor_name: "a" tensor_path: "t.tsv" metadata_path: "m.tsv" sprite { image_path: "s.png" single_image_dim: [1, 1] } }`,
		`embeddings { tensor_name: "b" tensor_path: "t.bin" tensor_shape: [2, 2] metadata_path: "m.tsv" }`,
		strings.Repeat(`embeddings { tensor_path: "t.tsv" metadata_path: "m.tsv" tensor_shape: [9, 9, 9] }`, 50),
		strings.Repeat(`embeddings { tensor_name: "c" }`, 100),
		`model_checkpoint_dir: "ckpt" embeddings { tensor_name: "` + strings.Repeat("n", 500) + `" }`,
		`embeddings { tensor_path: "missing/` + strings.Repeat("../", 100) + `x" sprite { image_path: "t.tsv" } }`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	logs := filepath.Join(dir, "logs")
	files := map[string][]byte{
		"t.tsv":           []byte("1\t2\n3\t4\n"),
		"t.bin":           float32LE(1, 2, 3, 4),
		"m.tsv":           []byte("a\tb\nx\ty\nz\tw\n"),
		"s.png":           {0x89, 'P', 'N', 'G'},
		"ckpt/checkpoint": []byte(`model_checkpoint_path: "model.ckpt-1"`),
	}
	fixture := 0
	for name, b := range files {
		p := filepath.Join(logs, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			f.Fatal(err)
		}
		fixture += len(b)
	}
	root := NewRoot(testsupport.OpenDir(f, logs), "logs")
	// A mention of a file in the config (some 25 bytes at least, as
	// `embeddings{tensor_path:"t.tsv"}`) yields its path, and the seeds
	// yield some 3 bytes per byte of config: allow 8 per byte and a share
	// of the log directory's path, which an absolute name may repeat.
	perByte := 8 + len(logs)/4
	f.Fuzz(func(t *testing.T, b []byte) {
		res := readConfig(root, ConfigName, b)
		if n, limit := resultBytes(res), 4*fixture+1024+perByte*len(b); n > limit {
			t.Fatalf("%d bytes of config yield %d bytes (limit %d): %d embeddings, %d problems",
				len(b), n, limit, len(res.Embeddings), len(res.Problems))
		}
	})
}
