package visdom

import (
	"os"
	"testing"
)

// checkResult checks what any input must give: images inside the file,
// grids of the values they hold, bounded problems.
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
}

func seeds(f *testing.F) {
	for _, name := range []string{"replay.log", "env/replay.json", "env/exp2.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
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
