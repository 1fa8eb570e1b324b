package render

import (
	"os/exec"
	"strings"
	"testing"
)

// renderDeps are the packages of this module render may depend on: the
// model, the analysis's results, and what writes the outputs. render only
// writes: it must not depend on what reads logs (record framing, the log
// directories, the readers), so that a model written by one process can
// be rendered by another and the readers can change without render
// noticing; nor on the analysis's algorithms, whose results it reads.
var renderDeps = map[string]bool{
	"github.com/trainreport/trainreport/render":                   true,
	"github.com/trainreport/trainreport/collect/model":            true,
	"github.com/trainreport/trainreport/internal/analysis/result": true,
	"github.com/trainreport/trainreport/internal/outdir":          true,
	"github.com/trainreport/trainreport/internal/summary":         true,
	"github.com/trainreport/trainreport/templates":                true,
	"github.com/trainreport/trainreport/assets":                   true,
}

// readerDeps are third-party packages only the readers need (protobuf,
// YAML): render depending on one has a reader in its imports.
var readerDeps = []string{"google.golang.org/protobuf/", "go.yaml.in/yaml/", "gopkg.in/yaml"}

func TestRenderImportsOnlyTheModelResultsAndWriters(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != "github.com/trainreport/trainreport/render" {
		t.Fatalf("go list -deps . listed %d packages, not ending with render itself: %.200q", len(deps), deps)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/trainreport/trainreport/") || dep == "github.com/trainreport/trainreport" {
			if !renderDeps[dep] {
				t.Errorf("render depends on %s, which is not in renderDeps", dep)
			}
			continue
		}
		for _, reader := range readerDeps {
			if strings.HasPrefix(dep, reader) {
				t.Errorf("render depends on %s, a reader's dependency", dep)
			}
		}
	}
}
