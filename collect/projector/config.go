package projector

import (
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // sprite formats whose size DecodeConfig reads
	_ "image/png"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/trainreport/trainreport/collect/checkpoint"
	"github.com/trainreport/trainreport/collect/eventpb"
)

// ConfigName is the projector config's file name.
const ConfigName = "projector_config.pbtxt"

// assetsDir is where TensorBoard also looks for ConfigName, below the run
// directory.
const assetsDir = "plugins/org_tensorflow_tensorboard_projector"

// maxSpriteSide is the largest sprite side TensorBoard's projector draws:
// a sprite is published only within it (at most 8192² pixels, 268 MB
// decoded as RGBA in the browser), its size read from its header before
// anything else.
const maxSpriteSide = 8192

// maxSpriteBytes bounds a sprite's file, copied into the site as it is:
// the bound of an event record, which holds the images of the Images page.
const maxSpriteBytes = 64 << 20

// ReadConfig reads a projector_config.pbtxt and the files its embeddings
// name (docs/FORMATS.md section 16). Paths are relative to the config's directory;
// when a file is not found there and the config sits in the run's
// plugins/org_tensorflow_tensorboard_projector/ directory, the run directory
// is tried too. Embeddings are listed even when their tensor cannot be read
// (a TensorFlow checkpoint, a refused or missing file); Problems say why.
func ReadConfig(root *Root, rel string) Result {
	var res Result
	b, err := root.src.ReadFile(rel, MaxConfigBytes)
	if err != nil {
		res.Damaged = true
		res.problem(rel, -1, "cannot read the projector config: %v", err)
		return res
	}
	return readConfig(root, rel, b)
}

// readConfig reads the config b of the file rel.
func readConfig(root *Root, rel string, b []byte) Result {
	var res Result
	var cfg eventpb.ProjectorConfig
	if err := (prototext.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &cfg); err != nil {
		res.Damaged = true
		res.problem(rel, -1, "malformed projector config (protobuf text format): %v", err)
		return res
	}
	cr := &configReader{root: root, res: &res, rel: rel, dir: path.Dir(rel), cfg: &cfg,
		metadata: map[string]*Metadata{}}
	cr.runDir = cr.dir
	if strings.HasSuffix("/"+cr.dir, "/"+assetsDir) {
		cr.runDir = path.Clean(strings.TrimSuffix(cr.dir, assetsDir))
	}
	for _, info := range cfg.GetEmbeddings() {
		res.Embeddings = append(res.Embeddings, cr.embedding(info))
	}
	cr.checkpointProblem()
	return res
}

// configReader reads the embeddings of one config.
type configReader struct {
	root        *Root
	res         *Result
	rel         string // the config, relative to the log directory
	dir, runDir string // the config's directory, the run's, relative to the log directory
	cfg         *eventpb.ProjectorConfig

	checkpoint *string  // resolved once, when first needed
	inCkpt     []string // the embeddings whose tensor is in it, unread
	bundleDone bool     // the checkpoint was opened, or failed to
	ckpt       *checkpoint.Bundle
	bundleErr  error
	metadata   map[string]*Metadata // by file: embeddings often share one
	tsv        map[string]tsvResult // by file: a TSV is parsed once
}

// tsvResult is what parsing a tensor TSV found.
type tsvResult struct {
	rows, dims int
	err        error
}

// tsvShape parses the tensor TSV p, open as f, once per config: a config
// of many embeddings naming one big file would otherwise parse it once
// each (a 1 MiB config names a file some 30,000 times).
func (cr *configReader) tsvShape(p string, f io.Reader) (rows, dims int, err error) {
	r, ok := cr.tsv[p]
	if !ok {
		r.rows, r.dims, r.err = parseTSV(f, nil)
		if cr.tsv == nil {
			cr.tsv = map[string]tsvResult{}
		}
		cr.tsv[p] = r
	}
	return r.rows, r.dims, r.err
}

func (cr *configReader) problem(format string, args ...any) {
	cr.res.problem(cr.rel, -1, format, args...)
}

// resolve finds a file named by the config.
func (cr *configReader) resolve(name string) (string, error) {
	p, err := cr.root.Resolve(cr.dir, name)
	if errors.Is(err, fs.ErrNotExist) && cr.runDir != cr.dir {
		if q, err2 := cr.root.Resolve(cr.runDir, name); err2 == nil {
			return q, nil
		}
	}
	return p, err
}

func (cr *configReader) embedding(info *eventpb.EmbeddingInfo) *Embedding {
	e := &Embedding{Name: info.GetTensorName(), Source: SourceConfig, File: cr.rel}
	if e.Name == "" && info.GetTensorPath() != "" {
		e.Name = path.Base(strings.ReplaceAll(info.GetTensorPath(), `\`, "/")) // TensorBoard's rule
	}
	for _, p := range []string{info.GetTensorPath(), info.GetMetadataPath(), info.GetSprite().GetImagePath()} {
		if step, ok := layoutStep(p); ok {
			e.Step = step
			break
		}
	}
	for _, d := range info.GetTensorShape() {
		e.Shape = append(e.Shape, int64(d))
	}
	if info.GetTensorPath() != "" {
		cr.tensor(e, info)
	} else {
		e.Checkpoint = cr.checkpointName()
		cr.checkpointTensor(e)
	}
	if mp := info.GetMetadataPath(); mp != "" {
		e.Metadata = cr.readMetadata(e, mp)
	}
	if sp := info.GetSprite(); sp.GetImagePath() != "" {
		e.Sprite = cr.sprite(e, sp)
	}
	return e
}

// checkpointProblem says, once per config, which embeddings have no points
// because their tensors are in a TensorFlow checkpoint that was not found
// or cannot be read.
func (cr *configReader) checkpointProblem() {
	if len(cr.inCkpt) == 0 {
		return
	}
	where := "a TensorFlow checkpoint, but none was found"
	if c := cr.checkpointName(); c != "" {
		where = fmt.Sprintf("TensorFlow checkpoint %q, which cannot be read (%v)", c, cr.bundleErr)
	}
	names := make([]string, len(cr.inCkpt))
	for i, n := range cr.inCkpt {
		names[i] = strconv.Quote(n)
	}
	if len(names) == 1 {
		cr.problem("embedding %s: its tensor is in %s, so it has no points (its metadata is read)", names[0], where)
		return
	}
	cr.problem("embeddings %s: their tensors are in %s, so they have no points (their metadata is read)", strings.Join(names, ", "), where)
}

// checkpointTensor points e at its tensor in the config's checkpoint
// (docs/FORMATS.md section 16). The tensor is found as TensorBoard's
// projector finds it: by tensor_name, less the ":0" of a graph tensor's
// name, as a key of the checkpoint. Its bytes are checked against the
// index's CRC32C before the model refers to them.
func (cr *configReader) checkpointTensor(e *Embedding) {
	b := cr.bundle()
	if b == nil {
		cr.inCkpt = append(cr.inCkpt, e.Name)
		return
	}
	key := e.Name
	if _, ok := b.Index.Lookup(key); !ok {
		key = strings.TrimSuffix(key, ":0")
	}
	t, err := b.Locate(key, MaxPoints*MaxDims)
	if err != nil {
		cr.problem("embedding %q: %v; it has no points", e.Name, err)
		return
	}
	if len(t.Shape) != 2 || t.Shape[0] <= 0 || t.Shape[1] <= 0 {
		cr.problem("embedding %q: tensor %q of checkpoint %q has shape %v, not [points, dims]; it has no points", e.Name, key, b.Prefix, t.Shape)
		return
	}
	if t.Shape[0] > MaxPoints || t.Shape[1] > MaxDims {
		cr.problem("embedding %q refused: shape %v is over the limit of %d points of %d values", e.Name, t.Shape, MaxPoints, MaxDims)
		return
	}
	if d, err := parseDType(t.DType); err != nil || !d.numeric() {
		cr.problem("embedding %q: tensor %q holds %s values, which are not points", e.Name, key, t.DType)
		return
	}
	if err := b.CheckCRC(t); err != nil {
		cr.res.problem(t.File, t.Offset, "embedding %q has no points: %v", e.Name, err)
		return
	}
	if len(e.Shape) > 0 && !equalShape(e.Shape, t.Shape) {
		cr.problem("embedding %q: tensor_shape %v, but checkpoint %q holds %v", e.Name, e.Shape, b.Prefix, t.Shape)
	}
	e.Shape = slices.Clone(t.Shape)
	e.Points = &TensorRef{BlobRef: cr.root.at(t.File).ref(t.Offset, t.Size), Format: FormatRaw, DType: t.DType, Shape: e.Shape}
}

// bundle opens the config's checkpoint once; it is nil when there is none
// or it cannot be read (bundleErr says why).
func (cr *configReader) bundle() *checkpoint.Bundle {
	if cr.bundleDone {
		return cr.ckpt
	}
	cr.bundleDone = true
	name := cr.checkpointName()
	if name == "" {
		return nil
	}
	rel, err := cr.root.src.Rel(".", name)
	if err != nil {
		cr.bundleErr = err
		return nil
	}
	cr.ckpt, cr.bundleErr = checkpoint.Open(cr.root.src, rel)
	return cr.ckpt
}

// layoutStep reads the step from PyTorch's and tensorboardX's
// <step:05d>/<tag>/<file> layout.
func layoutStep(p string) (int64, bool) {
	parts := strings.Split(strings.ReplaceAll(p, `\`, "/"), "/")
	if len(parts) < 3 || !allDigits(parts[0]) {
		return 0, false
	}
	step, err := strconv.ParseInt(parts[0], 10, 64)
	return step, err == nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// tensor locates an embedding's tensor file: a TSV, or raw float32 shaped
// by tensor_shape when the file is not text.
func (cr *configReader) tensor(e *Embedding, info *eventpb.EmbeddingInfo) {
	p, err := cr.resolve(info.GetTensorPath())
	if err != nil {
		cr.problem("embedding %q: tensor file: %v", e.Name, err)
		return
	}
	frel := p
	f, err := cr.root.open(p)
	if err != nil {
		cr.problem("embedding %q: tensor file: %v", e.Name, err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		cr.problem("embedding %q: tensor file: %v", e.Name, err)
		return
	}
	head := make([]byte, sniffSize)
	n, _ := io.ReadFull(f, head)
	if isText(head[:n]) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			cr.problem("embedding %q: tensor file: %v", e.Name, err)
			return
		}
		rows, dims, err := cr.tsvShape(p, f)
		if err != nil {
			off := int64(-1)
			var le *lineError
			if errors.As(err, &le) {
				off = le.Offset
			}
			cr.res.problem(frel, off, "tensor of embedding %q refused: %v", e.Name, err)
			return
		}
		shape := []int64{int64(rows), int64(dims)}
		if len(e.Shape) > 0 && !equalShape(e.Shape, shape) {
			cr.problem("embedding %q: tensor_shape %v, but %s holds %v", e.Name, e.Shape, frel, shape)
		}
		e.Shape = shape
		e.Points = &TensorRef{BlobRef: cr.root.at(p).ref(0, fi.Size()), Format: FormatTSV, DType: "float32", Shape: shape}
		return
	}
	// Binary: raw little-endian float32, shaped by tensor_shape.
	if len(e.Shape) != 2 || e.Shape[0] <= 0 || e.Shape[1] <= 0 {
		cr.problem("embedding %q: %s is binary, which needs a tensor_shape of [points, dims] (have %v)", e.Name, frel, e.Shape)
		return
	}
	if e.Shape[0] > MaxPoints || e.Shape[1] > MaxDims {
		cr.problem("embedding %q refused: shape %v is over the limit of %d points of %d values", e.Name, e.Shape, MaxPoints, MaxDims)
		return
	}
	if want := e.Shape[0] * e.Shape[1] * 4; fi.Size() != want {
		cr.problem("embedding %q: %s holds %d bytes; tensor_shape %v of float32 needs %d", e.Name, frel, fi.Size(), e.Shape, want)
		return
	}
	e.Points = &TensorRef{BlobRef: cr.root.at(p).ref(0, fi.Size()), Format: FormatRaw, DType: "float32", Shape: e.Shape}
}

func equalShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkpointName names the checkpoint that holds tensors without a tensor
// file: model_checkpoint_path, else the latest checkpoint of
// model_checkpoint_dir or of the run directory (TensorFlow's `checkpoint`
// state file), as TensorBoard looks for it. It is "" when there is none.
func (cr *configReader) checkpointName() string {
	if cr.checkpoint != nil {
		return *cr.checkpoint
	}
	name := cr.findCheckpoint()
	cr.checkpoint = &name
	return name
}

func (cr *configReader) findCheckpoint() string {
	if p := cr.cfg.GetModelCheckpointPath(); p != "" {
		return cr.display(cr.dir, p)
	}
	dir := cr.runDir
	if d := cr.cfg.GetModelCheckpointDir(); d != "" {
		p, err := cr.resolve(d)
		if err != nil {
			cr.problem("model_checkpoint_dir: %v", err)
			return d
		}
		dir = p
	}
	state := path.Join(dir, "checkpoint")
	b, err := cr.root.src.ReadFile(state, MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) && cr.cfg.GetModelCheckpointDir() == "" {
		// Keras' TensorBoard(embeddings_freq=...) writes the config in the
		// log directory and the checkpoint (with its state file) in train/.
		dir = path.Join(dir, "train")
		state = path.Join(dir, "checkpoint")
		b, err = cr.root.src.ReadFile(state, MaxConfigBytes)
	}
	if err != nil {
		return ""
	}
	var cs eventpb.CheckpointState
	if err := (prototext.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &cs); err != nil {
		cr.res.problem(state, -1, "malformed checkpoint state: %v", err)
		return ""
	}
	if p := cs.GetModelCheckpointPath(); p != "" {
		return cr.display(dir, p)
	}
	return ""
}

// display names a checkpoint prefix: relative to the log directory when it
// lies inside, else as written. A prefix written as an absolute path that
// is not inside (TF1's Saver writes absolute paths into the state file, and
// logs move to other machines) is taken from dir, the state file's or the
// config's directory, when a checkpoint of its base name is there: TensorFlow
// would look where the path says, and find nothing.
func (cr *configReader) display(dir, name string) string {
	exists := func(prefix string) bool {
		fi, err := cr.root.src.Stat(prefix + ".index")
		return err == nil && fi.Mode().IsRegular()
	}
	rel, err := cr.root.src.Rel(dir, name)
	slash := strings.ReplaceAll(name, `\`, "/")
	drive := len(slash) >= 3 && slash[1] == ':' && slash[2] == '/' // a Windows path, relative to Rel here
	abs := path.IsAbs(slash) || filepath.IsAbs(name) || drive
	if err == nil && (!abs || exists(rel)) {
		return rel
	}
	if abs {
		if moved := path.Join(dir, path.Base(slash)); exists(moved) {
			return moved
		}
	}
	if err == nil {
		return rel
	}
	return name
}

func (cr *configReader) readMetadata(e *Embedding, name string) *Metadata {
	p, err := cr.resolve(name)
	if err != nil {
		cr.problem("embedding %q: metadata file: %v", e.Name, err)
		return nil
	}
	md, ok := cr.metadata[p]
	if !ok {
		md = cr.parseMetadataFile(p)
		cr.metadata[p] = md
	}
	if md != nil && e.Points != nil && len(md.Rows) != e.NumPoints() {
		cr.problem("embedding %q: %d points but %d metadata rows in %s", e.Name, e.NumPoints(), len(md.Rows), md.File)
	}
	return md
}

func (cr *configReader) parseMetadataFile(p string) *Metadata {
	frel := p
	b, err := cr.root.src.ReadFile(p, MaxMetadataBytes)
	if err != nil {
		cr.res.problem(frel, -1, "metadata file refused: %v", err)
		return nil
	}
	md, ragged, err := parseMetadata(b)
	if err != nil {
		cr.res.problem(frel, -1, "metadata file refused: %v", err)
		return nil
	}
	md.File = frel
	if ragged > 0 {
		cr.res.problem(frel, -1, "%d rows do not have one value per column (%d columns); padded or cut", ragged, len(md.Columns))
	}
	return md
}

func (cr *configReader) sprite(e *Embedding, sp *eventpb.SpriteMetadata) *Sprite {
	p, err := cr.resolve(sp.GetImagePath())
	if err != nil {
		cr.problem("embedding %q: sprite: %v", e.Name, err)
		return nil
	}
	s := &Sprite{File: p}
	if d := sp.GetSingleImageDim(); len(d) == 2 && d[0] > 0 && d[1] > 0 && d[0] <= maxSpriteSide && d[1] <= maxSpriteSide {
		s.SingleImageDim = [2]int{int(d[0]), int(d[1])}
	} else {
		cr.problem("embedding %q: sprite single_image_dim %v is not [width, height]", e.Name, d)
	}
	f, err := cr.root.open(p)
	if err != nil {
		cr.problem("embedding %q: sprite: %v", e.Name, err)
		return nil
	}
	defer f.Close()
	var size int64 // of the file when it was read, so that the model holds its place
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > maxSpriteBytes {
		cr.res.problem(s.File, -1, "sprite of embedding %q is %d bytes, over the bound of %d: left out, the points drawn without thumbnails", e.Name, size, maxSpriteBytes)
		return nil
	}
	s.Data = cr.root.at(p).ref(0, size)
	// Only the header is read: the pixels are the browser's to decode, and
	// a small file can claim 30000x30000 of them.
	ic, format, err := image.DecodeConfig(f)
	if err != nil {
		cr.res.problem(s.File, -1, "sprite of embedding %q is not a PNG or JPEG image: %v", e.Name, err)
		return nil
	}
	s.Format, s.Width, s.Height = format, ic.Width, ic.Height
	if s.Width <= 0 || s.Height <= 0 || s.Width > maxSpriteSide || s.Height > maxSpriteSide {
		cr.res.problem(s.File, -1, "sprite of %dx%d pixels is outside the %d-pixel side TensorBoard draws: left out, the points of embedding %q drawn without thumbnails",
			s.Width, s.Height, maxSpriteSide, e.Name)
		return nil
	}
	if w, h := s.SingleImageDim[0], s.SingleImageDim[1]; w > 0 && e.NumPoints() > 0 {
		if capacity := (s.Width / w) * (s.Height / h); capacity < e.NumPoints() {
			cr.res.problem(s.File, -1, "sprite holds %d thumbnails of %dx%d, fewer than the %d points of embedding %q", capacity, w, h, e.NumPoints(), e.Name)
		}
	}
	return s
}
