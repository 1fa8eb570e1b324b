//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/tfrecord"
)

func TestParseScalars(t *testing.T) {
	for _, c := range []struct {
		body    string
		n, last int64
	}{
		{"[]", 0, -1},
		{" [[1700000000.5, 0, 0.25]]\n", 1, 0},
		{`[[1.0, 0, 1.5], [2.0, 7, "NaN"], [3.0, 249999, "-Infinity"]]`, 3, 249999},
	} {
		n, last, err := parseScalars([]byte(c.body))
		if err != nil || n != c.n || last != c.last {
			t.Errorf("parseScalars(%q) = %d, %d, %v; want %d, %d", c.body, n, last, err, c.n, c.last)
		}
	}
	for _, bad := range []string{"", "{}", "[[1.0, 0"} {
		if _, _, err := parseScalars([]byte(bad)); err == nil {
			t.Errorf("parseScalars(%q) succeeded", bad)
		}
	}
}

func TestParseInspect(t *testing.T) {
	in := `{"runs": [
	 {"name": "a", "files": [{"bytes": 10}], "tags": [
	   {"tag": "loss", "kind": "scalar", "count": 5, "last_step": 4},
	   {"tag": "acc", "kind": "scalar", "count": 5, "last_step": 9},
	   {"tag": "img", "kind": "image", "count": 2, "last_step": 9},
	   {"tag": "w", "kind": "histogram", "count": 1, "last_step": 0}]},
	 {"name": "b", "files": [{"bytes": 5}], "tags": [{"tag": "img", "kind": "image", "count": 1, "last_step": 1}]}],
	 "warnings": []}`
	e, err := parseInspect([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.runs) != 1 || e.points != 10 || e.scalarTags != 2 || e.histTags != 1 || e.imageTags != 2 || e.files != 2 || e.bytes != 15 {
		t.Errorf("parseInspect = %+v", e)
	}
	if p := e.runs[0].probe(); p.tag != "acc" || e.runs[0].image == nil || e.runs[0].image.last != 9 {
		t.Errorf("probe %+v, image %+v", p, e.runs[0].image)
	}
}

// TestCRCOnly reads a run with one damaged record: every record is
// counted, the damaged one as damaged, and reading goes on.
func TestCRCOnly(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w := tfrecord.NewWriter(&buf)
	for _, rec := range []string{"one", "two", "three"} {
		if err := w.Write([]byte(rec)); err != nil {
			t.Fatal(err)
		}
	}
	data := buf.Bytes()
	data[12+3+4+12] ^= 0xff // the first data byte of the second record
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "events.out.tfevents.1.test"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := crcOnly(context.Background(), dir, &out); err != nil {
		t.Fatal(err)
	}
	var got crcResult
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if want := (crcResult{Files: 1, Records: 3, Damaged: 1, Bytes: int64(len(data))}); got != want {
		t.Errorf("crcOnly = %+v, want %+v", got, want)
	}
}

func TestRunProcess(t *testing.T) {
	var out strings.Builder
	s, err := runProcess(context.Background(), 10*time.Second, &out, nil, "sh", "-c", "echo hi")
	if err != nil || out.String() != "hi\n" || s.Wall <= 0 || s.RSSKB <= 0 {
		t.Errorf("runProcess = %+v, %v, output %q", s, err, out.String())
	}
	start := time.Now()
	if _, err := runProcess(context.Background(), 200*time.Millisecond, nil, nil, "sh", "-c", "sleep 30 & sleep 30"); err == nil {
		t.Error("runProcess did not time out")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

func TestHelpers(t *testing.T) {
	if got := thousands(20000000); got != "20,000,000" {
		t.Errorf("thousands = %s", got)
	}
	if got := thousands(999); got != "999" {
		t.Errorf("thousands = %s", got)
	}
	if got := median([]int64{5, 1, 3}); got != 3 {
		t.Errorf("median = %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 {
		t.Errorf("median = %d", got)
	}
	if tree := processTree(os.Getpid()); len(tree) == 0 || tree[0].pid != os.Getpid() || tree[0].hwmKB <= 0 {
		t.Errorf("processTree(self) = %+v", tree)
	}
}
