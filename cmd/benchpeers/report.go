//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// pointBytes is the size of one kept scalar point in trainreport's model
// (collect/model.Point: wall time float64, step int64, value float64).
const pointBytes = 24

func (r *row) best() time.Duration {
	if len(r.Samples) == 0 {
		return 0
	}
	return slices.MinFunc(r.Samples, func(a, b sample) int { return int(a.Wall - b.Wall) }).Wall
}

func median[T int64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *row) medians() (wall, cpu time.Duration, rssKB int64) {
	var ws, cs []time.Duration
	var rs []int64
	for _, s := range r.Samples {
		ws, cs, rs = append(ws, s.Wall), append(cs, s.CPU), append(rs, s.RSSKB)
	}
	return median(ws), median(cs), median(rs)
}

func printReport(w io.Writer, b *bench, rows []*row) {
	byKey := map[string]*row{}
	for _, r := range rows {
		byKey[r.Key] = r
	}
	e := b.exp
	fmt.Fprintf(w, "\nlogdir %s\n  %s; %s records\n", b.logdir, e.describe(), thousands(e.crc.Records))
	fmt.Fprintf(w, "machine: %s, %d cores, %.0f GiB; %s", cpuModel(), runtime.NumCPU(), memGiB(), runtime.Version())
	for _, k := range []string{"python", "tensorboard", "tbparse"} {
		if v := b.versions[k]; v != "" {
			fmt.Fprintf(w, ", %s %s", k, v)
		}
	}
	fmt.Fprintf(w, "\n\n")

	table := [][]string{{"tool", "runs", "wall s best", "wall s median", "CPU s", "peak RSS MB", "scalar points/s"}}
	for _, r := range rows {
		if len(r.Samples) == 0 {
			if r.Err == "" {
				continue
			}
			table = append(table, []string{r.Label, "0", "failed", "", "", "", ""})
			continue
		}
		mw, mc, mr := r.medians()
		table = append(table, []string{r.Label, fmt.Sprint(len(r.Samples)), fmt.Sprintf("%.2f", r.best().Seconds()),
			fmt.Sprintf("%.2f", mw.Seconds()), fmt.Sprintf("%.2f", mc.Seconds()), fmt.Sprintf("%.0f", float64(mr)/1024),
			thousands(int64(float64(e.points) / r.best().Seconds()))})
	}
	writeTable(w, table)
	fmt.Fprintf(w, "(CPU s and peak RSS are medians over the runs; points/s is scalar points over the best wall time)\n\n")

	ok := func(k string) bool { r := byKey[k]; return r != nil && len(r.Samples) > 0 }
	sec := func(k string) float64 { return byKey[k].best().Seconds() }
	if ok("collect") {
		c := sec("collect")
		if ok("crc") {
			fmt.Fprintf(w, "trainreport collect vs lower bound: %.2fx its wall time (%.2f s vs %.2f s; %.0f vs %.0f MB/s of event files)\n",
				c/sec("crc"), c, sec("crc"), float64(e.bytes)/1e6/c, float64(e.bytes)/1e6/sec("crc"))
		}
		for _, p := range []struct{ key, name string }{
			{"tb-rust", "TensorBoard's Rust loader"}, {"tb-python", "TensorBoard's Python loader"}} {
			if ok(p.key + "-loaded") {
				fmt.Fprintf(w, "trainreport collect vs %s: %.1fx faster to loaded (%.2f s vs %.2f s)", p.name, sec(p.key+"-loaded")/c, c, sec(p.key+"-loaded"))
				if ok(p.key + "-served") {
					fmt.Fprintf(w, ", %.1fx to every point served (%.2f s)", sec(p.key+"-served")/c, sec(p.key+"-served"))
				}
				fmt.Fprintln(w)
			}
		}
		if ok("tbparse") {
			fmt.Fprintf(w, "trainreport collect vs tbparse: %.1fx faster (%.2f s vs %.2f s)\n", sec("tbparse")/c, c, sec("tbparse"))
		}
		if ok("report") {
			fmt.Fprintf(w, "full report vs collect: %.2fx (%.2f s vs %.2f s): building and writing the report adds %.2f s\n",
				sec("report")/c, sec("report"), c, sec("report")-c)
			// The build-cost targets (docs/PERFORMANCE.md) are stated on
			// medians of interleaved runs, which a busy machine moves less
			// than the best.
			rw, _, rr := byKey["report"].medians()
			cw, _, crss := byKey["collect"].medians()
			fmt.Fprintf(w, "full report vs collect, medians: %.2fx the wall time (%.2f s vs %.2f s), %.2fx the peak RSS (%.0f MB vs %.0f MB)\n",
				rw.Seconds()/cw.Seconds(), rw.Seconds(), cw.Seconds(), float64(rr)/float64(crss), float64(rr)/1024, float64(crss)/1024)
			if ok("tb-rust-loaded") {
				fmt.Fprintf(w, "full report vs TensorBoard's Rust loader (loaded): %.1fx faster\n", sec("tb-rust-loaded")/sec("report"))
			}
		}
		if ok("part") {
			_, _, cr := byKey["collect"].medians()
			_, _, pr := byKey["part"].medians()
			fmt.Fprintf(w, "part collection vs collect: %.2fx its wall time (%.2f s vs %.2f s), peak memory %.0f MB vs %.0f MB (%+.0f%%; the target is at most +10%%)\n",
				sec("part")/c, sec("part"), c, float64(pr)*1024/1e6, float64(cr)*1024/1e6, 100*(float64(pr)/float64(cr)-1))
		}
		kept := float64(e.points * pointBytes)
		_, _, cr := byKey["collect"].medians()
		fmt.Fprintf(w, "peak memory vs the data the report keeps (%s points x %d B = %.0f MB): collect %.0f MB (%.2fx)",
			thousands(e.points), pointBytes, kept/1e6, float64(cr)*1024/1e6, float64(cr)*1024/kept)
		if ok("report") {
			_, _, rr := byKey["report"].medians()
			fmt.Fprintf(w, ", full report %.0f MB (%.2fx)", float64(rr)*1024/1e6, float64(rr)*1024/kept)
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\nnotes:\n")
	if b.wants(toolTBRust) || b.wants(toolTBPython) {
		fmt.Fprintf(w, "- TensorBoard runs with --samples_per_plugin scalars=%d (scalars=0 keeps every point but makes 2.21's scalars plugin serve none) and its other defaults (--reload_interval 5, --max_reload_threads 1).\n", b.tbSamples)
		fmt.Fprintf(w, "- TensorBoard loaded = its HTTP API on 127.0.0.1 serves the last step of every run: polled %v after each answer with one timeSeries request asking for each pending run's image tag (at most 10 items; the newest is always kept) until it serves the image logged in the run's last event; a run without such an image is polled on one scalar tag until it serves its last step (no sooner than %dx that request's latency times the runs pending: it reads a whole series). Every point served = then every scalar tag read once in full from /data/plugin/scalars/scalars, checking its last step and point count (first %d run(s) of each loader). CPU (utime+stime) and peak RSS (VmHWM) are summed over the process tree at each milestone.\n", b.poll, overheadFactor, b.verifyRuns)
	}
	for _, r := range rows {
		for _, n := range r.Notes {
			fmt.Fprintf(w, "- %s: %s\n", r.Label, n)
		}
		if r.Err != "" {
			fmt.Fprintf(w, "- %s: FAILED: %s\n", r.Label, firstLine(r.Err))
		}
	}
}

// writeTable prints rows as columns, the first left-aligned and the others
// right-aligned, the header underlined.
func writeTable(w io.Writer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(r []string) {
		var b strings.Builder
		for i, c := range r {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				fmt.Fprintf(&b, "  %*s", width[i], c)
			}
		}
		fmt.Fprintln(w, b.String())
	}
	line(rows[0])
	rule := make([]string, len(width))
	for i, n := range width {
		rule[i] = strings.Repeat("-", n)
	}
	line(rule)
	for _, r := range rows[1:] {
		line(r)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func memGiB() float64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	var kb float64
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			fmt.Sscan(rest, &kb)
		}
	}
	return kb / (1 << 20)
}
