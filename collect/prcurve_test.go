package collect

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// linspaceLine is a line of testdata/linspace/linspace.txt (see gen.py
// there): n, how many values differ from i / (n-1), and a hash of numpy's
// linspace(0, 1, n).
func linspaceLine(v []float64) string {
	differ := 0
	var b []byte
	for i, x := range v {
		if len(v) > 1 && x != float64(i)/float64(len(v)-1) {
			differ++
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d %d %s", len(v), differ, hex.EncodeToString(sum[:8]))
}

// TestPRThresholdsAreNumpyLinspace checks the thresholds of PR curves
// against numpy's linspace(0, 1, n), bit for bit, for n = 1..1000: the
// values numpy itself gave, committed, so that the test needs no Python.
func TestPRThresholdsAreNumpyLinspace(t *testing.T) {
	f, err := os.Open("testdata/linspace/linspace.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		want := sc.Text()
		if strings.HasPrefix(want, "#") {
			continue
		}
		n++
		if got := linspaceLine(linspace01(n)); got != want {
			t.Errorf("linspace of %d: %q, numpy %q", n, got, want)
		}
	}
	if err := sc.Err(); err != nil || n != 1000 {
		t.Fatalf("%d lines read (%v)", n, err)
	}
}

// TestPRCurveThresholdsAsWritersCount collects a PR curve of 127
// thresholds (tensorboardX's default), where 32 of numpy's thresholds
// differ from i / 126 in the last bit: the model holds numpy's.
func TestPRCurveThresholdsAsWritersCount(t *testing.T) {
	const n = 127
	vals := make([]float32, 6*n)
	dir := t.TempDir()
	writeFiles(t, dir, []file{{"events.out.tfevents.1.host", eventFile(t, fileVersion(),
		summary(1, tensorValue("pr", "pr_curves", floatTensor([]int64{6, n}, vals...))))}})
	run := findRun(collectDir(t, dir, Options{}), ".")
	if run == nil || len(run.PRCurves) != 1 {
		t.Fatal("no PR curve")
	}
	got := run.PRCurves[0].Entries[0].Thresholds
	if line, want := linspaceLine(got), "127 32 1f6f6a0625fd38d4"; line != want {
		t.Errorf("thresholds %q, numpy's linspace %q", line, want)
	}
}
