package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A report, inspect or collect whose memory passes --max-memory fails
// with its own message and exit status 1 (Go's fatal out-of-memory exits
// 2, the status of a usage error), writing nothing and leaving no
// temporary folder; a budget that is not a size is a usage error. (The
// budget here is below what any process holds at start, so the
// watchdog's first reading is over it; memlimit's tests watch one grow.)
func TestMemoryBudgetFailsWithItsOwnStatus(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	writeScalarLog(t, logs, "run", "loss")
	site, part := filepath.Join(dir, "site"), filepath.Join(dir, "part")
	for _, tc := range []struct {
		name string
		cmd  func(ctx context.Context, args []string, stdout, stderr io.Writer) int
		args []string
	}{
		{"report", run, []string{"-o", site, "--max-memory", "1MiB", logs}},
		{"inspect", runInspect, []string{"--max-memory", "1MiB", logs}},
		{"collect", runCollect, []string{"--shard", "0/1", "-o", part, "--max-memory", "1MiB", logs}},
	} {
		var stderr bytes.Buffer
		code := tc.cmd(context.Background(), tc.args, io.Discard, &stderr)
		if code != exitFailed || !strings.Contains(stderr.String(), "memory budget of 1.0 MiB exceeded") ||
			!strings.Contains(stderr.String(), "raise it with --max-memory") {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %d and the budget's message", tc.name, code, stderr.String(), exitFailed)
		}
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if n.Name() != "logs" {
			t.Errorf("%s written", n.Name())
		}
	}
	if code, stderr := runCLI(t, "-o", site, "--max-memory", "lots", logs); code != exitUsage || !strings.Contains(stderr, "want a size") {
		t.Errorf("--max-memory lots: exit %d, stderr:\n%s\nwant %d", code, stderr, exitUsage)
	}
	// The same report within a budget it fits is written.
	if code, stderr := runCLI(t, "-quiet", "-o", site, "--max-memory", "8GiB", logs); code != exitOK {
		t.Errorf("--max-memory 8GiB: exit %d, stderr:\n%s", code, stderr)
	}
}
