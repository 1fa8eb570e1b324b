package main

// What a part may make merge do: read regular files below the --root
// merge is given, and nothing else, however its shard.json and model.bin
// were forged (checksums included: a forger writes matching ones).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/internal/analysis"
)

// secretMark is in the bytes of the file outside every log directory
// that forged parts try to publish.
const secretMark = "OUTSIDE-SECRET-7731"

// pngOf returns a w x h PNG holding text in a tEXt chunk (so that the
// bytes of a file can be told apart in a report).
func pngOf(tb testing.TB, w, h int, text string) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(40 * x), uint8(40 * y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		tb.Fatal(err)
	}
	p := b.Bytes()
	// tEXt after IHDR (8 bytes of signature, 25 of IHDR).
	data := append([]byte("Comment\x00"), text...)
	chunk := make([]byte, 0, 12+len(data))
	chunk = append(chunk, byte(len(data)>>24), byte(len(data)>>16), byte(len(data)>>8), byte(len(data)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, data...)
	crc := crc32IEEE(chunk[4:])
	chunk = append(chunk, byte(crc>>24), byte(crc>>16), byte(crc>>8), byte(crc))
	return append(append(bytes.Clone(p[:33]), chunk...), p[33:]...)
}

// crc32IEEE is PNG's chunk CRC.
func crc32IEEE(b []byte) uint32 {
	c := ^uint32(0)
	for _, x := range b {
		c ^= uint32(x)
		for range 8 {
			c = c>>1 ^ 0xedb88320&-(c&1)
		}
	}
	return ^c
}

// writeImageRun writes a run of dir holding a scalar and an image tag at
// two steps: a log whose part refers to payloads.
func writeImageRun(tb testing.TB, dir, run string) {
	tb.Helper()
	var buf bytes.Buffer
	w := tfrecord.NewWriter(&buf)
	for step := range int64(2) {
		ev := &eventpb.Event{WallTime: 1.7e9 + float64(step), Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{
			{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: float32(step)}},
			{Tag: "sample", Value: &eventpb.SummaryValue_Image{Image: &eventpb.Image{Width: 4, Height: 3, Colorspace: 4,
				EncodedImageString: pngOf(tb, 4, 3, "step")}}},
		}}}}
		b, err := proto.Marshal(ev)
		if err != nil {
			tb.Fatal(err)
		}
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
	}
	p := filepath.Join(dir, run, "events.out.tfevents.1700000000.host")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// collectOne writes the one part of logdirs (shard 0/1) into part, with
// --root root, and returns its status and stderr.
func collectOne(root, part string, logdirs ...string) (int, string) {
	var stderr bytes.Buffer
	args := append([]string{"--quiet", "--root", root, "--shard", "0/1", "-o", part}, logdirs...)
	code := runCollect(context.Background(), args, io.Discard, &stderr)
	return code, stderr.String()
}

// forgePart rewrites the part as a forger would: edit changes the marker
// and the model (read without its log directories), then model.bin is
// written again and the marker lists its size and hash and is sealed, so
// that every checksum matches.
func forgePart(t *testing.T, part string, edit func(m *shardMarker, rep *model.Report)) {
	t.Helper()
	var m shardMarker
	if err := json.Unmarshal(readFile(t, filepath.Join(part, partMarker)), &m); err != nil {
		t.Fatal(err)
	}
	rep, err := model.Read(bytes.NewReader(readFile(t, filepath.Join(part, partModel))), nil)
	if err != nil {
		t.Fatal(err)
	}
	edit(&m, rep)
	var b bytes.Buffer
	if err := model.Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	writeSealed(t, part, &m, b.Bytes())
}

// writeSealed writes the part's model.bin and its marker m, listing the
// model's size and hash and sealed.
func writeSealed(tb testing.TB, part string, m *shardMarker, modelBin []byte) {
	tb.Helper()
	sum := sha256.Sum256(modelBin)
	m.Files = []partFile{{Name: partModel, Size: int64(len(modelBin)), SHA256: hex.EncodeToString(sum[:])}}
	if err := m.seal(); err != nil {
		tb.Fatal(err)
	}
	mb, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(part, partModel), modelBin, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(part, partMarker), mb, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// eachImage calls f with every image payload reference of rep.
func eachImage(rep *model.Report, f func(b *model.BlobRef)) {
	for _, r := range rep.Runs {
		for _, s := range r.Images {
			for i := range s.Entries {
				for j := range s.Entries[i].Images {
					f(&s.Entries[i].Images[j].Data)
				}
			}
		}
	}
}

// copyDir copies the folder from into to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefusesForgedParts writes a real part of a small log below a
// root, then forges it every way a part could point merge outside the
// log directories: its log directory by a path out of the root, an
// absolute path, a link below the root that leads out, a bucket merge
// was not given; its payloads by "..", an absolute path, a link inside
// the log directory, or a range past the end of a file (offset and
// length overflowing too). The checksums are forged to match. Merge
// refuses each with exit status 1 (2 for the bucket, a URL the command
// line must give), names the part and the cause, writes no report, and
// no byte of the file outside reaches anything it wrote. The part as
// written merges.
func TestMergeRefusesForgedParts(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	logs := filepath.Join(root, "logs")
	writeImageRun(t, logs, "run")
	secretDir := filepath.Join(base, "secret")
	if err := os.MkdirAll(secretDir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := pngOf(t, 2, 2, secretMark)
	if err := os.WriteFile(filepath.Join(secretDir, "secret.png"), secret, 0o644); err != nil {
		t.Fatal(err)
	}
	// Links that lead out: one below the root (to a log directory), one
	// inside the log directory (to a payload).
	if err := os.Symlink(secretDir, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(secretDir, "secret.png"), filepath.Join(logs, "run", "link.png")); err != nil {
		t.Fatal(err)
	}
	written := filepath.Join(base, "part")
	if code, stderr := collectOne(root, written, logs); code != 0 {
		t.Fatalf("collect: exit status %d\n%s", code, stderr)
	}
	// The path as given is what the report shows; merge opens the one
	// below the root.
	if b := readFile(t, filepath.Join(written, partMarker)); bytes.Contains(b, []byte(`"abs"`)) || !bytes.Contains(b, []byte(`"rel": "logs"`)) {
		t.Fatalf("the part names its log directory otherwise than by its path below the root:\n%s", b)
	}
	merge := func(t *testing.T, part string, extra ...string) (int, string, string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "report")
		args := append([]string{"--quiet", "--root", root, "-o", out, "--single-file", out + ".html"}, extra...)
		code, stderr := runCmd(t, "merge", append(args, part)...)
		return code, stderr, out
	}
	t.Run("as written", func(t *testing.T) {
		code, stderr, out := merge(t, written)
		if code != 0 {
			t.Fatalf("merge: exit status %d\n%s", code, stderr)
		}
		n := 0
		filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".png") {
				n++
			}
			return err
		})
		if n != 2 {
			t.Errorf("the report holds %d images, want the run's 2", n)
		}
	})

	forgeries := []struct {
		name string
		edit func(m *shardMarker, rep *model.Report)
		code int
		want string
	}{
		{"log directory out of the root", func(m *shardMarker, rep *model.Report) {
			m.Logdirs[0].Rel = "../secret"
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "secret.png", 0, int64(len(secret)) })
		}, exitFailed, `shard.json: log directory "logs": rel "../secret" is not a clean relative path below the root`},
		{"log directory by an absolute path", func(m *shardMarker, rep *model.Report) {
			m.Logdirs[0].Rel = secretDir
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "secret.png", 0, int64(len(secret)) })
		}, exitFailed, "is not a clean relative path below the root"},
		{"log directory at the file system's root", func(m *shardMarker, rep *model.Report) {
			m.Logdirs[0].Rel = "/"
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "etc/passwd", 0, 10 })
		}, exitFailed, "is not a clean relative path below the root"},
		{"log directory through a link out of the root", func(m *shardMarker, rep *model.Report) {
			m.Logdirs[0].Rel = "escape"
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "secret.png", 0, int64(len(secret)) })
		}, exitFailed, "log directory logs: the logs must be readable at escape below the root " + root + " (--root), as collect read them: statat escape: path escapes from parent"},
		{"log directory in a bucket merge was not given", func(m *shardMarker, rep *model.Report) {
			m.Logdirs[0].Rel, m.Logdirs[0].URL = "", "s3://victim/private"
		}, exitUsage, "the parts read the log directory s3://victim/private from a bucket: give its URL among merge's arguments"},
		{"payload by ..", func(m *shardMarker, rep *model.Report) {
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "../../secret/secret.png", 0, int64(len(secret)) })
		}, exitFailed, `payload logs:../../secret/secret.png@0+` + strconv.Itoa(len(secret)) + ` outside its run's log directory`},
		{"payload by an absolute path", func(m *shardMarker, rep *model.Report) {
			eachImage(rep, func(b *model.BlobRef) {
				b.Path, b.Offset, b.Length = filepath.Join(secretDir, "secret.png"), 0, int64(len(secret))
			})
		}, exitFailed, "payload logs:" + filepath.Join(secretDir, "secret.png") + "@0+" + strconv.Itoa(len(secret)) + " outside its run's log directory"},
		{"payload through a link in the log directory", func(m *shardMarker, rep *model.Report) {
			eachImage(rep, func(b *model.BlobRef) { b.Path, b.Offset, b.Length = "run/link.png", 0, int64(len(secret)) })
		}, exitFailed, "model.bin refers to bytes that are not in a regular file of its log directories (the logs changed since collect, or the part is forged): payload logs:run/link.png@0+" + strconv.Itoa(len(secret)) + ": run/link.png: not a regular file"},
		{"payload past the end of its file", func(m *shardMarker, rep *model.Report) {
			eachImage(rep, func(b *model.BlobRef) { b.Length = 1 << 40 })
		}, exitFailed, "ends at byte"},
		{"payload range overflowing", func(m *shardMarker, rep *model.Report) {
			eachImage(rep, func(b *model.BlobRef) { b.Offset, b.Length = 1, math.MaxInt64 })
		}, exitFailed, "ends at byte"},
	}
	for _, f := range forgeries {
		t.Run(f.name, func(t *testing.T) {
			part := filepath.Join(t.TempDir(), "part")
			copyDir(t, written, part)
			forgePart(t, part, f.edit)
			code, stderr, out := merge(t, part)
			if code != f.code || !strings.Contains(stderr, "trainreport: ") || !strings.Contains(stderr, f.want) {
				t.Errorf("merge of the forged part: exit status %d, stderr %q; want %d and a message saying %q", code, stderr, f.code, f.want)
			}
			if !strings.Contains(stderr, "part "+part) && f.code != exitUsage {
				t.Errorf("the message %q does not name the part", stderr)
			}
			for _, p := range []string{out, out + ".html"} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("merge of the forged part wrote %s", p)
				}
			}
			// Nothing written anywhere holds the secret's bytes: its
			// temporary folders neither (they are removed).
			filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 || p == filepath.Join(secretDir, "secret.png") {
					return err
				}
				if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secretMark)) {
					t.Errorf("%s holds the secret's bytes", p)
				}
				return nil
			})
		})
	}
}

// partAllocFixed and partAllocPerByte bound what reading a part may
// allocate: allocPerByte times its files' bytes (the model's in-memory
// form is larger than its encoding: a nil slice is 24 bytes for 1; the
// marker is decoded twice and encoded once to check its checksum) and
// the fixed buffers of a read.
const (
	partAllocPerByte = 64
	partAllocFixed   = 4 << 20
)

// FuzzReadPart is the part reader as merge runs it (its first pass,
// scanPart, which checks a part before any use), on any shard.json and
// model.bin, their checksums set to match when the marker decodes (as a
// forger sets them), below a root holding a log directory "logs": it
// must not panic, must allocate in proportion to the part's bytes, and a
// part it accepts refers only to bytes inside regular files below the
// root, read through log directories opened below it.
func FuzzReadPart(f *testing.F) {
	root := f.TempDir()
	writeImageRun(f, filepath.Join(root, "logs"), "run")
	writeImageRun(f, filepath.Join(root, "logs"), "other/run")
	seed := filepath.Join(f.TempDir(), "part")
	if code, stderr := collectOne(root, seed, filepath.Join(root, "logs")); code != 0 {
		f.Fatalf("collect: exit status %d\n%s", code, stderr)
	}
	marker, err := os.ReadFile(filepath.Join(seed, partMarker))
	if err != nil {
		f.Fatal(err)
	}
	modelBin, err := os.ReadFile(filepath.Join(seed, partModel))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(marker, modelBin)
	f.Add(bytes.Replace(marker, []byte(`"rel": "logs"`), []byte(`"rel": "../logs"`), 1), modelBin)
	f.Add(bytes.Replace(marker, []byte(`"rel": "logs"`), []byte(`"url": "s3://b/logs"`), 1), modelBin)
	f.Add(marker, modelBin[:len(modelBin)/2])
	f.Add([]byte(`{"format":"trainreport-shard","version":2}`), []byte("trainreport-model 6 x\n"))
	f.Add([]byte(`{"format":"trainreport-shard","version":3}`), []byte("trainreport-model 7 x\n"))
	r, err := os.OpenRoot(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { r.Close() })
	f.Fuzz(func(t *testing.T, marker, modelBin []byte) {
		part := t.TempDir()
		var m shardMarker
		if json.Unmarshal(marker, &m) == nil {
			sum := sha256.Sum256(modelBin)
			m.Files = []partFile{{Name: partModel, Size: int64(len(modelBin)), SHA256: hex.EncodeToString(sum[:])}}
			if m.seal() == nil {
				marker, _ = json.Marshal(m)
			}
		}
		if err := os.WriteFile(filepath.Join(part, partMarker), marker, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(part, partModel), modelBin, 0o644); err != nil {
			t.Fatal(err)
		}
		var rep *model.Report
		var err error
		got := allocatedBy(func() {
			var pm *shardMarker
			if pm, err = readMarker(t.Context(), part); err != nil {
				return
			}
			rep, err = scanPart(t.Context(), part, pm, func(name string) (model.Source, error) {
				for _, l := range pm.Logdirs {
					if l.Name == name && l.URL == "" {
						return openLogdir(t.Context(), r, l)
					}
				}
				return nil, nil // a bucket is not read here: its payloads have no source
			}, analysis.NewShapes())
		})
		if budget := partAllocPerByte*uint64(len(marker)+len(modelBin)) + partAllocFixed; got > budget {
			t.Fatalf("a part of %d + %d bytes (%v) allocated %d bytes, over the %d budget", len(marker), len(modelBin), err, got, budget)
		}
		if err != nil {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("error %q does not name the part", err)
			}
			return
		}
		defer rep.Close()
		for _, s := range rep.Sources() {
			if d, ok := s.(*logfs.Dir); !ok || !strings.HasPrefix(d.Path()+string(filepath.Separator), root+string(filepath.Separator)) {
				t.Errorf("a log directory was opened at %v, not below the root %s", s, root)
			}
		}
		if err := rep.CheckPayloads(); err != nil {
			t.Errorf("accepted a part whose payloads are not in files below the root: %v", err)
		}
	})
}

// allocatedBy returns the bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
