package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/trainreport/trainreport/render"
)

// TestNotesFlagReadsARegularFileWithinItsBound: --notes takes a Markdown
// file onto the overview; a FIFO (which would wait for ever), a folder and
// a file past render.MaxNotesBytes are usage errors naming the file, before
// any log is read.
func TestNotesFlagReadsARegularFileWithinItsBound(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(corpusRoot(t), "tf2-custom-loop-tensors")
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("Trained on **v2** data.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-o", site, "--notes", notes, logs}, &bytes.Buffer{}, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if index, _ := os.ReadFile(filepath.Join(site, "index.html")); !bytes.Contains(index, []byte("Trained on <strong>v2</strong> data.")) {
		t.Error("the overview does not show the notes")
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), render.MaxNotesBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for file, says := range map[string]string{fifo: "not a regular file", dir: "not a regular file", big: "more than 256 KiB"} {
		errb.Reset()
		code := run(context.Background(), []string{"-o", filepath.Join(dir, "other"), "--notes", file, logs}, &bytes.Buffer{}, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), file) || !strings.Contains(errb.String(), says) {
			t.Errorf("--notes %s: exit %d, %q; want %d naming the file and saying %q", file, code, errb.String(), exitUsage, says)
		}
	}
}
