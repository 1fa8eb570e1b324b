package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVisdomInputs runs the CLI on one saved environment and on one replay
// log given as the log directory, as on a directory of them: each is a
// report with a Visdom page, not "no event files found".
func TestVisdomInputs(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "collect", "visdom", "testdata")
	for _, in := range []string{filepath.Join(dir, "env", "exp2.json"), filepath.Join(dir, "replay.log")} {
		r := buildReport(t, in)
		page, err := os.ReadFile(filepath.Join(r.site, "visdom.html"))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !strings.Contains(string(page), `data-visdom-id="loss"`) {
			t.Errorf("%s: the Visdom page has no loss window", in)
		}
		if _, err := os.Stat(filepath.Join(r.site, "scalars.html")); err != nil {
			t.Errorf("%s: no scalars page: %v", in, err)
		}
	}
}
