package render

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// fnvCollision is a pair of run names with the same 32-bit FNV-1a hash
// (the old slug hash) and the same first 48 characters (all of the name
// the old slug kept), found by trying "<prefix>/N" for N from 0 in under
// a second: under the old slug the two runs shared every file.
var fnvCollision = [2]string{
	"sweep/lr=0.001/batch=256/seed=1/warmup=500/cosine/479599",
	"sweep/lr=0.001/batch=256/seed=1/warmup=500/cosine/662382",
}

func fnv32a(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// TestSlugsOfFNVCollisionsDiffer checks that two names which collide
// under the old 32-bit hash get distinct slugs, and that two runs so named
// keep an image file each, each with its own bytes, and their own points
// in the scalar bundle they share.
func TestSlugsOfFNVCollisionsDiffer(t *testing.T) {
	a, b := fnvCollision[0], fnvCollision[1]
	if fnv32a(a) != fnv32a(b) {
		t.Fatalf("%q and %q do not collide under FNV-1a 32: the test lost its premise", a, b)
	}
	if slug(a) == slug(b) {
		t.Fatalf("slug(%q) = slug(%q) = %q", a, b, slug(a))
	}

	rep := synthetic(map[string]map[string][]float64{a: {"loss": {1, 2}}, b: {"loss": {3, 4}}})
	dir := t.TempDir()
	src := openLogdir(t, dir)
	for i, run := range rep.Runs {
		p := filepath.Join(dir, fmt.Sprintf("%d.png", i))
		if err := os.WriteFile(p, []byte("image of "+run.Name), 0o644); err != nil {
			t.Fatal(err)
		}
		run.Images = []*model.Image{{Tag: "sample", Entries: []model.ImageEntry{{WallTime: 1e9, Step: 7,
			Images: []model.ImageItem{{Width: 1, Height: 1, Format: "png", Data: model.NewBlobRef(src, "", filepath.Base(p), 0, int64(len("image of ")+len(run.Name)))}}}}}}
		rep.Runs[i] = run
	}
	files := filesByName(t, newReport(rep, Options{})) // fails on two files of one name
	var data, images []string
	for name, content := range files {
		switch {
		case strings.HasPrefix(name, "data/scalars/"):
			data = append(data, name)
		case strings.HasPrefix(name, "media/images/"):
			images = append(images, name)
			if !bytes.HasPrefix(content, []byte("image of sweep/")) {
				t.Errorf("%s holds %q", name, content)
			}
		}
	}
	if len(data) != 1 || len(images) != 2 {
		t.Fatalf("data files %v and image files %v, want one bundle and two images", data, images)
	}
	doc := readBundle(t, strings.TrimPrefix(data[0], "data/"), files[data[0]])
	for run, first := range map[string]string{a: "1", b: "3"} {
		if d, ok := doc.Runs[run]; !ok || fmt.Sprint(d.Scalars["loss"].Value[0]) != first {
			t.Errorf("run %q in the bundle: %v", run, d)
		}
	}
	for _, run := range []string{a, b} {
		want := []byte("image of " + run)
		found := 0
		for _, name := range images {
			if bytes.Equal(files[name], want) && strings.Contains(name, slug(run)) {
				found++
			}
		}
		if found != 1 {
			t.Errorf("run %q: %d image files under its slug hold its image, want 1", run, found)
		}
	}
}

// TestSlugShape pins what a slug is made of: a readable prefix of the
// name, then 26 lower-case base32 characters of its SHA-256; no leading
// '-' or '.', and short enough for any file system with an extension.
func TestSlugShape(t *testing.T) {
	for _, c := range []struct{ name, prefix string }{
		{"train/loss", "train_loss-"},
		{"-rf", "rf-"},
		{"..", ""},
		{"", ""},
		{strings.Repeat("x", 300), strings.Repeat("x", slugPrefix) + "-"},
	} {
		s := slug(c.name)
		if !strings.HasPrefix(s, c.prefix) || len(s) != len(c.prefix)+26 {
			t.Errorf("slug(%q) = %q, want %q and 26 hash characters", c.name, s, c.prefix)
		}
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") || len(s)+len(".json") > 100 {
			t.Errorf("slug(%q) = %q", c.name, s)
		}
		if strings.Trim(s[len(s)-26:], "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Errorf("slug(%q) = %q: hash is not lower-case base32", c.name, s)
		}
	}
}
