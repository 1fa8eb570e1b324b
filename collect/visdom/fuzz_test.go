package visdom

import (
	"os"
	"strings"
	"testing"
)

// checkResult checks what any input must give: images inside the file,
// grids of the values they hold, bounded problems, and output bounded by
// the input (outputSize).
func checkResult(t *testing.T, data []byte, res Result) {
	t.Helper()
	if len(res.Problems) > maxProblems+1 {
		t.Fatalf("%d problems", len(res.Problems))
	}
	for _, env := range res.Envs {
		for _, w := range env.Windows {
			for _, im := range w.Images {
				if im.Offset < 0 || im.Offset+im.Length > int64(len(data)) {
					t.Fatalf("window %q: image at %d+%d outside %d bytes", w.ID, im.Offset, im.Length, len(data))
				}
			}
			for _, tr := range w.Traces {
				if tr.Rows > 0 && len(tr.Z) != tr.Rows*tr.Cols {
					t.Fatalf("window %q: %d values for a %dx%d grid", w.ID, len(tr.Z), tr.Rows, tr.Cols)
				}
			}
			if len(w.Text) > maxTextBytes {
				t.Fatalf("window %q: %d bytes of text", w.ID, len(w.Text))
			}
		}
	}
	if cells, text := outputSize(res); cells > len(data)+16 || text > 2*len(data)+64 {
		t.Fatalf("%d bytes read to %d values and %d bytes of text", len(data), cells, text)
	}
}

// outputSize counts what a file was read to: values (numbers, names,
// node labels and edge ends, properties) and bytes of text (names,
// labels, text, properties, titles). Every value a file keeps was written
// in it, at least two bytes ("1,"), and a ragged grid's padding adds no
// more cells than it holds: values stay within the file's size. Text is
// copied from the file but for numbers read as names, which a shortest
// form can make twice as long ("1e5" is "100000").
func outputSize(res Result) (cells, text int) {
	for _, env := range res.Envs {
		text += len(env.Name)
		for _, w := range env.Windows {
			text += len(w.ID) + len(w.Title) + len(w.Type) + len(w.Text) + len(w.Caption) + len(w.XLabel) + len(w.YLabel) + len(w.Y2Label)
			for _, tr := range w.Traces {
				cells += len(tr.X) + len(tr.Y) + len(tr.Z) + len(tr.Values) + len(tr.XNames) + len(tr.YNames) + len(tr.Labels)
				text += len(tr.Type) + len(tr.Name) + len(tr.Mode)
				for _, s := range [][]string{tr.XNames, tr.YNames, tr.Labels} {
					text += len(strings.Join(s, ""))
				}
			}
			cells += len(w.Properties) + len(w.NodeLabels) + len(w.EdgeEnds)
			for _, p := range w.Properties {
				text += len(p.Type) + len(p.Name) + len(p.Value)
			}
			text += len(strings.Join(w.NodeLabels, ""))
		}
	}
	return cells, text
}

func seeds(f *testing.F) {
	for _, name := range []string{"replay.log", "env/replay.json", "env/exp2.json", "python/nan.json", "python/nan.log"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Ragged grids, within and past the padding they may have.
	for _, z := range []string{`[[1], [2, 3], null, [4, 5, 6]]`, `[[1, 2, 3, 4, 5, 6, 7, 8], [], [], [], [], [], [], [], [], []]`} {
		f.Add([]byte(`{"jsons": {"h": {"id": "h", "type": "plot", "content": {"data": [{"type": "heatmap", "z": ` + z + `}]}}}}`))
		f.Add([]byte(`["events", {"data": [{"type": "heatmap", "z": ` + z + `}], "win": "h"}]` + "\n" +
			`["update", {"data": [{"type": "heatmap", "z": ` + z + `}], "win": "h", "updateDir": "appendRow"}]`))
	}
	// Python's words. (A value nested past encoding/json's bound takes
	// 20 KB, which the fuzzer spends its time minimising:
	// TestTooDeepValueIsOneProblem has it.)
	f.Add([]byte(`{"jsons": {"p": {"id": "p", "type": "properties", "content": [{"name": NaN, "value": -Infinity}]}}}`))
	f.Add([]byte(`["events", {"data": [{"x": [1, Infinity], "y": [NaN, -Infinity], "z": [[NaN], [1, 2]]}], "win": "w"}]`))
}

func FuzzReadLog(f *testing.F) {
	seeds(f)
	f.Add([]byte(`["events", {"data": [{"z": [[1, 2], [3]], "type": "heatmap"}], "win": "h"}]` + "\n" +
		`["update", {"data": [{"z": [[1], [2]], "type": "heatmap"}], "win": "h", "updateDir": "appendColumn"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkResult(t, data, ReadLog(data))
	})
}

func FuzzReadEnv(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkResult(t, data, ReadEnv(data, "main"))
	})
}
