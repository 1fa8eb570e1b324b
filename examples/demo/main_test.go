package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/examples/demo/demolog"
)

// TestSummary checks the command's one-line summary and that it writes
// exactly what demolog.Write writes.
func TestSummary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	var out bytes.Buffer
	if err := run([]string{"-o", dir}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := "demo: wrote 7 runs, 12 event files, "
	if !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), " to "+dir+"\n") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("summary = %q, want one line starting %q and ending with the directory", out.String(), want)
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if err := demolog.Write(ref); err != nil {
		t.Fatal(err)
	}
	a, b := readTree(t, dir), readTree(t, ref)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("the command wrote %d files, demolog.Write %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs from demolog.Write's", name)
		}
	}
}

// readTree returns every file under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"-o", dir}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("run into a non-empty directory: err = %v, want a 'not empty' error", err)
	}
	if err := run([]string{"-o", dir, "-force"}, io.Discard, io.Discard); err != nil {
		t.Fatalf("-force: %v", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
		t.Errorf("-force touched an unrelated file: %q, %v", b, err)
	}
	if err := run([]string{"-o", keep}, io.Discard, io.Discard); err == nil {
		t.Error("run with a regular file as output: no error")
	}
	if err := run(nil, io.Discard, io.Discard); err == nil {
		t.Error("run without -o: no error")
	}
}
