package memlimit

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// deadline bounds each wait of these tests for the watchdog: a failure,
// never a pause (each wait ends as soon as the watchdog acts).
const deadline = time.Minute

// A command whose memory passes the budget has its context cancelled,
// with an *ExceededError naming the budget, the memory in use and what
// the command was doing; the soft limit is set under the budget while it
// runs and restored after.
func TestWatchdogCancelsPastTheBudget(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT sets the soft limit")
	}
	// Garbage counted now and freed under the soft limit would let what
	// the test holds fit: the budget is set over live memory only.
	debug.FreeOSMemory()
	limit := inUse() + 32<<20
	ctx, stop := Start(context.Background(), Options{Limit: limit, Every: time.Millisecond})
	if err := ctx.Err(); err != nil {
		t.Fatalf("cancelled before passing the budget: %v", context.Cause(ctx))
	}
	if soft := debug.SetMemoryLimit(-1); soft != int64(float64(limit)*softFraction) {
		t.Errorf("soft limit %d while watched, want %d", soft, int64(float64(limit)*softFraction))
	}
	Phase(ctx, "reading the logs")
	held := make([]byte, 128<<20) // live until the watchdog has seen it
	select {
	case <-ctx.Done():
	case <-time.After(deadline):
		t.Fatalf("%d bytes more than the budget allow, and no cancel", len(held))
	}
	runtime.KeepAlive(held)
	stop()
	e := Exceeded(ctx)
	if e == nil || e.Limit != limit || e.Used <= limit || e.During != "reading the logs" {
		t.Fatalf("cause %v, want an ExceededError of %d bytes while reading the logs", context.Cause(ctx), limit)
	}
	if soft := debug.SetMemoryLimit(-1); soft != math.MaxInt64 {
		t.Errorf("soft limit %d after stop, want none", soft)
	}
}

// A budget passed already is known before any work: the context Start
// returns is cancelled.
func TestBudgetPassedAtStartCancelsAtOnce(t *testing.T) {
	ctx, stop := Start(context.Background(), Options{Limit: 1 << 20, Every: time.Hour})
	defer stop()
	e := Exceeded(ctx)
	if ctx.Err() == nil || e == nil || e.Limit != 1<<20 {
		t.Fatalf("err %v, cause %v; want cancelled by the budget", ctx.Err(), context.Cause(ctx))
	}
	if want := "memory budget of 1.0 MiB exceeded ("; !strings.HasPrefix(e.Error(), want) {
		t.Errorf("message %q, want it to begin %q", e.Error(), want)
	}
}

// A command that does not return once cancelled (a step that checks no
// context) and still holds more than 9/8 of the budget at the next
// reading is ended by Hard, with the error that cancelled it.
func TestHardEndsACommandThatDoesNotStop(t *testing.T) {
	debug.FreeOSMemory()
	hard := make(chan *ExceededError, 1)
	ctx, stop := Start(context.Background(), Options{Limit: inUse() + 32<<20, Every: time.Millisecond, Grace: time.Hour,
		Hard: func(e *ExceededError) { hard <- e }})
	defer stop()
	held := make([]byte, 256<<20) // past 9/8 of the budget: the command holds on
	defer runtime.KeepAlive(held)
	select {
	case e := <-hard:
		if e != Exceeded(ctx) {
			t.Errorf("Hard got %v, the context's cause is %v", e, context.Cause(ctx))
		}
	case <-time.After(deadline):
		t.Fatal("Hard never called")
	}
}

// Without a budget nothing is watched or set.
func TestNoBudgetWatchesNothing(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	ctx, stop := Start(context.Background(), Options{})
	defer stop()
	if ctx != context.Background() || debug.SetMemoryLimit(-1) != before {
		t.Error("Start without a limit changed the context or the soft limit")
	}
	Phase(ctx, "nothing") // no watchdog: nothing to record, no panic
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"0", 0}, {"1048576", 1 << 20}, {"4GiB", 4 << 30}, {"4G", 4 << 30}, {"1.5GiB", 3 << 29},
		{"500MB", 500e6}, {"2 MiB", 2 << 20}, {"10k", 10 << 10}, {"10kB", 10e3}, {"7B", 7},
	} {
		if got, err := ParseSize(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "lots", "-1G", "NaN", "Inf", "1e30", "4 GiBs", "G"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[uint64]string{900: "900 B", 1 << 20: "1.0 MiB", 3 << 29: "1.5 GiB", 1 << 40: "1.0 TiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// The default is the least bound known, each at its fraction; none known
// is no budget.
func TestDefaultTakesTheLeastBound(t *testing.T) {
	n, what := pick([]reading{{0, 0.75, "cgroup"}, {16 << 30, 0.75, "available"}, {4 << 30, 0.5, "ulimit -v"}})
	if n != 2<<30 || what != "ulimit -v" {
		t.Errorf("pick = %d, %q; want 2 GiB of ulimit -v", n, what)
	}
	n, what = pick([]reading{{8 << 30, 0.75, "cgroup"}, {16 << 30, 0.75, "available"}})
	if n != 6<<30 || what != "cgroup" {
		t.Errorf("pick = %d, %q; want 6 GiB of the cgroup", n, what)
	}
	if n, what := pick(nil); n != 0 || what != "" {
		t.Errorf("pick(nil) = %d, %q; want no budget", n, what)
	}
}
