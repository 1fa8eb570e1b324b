package collect

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// TestWriterFixtures checks that every tag the real writers wrote (see
// testdata/writers/generate.py) is read with the kind and the value count
// TensorBoard's own reader found (testdata/writers/expected.json).
func TestWriterFixtures(t *testing.T) {
	raw, err := os.ReadFile("testdata/writers/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	// writer -> run -> tag -> what TensorBoard saw
	var want map[string]map[string]map[string]struct {
		Kind   string
		Plugin string
		Count  int
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for writer, runs := range want {
		t.Run(writer, func(t *testing.T) {
			rep, err := Collect(context.Background(), []model.Logdir{{Name: writer, Path: filepath.Join("testdata", "writers", writer)}},
				Options{KeepAllRecords: true}) // TensorBoard's reader ran without purging
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]model.TagInfo{}
			for _, r := range rep.Runs {
				for _, ti := range r.Tags {
					got[r.Name+"\x00"+ti.Tag] = ti
				}
				for _, w := range r.Warnings {
					t.Errorf("run %q: warning %s", r.Name, w)
				}
			}
			n := 0
			for run, tags := range runs {
				for tag, w := range tags {
					switch w.Plugin {
					case "graphs", "graph_tagged_run_metadata", "projector":
						continue // not summary tags: graph events and projector files
					}
					n++
					ti, ok := got[run+"\x00"+tag]
					if !ok {
						t.Errorf("run %q tag %q (%s, %d values): not read", run, tag, w.Kind, w.Count)
						continue
					}
					if string(ti.Kind) != w.Kind || ti.Count != w.Count {
						t.Errorf("run %q tag %q: %s with %d values, TensorBoard %s with %d", run, tag, ti.Kind, ti.Count, w.Kind, w.Count)
					}
					delete(got, run+"\x00"+tag)
				}
			}
			for k, ti := range got {
				t.Errorf("tag %q: we read a %s TensorBoard does not list", k, ti.Kind)
			}
			if n == 0 {
				t.Errorf("no tag compared")
			}
		})
	}
}
