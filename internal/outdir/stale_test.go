package outdir

import (
	"os"
	"path/filepath"
	"testing"
)

// What a report killed by SIGKILL left beside its output folder is
// removed by the next report into that folder, and nothing else is: a
// temporary folder of our making whose writer is gone (marked, unlocked)
// goes, and so does an earlier report moved aside by a commit that did
// not finish; a folder of the same pattern without the marker, one of
// another output's name, a marked link, and the temporary folder of a
// report still being written (locked) all stay, and that report still
// commits.
func TestNextReportRemovesStaleTemporaryFolders(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	mkdir := func(name string, marked bool) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "index.html"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if marked {
			if err := os.WriteFile(filepath.Join(p, Marker), []byte(markerText), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	live, err := Create(out) // a report being written: its folder is locked
	if err != nil {
		t.Fatal(err)
	}
	stale := mkdir(".site.tmp-12345", true)
	staleOld := mkdir(".site.old-678/report", true)
	unmarked := mkdir(".site.tmp-999", false)
	otherOutput := mkdir(".other.tmp-1", true)
	notOurName := mkdir(".site.tmp-1x", true)
	oldWithMore := mkdir(".site.old-42/report", true)
	mkdir(".site.old-42/mine", false)
	link := filepath.Join(dir, ".site.tmp-777")
	if err := os.Symlink(otherOutput, link); err != nil {
		t.Fatal(err)
	}

	next, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Abort()
	for _, p := range []string{stale, filepath.Dir(staleOld)} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s: left in place", p)
		}
	}
	for _, p := range []string{live.tmp, filepath.Join(live.tmp, Marker), unmarked, otherOutput, notOurName, oldWithMore, link} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: removed (%v)", p, err)
		}
	}
	if err := live.WriteFile("index.html", []byte("live")); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(); err != nil {
		t.Fatalf("the live report: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || string(b) != "live" {
		t.Errorf("the live report's index.html: %q, %v", b, err)
	}
}
