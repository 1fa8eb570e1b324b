package projector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// logdir is a log directory in a temporary directory.
type logdir struct {
	t    *testing.T
	dir  string
	root *Root
}

func newLogdir(t *testing.T) *logdir {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &logdir{t: t, dir: dir, root: NewRoot(testsupport.OpenDir(t, dir), "logs")}
}

func (l *logdir) write(rel string, data []byte) string {
	l.t.Helper()
	p := filepath.Join(l.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		l.t.Fatal(err)
	}
	return rel
}

func (l *logdir) config(rel, text string) Result {
	l.t.Helper()
	return ReadConfig(l.root, l.write(rel, []byte(text)))
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func float32LE(vals ...float32) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func messages(r Result) string {
	var s []string
	for _, p := range r.Problems {
		s = append(s, p.File+": "+p.Msg)
	}
	return strings.Join(s, "\n")
}

func wantProblem(t *testing.T, r Result, substr string) {
	t.Helper()
	if !strings.Contains(messages(r), substr) {
		t.Errorf("no problem mentions %q; problems:\n%s", substr, messages(r))
	}
}

func TestConfigPyTorchLayout(t *testing.T) {
	l := newLogdir(t)
	l.write("00003/my%2Ftag/tensors.tsv", []byte("1.5\t-2\t3\n4\t5e-1\tnan\r\n\n0\t0\t-inf\n"))
	l.write("00003/my%2Ftag/metadata.tsv", []byte("cat\r\n\u00a0\nbird\n\n \n"))
	l.write("00003/my%2Ftag/sprite.png", pngOf(t, 4, 4))
	res := l.config("projector_config.pbtxt", `embeddings {
  tensor_name: "my/tag:00003"
  tensor_path: "00003/my%2Ftag/tensors.tsv"
  metadata_path: "00003/my%2Ftag/metadata.tsv"
  sprite {
    image_path: "00003/my%2Ftag/sprite.png"
    single_image_dim: 2
    single_image_dim: 2
  }
}
`)
	if len(res.Problems) > 0 || res.Damaged {
		t.Fatalf("problems:\n%s", messages(res))
	}
	if len(res.Embeddings) != 1 {
		t.Fatalf("got %d embeddings", len(res.Embeddings))
	}
	e := res.Embeddings[0]
	if e.Name != "my/tag:00003" || e.Step != 3 || e.Source != SourceConfig || e.File != "projector_config.pbtxt" {
		t.Errorf("embedding = %q step %d source %q file %q", e.Name, e.Step, e.Source, e.File)
	}
	if !slices.Equal(e.Shape, []int64{3, 3}) || e.NumPoints() != 3 || e.Dims() != 3 || e.Points.Format != FormatTSV {
		t.Errorf("shape %v, points %+v", e.Shape, e.Points)
	}
	vals, err := e.Load(Decoders())
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{1.5, -2, 3, 4, 0.5, float32(math.NaN()), 0, 0, float32(math.Inf(-1))}
	for i := range want {
		if vals[i] != want[i] && !(math.IsNaN(float64(vals[i])) && math.IsNaN(float64(want[i]))) {
			t.Errorf("value %d = %v, want %v", i, vals[i], want[i])
		}
	}
	md := e.Metadata
	if md == nil || !slices.Equal(md.Columns, []string{"label"}) || len(md.Rows) != 3 || md.Rows[0][0] != "cat" || md.Rows[1][0] != "\u00a0" || md.Rows[2][0] != "bird" ||
		md.File != "00003/my%2Ftag/metadata.tsv" {
		t.Errorf("metadata = %+v", md)
	}
	s := e.Sprite
	if s == nil || s.Format != "png" || s.Width != 4 || s.Height != 4 || s.SingleImageDim != [2]int{2, 2} {
		t.Errorf("sprite = %+v", s)
	}
}

func TestConfigBinaryTensor(t *testing.T) {
	l := newLogdir(t)
	l.write("emb.bin", float32LE(1, 2, 3, 4, 5, 0))
	tests := []struct {
		name, shape string
		problem     string // "" when the points are read
	}{
		{"shaped by tensor_shape", "tensor_shape: 3 tensor_shape: 2", ""},
		{"no tensor_shape", "", "needs a tensor_shape"},
		{"size mismatch", "tensor_shape: 2 tensor_shape: 2", "holds 24 bytes"},
		{"over the point limit", "tensor_shape: 100001 tensor_shape: 2", "over the limit"},
		{"over the dims limit", "tensor_shape: 1 tensor_shape: 1001", "over the limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "e" tensor_path: "emb.bin" `+tc.shape+` }`)
			e := res.Embeddings[0]
			if tc.problem != "" {
				wantProblem(t, res, tc.problem)
				if e.Points != nil {
					t.Errorf("points read despite %q", tc.problem)
				}
				return
			}
			if len(res.Problems) > 0 {
				t.Fatalf("problems:\n%s", messages(res))
			}
			vals, err := e.Load(Decoders())
			if err != nil || !slices.Equal(vals, []float32{1, 2, 3, 4, 5, 0}) || e.Points.Format != FormatRaw {
				t.Errorf("Load = %v, %v", vals, err)
			}
		})
	}
}

func TestConfigMetadataColumns(t *testing.T) {
	l := newLogdir(t)
	l.write("t.tsv", []byte("1\t2\n3\t4\n5\t6\n"))
	l.write("meta.tsv", []byte("word\tcount\nthe\t10\nof\nand\t7\textra\n"))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" metadata_path: "meta.tsv" }`)
	md := res.Embeddings[0].Metadata
	if md == nil {
		t.Fatalf("no metadata:\n%s", messages(res))
	}
	if !slices.Equal(md.Columns, []string{"word", "count"}) {
		t.Errorf("columns = %q", md.Columns)
	}
	want := [][]string{{"the", "10"}, {"of", ""}, {"and", "7"}}
	if !slices.EqualFunc(md.Rows, want, slices.Equal) {
		t.Errorf("rows = %q, want %q", md.Rows, want)
	}
	wantProblem(t, res, "2 rows do not have one value per column")
}

func TestConfigMetadataRowsMismatch(t *testing.T) {
	l := newLogdir(t)
	l.write("t.tsv", []byte("1\t2\n3\t4\n"))
	l.write("m.tsv", []byte("a\nb\nc\n"))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" metadata_path: "m.tsv" }`)
	wantProblem(t, res, "2 points but 3 metadata rows")
}

func TestConfigTensorShapeDisagrees(t *testing.T) {
	l := newLogdir(t)
	l.write("t.tsv", []byte("1\t2\n3\t4\n"))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" tensor_shape: [5, 2] }`)
	wantProblem(t, res, "tensor_shape [5 2], but t.tsv holds [2 2]")
	if !slices.Equal(res.Embeddings[0].Shape, []int64{2, 2}) {
		t.Errorf("shape = %v, want the file's", res.Embeddings[0].Shape)
	}
}

func TestConfigTSVRefused(t *testing.T) {
	wide := strings.Repeat("1\t", MaxDims) + "1\n"
	tests := []struct {
		name, tsv, problem string
	}{
		{"ragged rows", "1\t2\n3\n", "1 values, the first point has 2"},
		{"not a number", "1\tx\n", `"x" is not a number`},
		{"empty value", "1\t\t2\n", `"" is not a number`},
		{"too many dims", wide, "more than 1000 values per point"},
		{"line too long", strings.Repeat("1", MaxTSVLine+1), "longer than"},
		{"too many points", strings.Repeat("1\t2\n", MaxPoints+1), "more than 100000 points"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLogdir(t)
			l.write("t.tsv", []byte(tc.tsv))
			res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" }`)
			wantProblem(t, res, tc.problem)
			if res.Embeddings[0].Points != nil {
				t.Errorf("points kept")
			}
		})
	}
}

func TestConfigPathsStayInside(t *testing.T) {
	l := newLogdir(t)
	outside := filepath.Join(filepath.Dir(l.dir), "secret.tsv")
	if err := os.WriteFile(outside, []byte("1\t2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.write("run/t.tsv", []byte("1\t2\n"))
	inside := filepath.Join(l.dir, "run", "t.tsv")
	if err := os.Symlink(outside, filepath.Join(l.dir, "run", "link.tsv")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(filepath.Dir(l.dir), filepath.Join(l.dir, "run", "up")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		ok         bool
	}{
		{"relative", "t.tsv", true},
		{"dot-dot that stays inside", "../run/t.tsv", true},
		{"absolute inside", inside, true},
		{"backslashes", `..\run\t.tsv`, true},
		{"dot-dot escape", "../../secret.tsv", false},
		{"backslash escape", `..\..\secret.tsv`, false},
		{"absolute outside", outside, false},
		{"absolute system file", "/etc/passwd", false},
		{"symbolic link to outside", "link.tsv", false},
		{"through a directory link", "up/secret.tsv", false},
		{"dot-dot after a link", "up/logs/../secret.tsv", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := l.config("run/projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: '`+strings.ReplaceAll(tc.path, `\`, `\\`)+`' metadata_path: '`+strings.ReplaceAll(tc.path, `\`, `\\`)+`' }`)
			e := res.Embeddings[0]
			if tc.ok {
				if e.Points == nil || e.Metadata == nil || strings.Contains(messages(res), "leaves") {
					t.Errorf("refused:\n%s", messages(res))
				}
				return
			}
			if e.Points != nil || e.Metadata != nil {
				t.Errorf("read a file outside the log directory")
			}
			if strings.Contains(tc.name, "link") && strings.Contains(messages(res), "symbolic link") {
				return // no link is followed, out of the log directory or not
			}
			wantProblem(t, res, "leaves the log directory")
		})
	}
	if _, err := l.root.Resolve("run", "../../secret.tsv"); !errors.Is(err, ErrOutside) {
		t.Errorf("Resolve escape: %v, want ErrOutside", err)
	}
}

func TestConfigMalformed(t *testing.T) {
	for _, text := range []string{
		"embeddings {\n tensor_name: \"a\"\n", // cut short
		"embeddings { tensor_shape: -1 }",
		"embeddings { sprite { single_image_dim: \"x\" } }",
		"\xff\xfe binary",
		"model_checkpoint_path: \"\xff\"",
	} {
		l := newLogdir(t)
		res := l.config("projector_config.pbtxt", text)
		if !res.Damaged || len(res.Embeddings) != 0 {
			t.Errorf("%q: damaged %v, %d embeddings", text, res.Damaged, len(res.Embeddings))
		}
		wantProblem(t, res, "malformed projector config")
	}
	// Unknown fields are discarded, not errors.
	l := newLogdir(t)
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "a" future_field: 3 } other: "x"`)
	if res.Damaged || len(res.Embeddings) != 1 {
		t.Errorf("unknown fields: damaged %v, %d embeddings:\n%s", res.Damaged, len(res.Embeddings), messages(res))
	}
}

func TestConfigCheckpoint(t *testing.T) {
	l := newLogdir(t)
	l.write("checkpoint", []byte("model_checkpoint_path: \"model.ckpt-9\"\nall_model_checkpoint_paths: \"model.ckpt-9\"\nall_model_checkpoint_timestamps: 1.5\n"))
	l.write("words.tsv", []byte("a\nb\n"))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "embed:0" metadata_path: "words.tsv" tensor_shape: [2, 8] }`)
	e := res.Embeddings[0]
	if e.Checkpoint != "model.ckpt-9" || e.Points != nil || !slices.Equal(e.Shape, []int64{2, 8}) {
		t.Errorf("checkpoint %q points %v shape %v", e.Checkpoint, e.Points, e.Shape)
	}
	if e.Metadata == nil || len(e.Metadata.Rows) != 2 {
		t.Errorf("metadata not read: %+v", e.Metadata)
	}
	wantProblem(t, res, `embedding "embed:0": its tensor is in TensorFlow checkpoint "model.ckpt-9", which cannot be read`)

	// model_checkpoint_path wins; without any checkpoint, say so.
	res = l.config("projector_config.pbtxt", `model_checkpoint_path: "sub/other.ckpt" embeddings { tensor_name: "x" }`)
	if got := res.Embeddings[0].Checkpoint; got != "sub/other.ckpt" {
		t.Errorf("checkpoint = %q", got)
	}
	l2 := newLogdir(t)
	res = l2.config("projector_config.pbtxt", `embeddings { tensor_name: "x" }`)
	wantProblem(t, res, "none was found")
}

func TestConfigInPluginAssets(t *testing.T) {
	l := newLogdir(t)
	l.write("run/t.tsv", []byte("1\t2\n"))
	l.write("run/plugins/org_tensorflow_tensorboard_projector/m.tsv", []byte("x\n"))
	res := l.config("run/plugins/org_tensorflow_tensorboard_projector/projector_config.pbtxt",
		`embeddings { tensor_name: "w" tensor_path: "t.tsv" metadata_path: "m.tsv" }`)
	e := res.Embeddings[0]
	if e.Points == nil || e.Metadata == nil || len(res.Problems) > 0 {
		t.Errorf("paths not found beside the config or in the run directory:\n%s", messages(res))
	}
}

func TestConfigSprite(t *testing.T) {
	l := newLogdir(t)
	l.write("t.tsv", []byte("1\t2\n3\t4\n5\t6\n"))
	l.write("small.png", pngOf(t, 4, 2))
	l.write("notpng.png", []byte("GIF89a not really"))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" sprite { image_path: "small.png" single_image_dim: [2, 2] } }`)
	wantProblem(t, res, "sprite holds 2 thumbnails of 2x2, fewer than the 3 points")
	if s := res.Embeddings[0].Sprite; s == nil || s.Width != 4 || s.Height != 2 {
		t.Errorf("sprite = %+v", s)
	}
	res = l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" sprite { image_path: "notpng.png" single_image_dim: [2] } }`)
	wantProblem(t, res, "is not [width, height]")
	wantProblem(t, res, "is not a PNG or JPEG image")
}

// pngHeader is the start of a PNG claiming w x h grey pixels: enough for
// image.DecodeConfig, which reads no further.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey, no interlace
	b := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

// A sprite claiming 30000x30000 pixels (900 million, a small file when
// compressed) is refused from its header, with a warning, and its
// embedding loads without thumbnails; so is a sprite file over the byte
// bound, before it is read.
func TestSpriteOverPixelOrByteBoundLeftOut(t *testing.T) {
	l := newLogdir(t)
	l.write("t.tsv", []byte("1\t2\n3\t4\n5\t6\n"))
	l.write("huge.png", pngHeader(30000, 30000))
	l.write("wide.png", pngHeader(maxSpriteSide+1, 1))
	big := l.write("big.png", pngOf(t, 4, 4))
	if err := os.Truncate(filepath.Join(l.dir, big), maxSpriteBytes+1); err != nil { // sparse
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"huge.png", "sprite of 30000x30000 pixels is outside the 8192-pixel side TensorBoard draws: left out"},
		{"wide.png", "sprite of 8193x1 pixels is outside the 8192-pixel side"},
		{"big.png", fmt.Sprintf("is %d bytes, over the bound of %d: left out", maxSpriteBytes+1, maxSpriteBytes)},
	} {
		res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" sprite { image_path: "`+tc.file+`" single_image_dim: [2, 2] } }`)
		wantProblem(t, res, tc.want)
		if len(res.Embeddings) != 1 || res.Embeddings[0].Sprite != nil || res.Embeddings[0].NumPoints() != 3 {
			t.Errorf("%s: embeddings %+v, want one of 3 points without a sprite", tc.file, res.Embeddings)
		}
	}
	// At the bound, the sprite is kept.
	l.write("edge.png", pngHeader(maxSpriteSide, 2))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "w" tensor_path: "t.tsv" sprite { image_path: "edge.png" single_image_dim: [2, 2] } }`)
	if s := res.Embeddings[0].Sprite; s == nil || s.Width != maxSpriteSide {
		t.Errorf("sprite at the bound = %+v; problems:\n%s", s, messages(res))
	}
}

func TestMetadataLimit(t *testing.T) {
	_, _, err := parseMetadata([]byte(strings.Repeat("x\n", MaxPoints+1)))
	if !errors.Is(err, errTooLarge) && !strings.Contains(err.Error(), "more than") {
		t.Errorf("err = %v", err)
	}
	md, _, err := parseMetadata([]byte(strings.Repeat("x\n", MaxPoints)))
	if err != nil || len(md.Rows) != MaxPoints {
		t.Errorf("at the limit: %v", err)
	}
}

func TestIsText(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want bool
	}{
		{[]byte("1.0\t2.0\n"), true},
		{[]byte("caf\xc3"), true}, // a rune cut by the sniffed length
		{[]byte("caf\xc3\xa9 "), true},
		{float32LE(0, 1), false},
		{[]byte{0x80, 0x3f, 0x41}, false},
	} {
		if got := isText(tc.b); got != tc.want {
			t.Errorf("isText(%q) = %v", tc.b, got)
		}
	}
}

// numpy builds a NumpyTensor as numpy's tobytes() lays it out.
func numpy(dt string, shape []int64, content []byte) *eventpb.NumpyTensor {
	t := &eventpb.NumpyTensor{Dtype: dt, Shape: &eventpb.NumpyShape{}, Content: content}
	for _, d := range shape {
		t.Shape.Dim = append(t.Shape.Dim, &eventpb.NumpyShape_Dim{Size: d})
	}
	return t
}

func float64LE(vals ...float64) []byte {
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

func int64LE(vals ...int64) []byte {
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	return b
}

// utf32 encodes strings as numpy's <U<width> does.
func utf32(width int, ss ...string) []byte {
	var b []byte
	for _, s := range ss {
		rs := []rune(s)
		for i := range width {
			var r rune
			if i < len(rs) {
				r = rs[i]
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(r))
		}
	}
	return b
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOneFlowEmbedding(t *testing.T) {
	l := newLogdir(t)
	sp := &eventpb.OneFlowSummaryProjector{
		Metadata: &eventpb.OneFlowMetaData{Type: eventpb.OneFlowMetaData_EMBEDDING},
		Projector: []*eventpb.OneFlowProjector{{
			Tag: "feat", Step: 40, WallTime: 1600000000.5,
			Value: numpy("float64", []int64{3, 2}, float64LE(1, 2, 3, 4, 5, 6)),
			Label: numpy("int64", []int64{3}, int64LE(7, -1, 7)),
		}},
		Sample: &eventpb.OneFlowSample{Name: "imgs", Type: eventpb.OneFlowSample_IMAGE,
			X: numpy("uint8", []int64{3, 2, 2}, make([]byte, 12))},
	}
	p := l.write("run/projector/projector.1600000000.log", marshal(t, sp))
	res := ReadOneFlow(l.root, p, false)
	if res.Damaged || len(res.Problems) > 0 || len(res.Embeddings) != 1 || len(res.Exceptions) != 0 {
		t.Fatalf("damaged %v, %d embeddings, %d exceptions:\n%s", res.Damaged, len(res.Embeddings), len(res.Exceptions), messages(res))
	}
	e := res.Embeddings[0]
	if e.Name != "feat" || e.Step != 40 || e.WallTime != 1600000000.5 || e.Source != SourceOneFlow ||
		e.File != "run/projector/projector.1600000000.log" || !slices.Equal(e.Shape, []int64{3, 2}) {
		t.Errorf("embedding = %+v", e)
	}
	vals, err := e.Load(Decoders())
	if err != nil || !slices.Equal(vals, []float32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("Load = %v, %v", vals, err)
	}
	if md := e.Metadata; md == nil || !slices.Equal(md.Columns, []string{"label"}) ||
		!slices.EqualFunc(md.Rows, [][]string{{"7"}, {"-1"}, {"7"}}, slices.Equal) {
		t.Errorf("labels = %+v", e.Metadata)
	}
	if s := e.Sample; s == nil || s.Name != "imgs" || s.Type != "image" || s.Tensor.DType != "uint8" || !slices.Equal(s.Tensor.Shape, []int64{3, 2, 2}) {
		t.Errorf("sample = %+v", e.Sample)
	} else if px, err := s.Tensor.Load(Decoders()); err != nil || len(px) != 12 {
		t.Errorf("sample Load = %v, %v", px, err)
	}
}

func TestOneFlowLabels(t *testing.T) {
	tests := []struct {
		name  string
		label *eventpb.NumpyTensor
		want  []string
	}{
		{"numpy unicode", numpy("<U3", []int64{2}, utf32(3, "cat", "é")), []string{"cat", "é"}},
		{"numpy bytes", numpy("|S2", []int64{2}, []byte("a\x00bc")), []string{"a", "bc"}},
		{"bool", numpy("bool", []int64{2, 1}, []byte{1, 0}), []string{"True", "False"}},
		{"float32", numpy("float32", []int64{2}, float32LE(0.5, 2)), []string{"0.5", "2"}},
		{"big-endian int", numpy(">i2", []int64{2}, []byte{0, 5, 0xff, 0xff}), []string{"5", "-1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLogdir(t)
			sp := &eventpb.OneFlowSummaryProjector{Projector: []*eventpb.OneFlowProjector{{
				Tag: "x", Value: numpy("float32", []int64{2, 2}, float32LE(1, 2, 3, 4)), Label: tc.label}}}
			res := ReadOneFlow(l.root, l.write("projector/projector.1.log", marshal(t, sp)), false)
			if len(res.Embeddings) != 1 || res.Embeddings[0].Metadata == nil {
				t.Fatalf("no labels:\n%s", messages(res))
			}
			var got []string
			for _, r := range res.Embeddings[0].Metadata.Rows {
				got = append(got, r[0])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("labels = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOneFlowExceptions(t *testing.T) {
	l := newLogdir(t)
	sp := &eventpb.OneFlowSummaryProjector{
		Metadata:  &eventpb.OneFlowMetaData{Type: eventpb.OneFlowMetaData_EXCEPTION},
		Projector: []*eventpb.OneFlowProjector{{Tag: "conv1/grad", Step: 7, Value: numpy("float32", []int64{2, 2}, float32LE(1, float32(math.NaN()), -3, 1e30))}},
	}
	// The metadata says exception even where the name does not.
	for _, name := range []string{"projector/projector.gradit.1600000000.log", "projector/projector.1.log"} {
		res := ReadOneFlow(l.root, l.write(name, marshal(t, sp)), false)
		if len(res.Exceptions) != 1 || len(res.Embeddings) != 0 {
			t.Fatalf("%s: %d exceptions, %d embeddings:\n%s", name, len(res.Exceptions), len(res.Embeddings), messages(res))
		}
		ex := res.Exceptions[0]
		if ex.Tag != "conv1/grad" || ex.Source != SourceOneFlow || len(ex.Entries) != 1 || ex.Entries[0].Step != 7 || ex.Entries[0].File != name {
			t.Errorf("exception = %+v", ex)
		}
		vals, err := ex.Entries[0].Load(Decoders())
		if err != nil || len(vals) != 4 || !math.IsNaN(vals[1]) || vals[3] != float64(float32(1e30)) {
			t.Errorf("Load = %v, %v", vals, err)
		}
	}
	// Without metadata, the file's name decides.
	sp.Metadata = nil
	res := ReadOneFlow(l.root, l.write("projector/projector.gradit.2.log", marshal(t, sp)), true)
	if len(res.Exceptions) != 1 {
		t.Errorf("no exception from a gradit file without metadata:\n%s", messages(res))
	}
}

func TestOneFlowRefused(t *testing.T) {
	tests := []struct {
		name    string
		value   *eventpb.NumpyTensor
		problem string
	}{
		{"too many points", numpy("float32", []int64{MaxPoints + 1, 2}, nil), "over the limit"},
		{"too many dims", numpy("float32", []int64{2, 20, 51}, nil), "more than 1000 values per point"},
		{"content short of the shape", numpy("float32", []int64{2, 2}, float32LE(1, 2)), "8 content bytes for shape [2 2]"},
		{"rank 1", numpy("float32", []int64{4}, float32LE(1, 2, 3, 4)), "is not [points, dims...]"},
		{"text values", numpy("<U1", []int64{1, 2}, utf32(1, "a", "b")), "not numeric"},
		{"object dtype", numpy("object", []int64{1, 2}, make([]byte, 16)), "unsupported dtype"},
		{"negative dimension", numpy("float32", []int64{2, -2}, nil), "negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLogdir(t)
			sp := &eventpb.OneFlowSummaryProjector{Projector: []*eventpb.OneFlowProjector{{Tag: "x", Value: tc.value}}}
			res := ReadOneFlow(l.root, l.write("projector/projector.1.log", marshal(t, sp)), false)
			wantProblem(t, res, tc.problem)
			if len(res.Embeddings) != 1 || res.Embeddings[0].Points != nil {
				t.Errorf("refused embedding not listed without points")
			}
		})
	}
}

func TestOneFlowDamaged(t *testing.T) {
	l := newLogdir(t)
	good := marshal(t, &eventpb.OneFlowSummaryProjector{Projector: []*eventpb.OneFlowProjector{{
		Tag: "x", Value: numpy("float32", []int64{1, 2}, float32LE(1, 2))}}})
	for _, b := range [][]byte{good[:len(good)-3], {0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, []byte("not protobuf at all")} {
		res := ReadOneFlow(l.root, l.write("projector/projector.1.log", b), false)
		if !res.Damaged {
			t.Errorf("% x: not damaged", b)
		}
	}
	res := ReadOneFlow(l.root, l.write("projector/projector.2.log", nil), false)
	if res.Damaged || len(res.Embeddings) != 0 {
		t.Errorf("empty file: %+v", res)
	}
}

func TestTSVIS(t *testing.T) {
	l := newLogdir(t)
	md := func(plugin string) *eventpb.SummaryMetadata {
		return &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: plugin}}
	}
	events := []*eventpb.TsvisEvent{
		{WallTime: 1, Summary: &eventpb.TsvisSummary{Value: []*eventpb.TsvisValue{{Tag: "emb", Metadata: md("embeddings"),
			Projector: &eventpb.TsvisProjector{Content: &eventpb.TsvisProjector_Embedding{Embedding: &eventpb.TsvisEmbedding{
				Sample: &eventpb.TsvisSample{Type: eventpb.TsvisSample_TEXT, X: numpy("<U2", []int64{2}, utf32(2, "hi", "yo"))}}}}}}}},
		{WallTime: 2, Step: 5, Summary: &eventpb.TsvisSummary{Value: []*eventpb.TsvisValue{{Tag: "emb", Metadata: md("embeddings"),
			Projector: &eventpb.TsvisProjector{Content: &eventpb.TsvisProjector_Embedding{Embedding: &eventpb.TsvisEmbedding{
				Value: numpy("float32", []int64{2, 1, 3}, float32LE(1, 2, 3, 4, 5, 6)),
				Label: numpy("int32", []int64{2}, []byte{1, 0, 0, 0, 2, 0, 0, 0})}}}}}}},
		{WallTime: 3, Step: 6, Summary: &eventpb.TsvisSummary{Value: []*eventpb.TsvisValue{{Tag: "grad", Metadata: md("exceptions"),
			Projector: &eventpb.TsvisProjector{Content: &eventpb.TsvisProjector_Exception{Exception: &eventpb.TsvisException{
				Value: numpy("float16", []int64{2}, []byte{0x00, 0x3c, 0x00, 0x7c})}}}}}}},
	}
	var file []byte
	file = tfrecord.AppendRecord(file, marshal(t, &eventpb.Event{WallTime: 1, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}))
	for _, ev := range events {
		file = tfrecord.AppendRecord(file, marshal(t, ev))
	}
	file = tfrecord.AppendRecord(file, []byte("\x2a\x03\x0a\x01")) // not an Event: passed over
	p := l.write("projector.events.out.201130-120000.host", file)
	res := ReadTSVIS(l.root, p)
	if res.Damaged || len(res.Problems) > 0 {
		t.Fatalf("problems:\n%s", messages(res))
	}
	if len(res.Embeddings) != 1 || len(res.Exceptions) != 1 {
		t.Fatalf("%d embeddings, %d exceptions", len(res.Embeddings), len(res.Exceptions))
	}
	e := res.Embeddings[0]
	if e.Name != "emb" || e.Step != 5 || e.WallTime != 2 || e.Source != SourceTSVIS || e.Dims() != 3 {
		t.Errorf("embedding = %+v", e)
	}
	if vals, err := e.Load(Decoders()); err != nil || !slices.Equal(vals, []float32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("Load = %v, %v", vals, err)
	}
	if e.Metadata == nil || e.Metadata.Rows[1][0] != "2" {
		t.Errorf("labels = %+v", e.Metadata)
	}
	if s := e.Sample; s == nil || s.Type != "text" || s.Tensor.DType != "<U2" {
		t.Errorf("sample = %+v", e.Sample)
	} else if b, err := s.Tensor.Read(Decoders()); err != nil || !bytes.Equal(b, utf32(2, "hi", "yo")) {
		t.Errorf("sample Read = %q, %v", b, err)
	}
	ex := res.Exceptions[0]
	if ex.Tag != "grad" || ex.Source != SourceTSVIS || ex.Entries[0].Step != 6 {
		t.Errorf("exception = %+v", ex)
	}
	if vals, err := ex.Entries[0].Load(Decoders()); err != nil || vals[0] != 1 || !math.IsInf(vals[1], 1) {
		t.Errorf("Load = %v, %v", vals, err)
	}
}

// Shapes and lengths are claims: nothing is allocated for them before the
// bytes that back them are found.
func TestOneFlowBoundedAllocation(t *testing.T) {
	sp := &eventpb.OneFlowSummaryProjector{Projector: []*eventpb.OneFlowProjector{
		{Tag: "a", Value: numpy("float32", []int64{1 << 40, 2}, nil)},
		{Tag: "b", Value: numpy("float32", []int64{MaxPoints, MaxDims}, float32LE(1)), Label: numpy("<U65536", []int64{MaxPoints}, nil)},
		{Tag: "c", Value: numpy("float64", []int64{2, 2}, nil), Label: numpy("int64", []int64{1 << 50}, int64LE(1))},
	}}
	b := marshal(t, sp)
	var res Result
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	readOneFlow(&res, bytes.NewReader(b), int64(len(b)), location{path: "p"}, "p", false)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading %d bytes allocated %d", len(b), n)
	}
	if len(res.Embeddings) != 3 || len(res.Problems) < 3 {
		t.Errorf("%d embeddings, problems:\n%s", len(res.Embeddings), messages(res))
	}
	for _, e := range res.Embeddings {
		if e.Points != nil || e.Metadata != nil {
			t.Errorf("%s: kept %v %v", e.Name, e.Points, e.Metadata)
		}
	}
}

// A projector file the real TS-VIS writer wrote (testdata/tsvis/generate.py).
func TestTSVISWriterFixture(t *testing.T) {
	res := ReadTSVIS(NewRoot(testsupport.OpenDir(t, "testdata/tsvis"), "tsvis"), "projector.events.out.261122-041259.vm")
	if res.Damaged || len(res.Problems) > 0 {
		t.Fatalf("problems:\n%s", messages(res))
	}
	type got struct {
		name   string
		step   int64
		shape  []int64
		labels string
		sample string
	}
	var embs []got
	for _, e := range res.Embeddings {
		g := got{name: e.Name, step: e.Step, shape: e.Shape}
		for _, r := range e.Metadata.Rows {
			g.labels += r[0] + " "
		}
		if e.Sample != nil {
			g.sample = e.Sample.Type + " " + e.Sample.Tensor.DType
		}
		embs = append(embs, g)
		vals, err := e.Load(Decoders())
		if err != nil || len(vals) != 12 || vals[11] != float32(1.1)*float32(e.Step-2) {
			t.Errorf("%s: Load = %v, %v", e.Name, vals, err)
		}
	}
	want := []got{{"emb", 3, []int64{4, 3}, "0 1 1 2 ", "image uint8"}, {"words", 4, []int64{4, 3}, "cat dog é x ", ""}}
	if !slices.EqualFunc(embs, want, func(a, b got) bool {
		return a.name == b.name && a.step == b.step && slices.Equal(a.shape, b.shape) && a.labels == b.labels && a.sample == b.sample
	}) {
		t.Errorf("embeddings %+v\nwant %+v", embs, want)
	}
	if len(res.Exceptions) != 1 || len(res.Exceptions[0].Entries) != 2 {
		t.Fatalf("exceptions %+v", res.Exceptions)
	}
	e := res.Exceptions[0].Entries[0]
	if vals, err := e.Load(Decoders()); err != nil || e.Step != 5 || e.Tensor.DType != "float64" || vals[0] != 1 || !math.IsNaN(vals[1]) || !math.IsInf(vals[2], 1) {
		t.Errorf("exception step %d: %v, %v", e.Step, vals, err)
	}
}

func TestIsTSVISValue(t *testing.T) {
	b, _ := os.ReadFile("testdata/tsvis/projector.events.out.261122-041259.vm")
	n := 0
	for r := tfrecord.NewReader(bytes.NewReader(b), "f"); r.Next(); {
		var ev eventpb.TsvisEvent
		if err := proto.Unmarshal(r.Record(), &ev); err != nil {
			continue
		}
		for _, v := range ev.GetSummary().GetValue() {
			vb, _ := proto.Marshal(v)
			if !IsTSVISValue(vb) {
				t.Errorf("value %q not recognized", v.GetTag())
			}
			n++
		}
	}
	if n != 5 {
		t.Errorf("%d values, want 5", n)
	}
	plain, _ := proto.Marshal(&eventpb.SummaryValue{Tag: "a", NodeName: "node", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: 1}})
	if IsTSVISValue(plain) {
		t.Errorf("a node_name string taken for a projector value")
	}
}

// The model bounds Embedding.Dims by a copy of MaxDims (it imports no
// reader): the two must agree.
func TestModelDimsBoundIsMaxDims(t *testing.T) {
	if d := (&Embedding{Shape: []int64{1, MaxDims}}).Dims(); d != MaxDims {
		t.Errorf("Dims of [1, MaxDims] = %d, want %d", d, MaxDims)
	}
	if d := (&Embedding{Shape: []int64{1, MaxDims + 1}}).Dims(); d != 0 {
		t.Errorf("Dims of [1, MaxDims+1] = %d, want 0 (over the bound)", d)
	}
}
