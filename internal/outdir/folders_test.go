package outdir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Files written into more folders than the site keeps open, from several
// goroutines and in an order that keeps evicting folders in use, all land
// whole where they are named, and a name written twice is still refused.
func TestWriteFileFuncAcrossManyFolders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	site, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	const folders, files = 3 * openFolders, 5
	var wg sync.WaitGroup
	errs := make(chan error, folders*files)
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < folders*files; i += 4 {
				name := fmt.Sprintf("data/run%02d/f%d.json", i%folders, i/folders)
				errs <- site.WriteFileFunc(name, func(w io.Writer) error {
					_, err := io.WriteString(w, strings.Repeat(name, 3))
					return err
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := site.WriteFile("data/run00/f0.json", nil); err == nil || !strings.Contains(err.Error(), "share the path") {
		t.Errorf("a name written twice: %v, want a refusal", err)
	}
	if err := site.Commit(); err != nil {
		t.Fatal(err)
	}
	for i := range folders * files {
		name := fmt.Sprintf("data/run%02d/f%d.json", i%folders, i/folders)
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil || string(b) != strings.Repeat(name, 3) {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
}

// A name that leaves the site is refused, in a folder as at the top.
func TestWriteFileFuncRefusesEscapes(t *testing.T) {
	site, err := Create(filepath.Join(t.TempDir(), "report"))
	if err != nil {
		t.Fatal(err)
	}
	defer site.Abort()
	for _, name := range []string{"../x", "data/../../x", "/abs", "data/", "."} {
		if err := site.WriteFile(name, []byte("x")); err == nil {
			t.Errorf("%q written", name)
		}
	}
}
