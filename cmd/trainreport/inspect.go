package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/memlimit"
	"github.com/trainreport/trainreport/internal/summary"
)

// inspectJSON is the shape of `trainreport inspect --json` (see docs/USAGE.md).
type inspectJSON struct {
	Runs     []inspectRun      `json:"runs"`
	Warnings []summary.Warning `json:"warnings"`
}

type inspectRun struct {
	Name     string           `json:"name"`
	Logdir   string           `json:"logdir"`
	Path     string           `json:"path"`
	Files    []inspectFile    `json:"files"`
	Attempts []inspectAttempt `json:"attempts,omitempty"`
	Tags     []inspectTag     `json:"tags"`
	// NotDrawn is the data the run holds that no page of the report
	// draws yet (graphs, embeddings...).
	NotDrawn []inspectNotDrawn `json:"not_drawn"`
	// Graphs are the run's model graphs with their node and edge counts.
	Graphs   []result.GraphCount `json:"graphs"`
	Warnings []summary.Warning   `json:"warnings"`
}

type inspectNotDrawn struct {
	What  string `json:"what"` // in the singular: "graph", "embedding"
	Count int    `json:"count"`
}

// inspectFile is a log file as summary.json lists it, with its format.
type inspectFile struct {
	summary.LogFile
	// Format names a format other than TensorBoard's event files
	// ("mindspore", "mindspore-lineage").
	Format string `json:"format,omitempty"`
}

// inspectAttempt is an attempt of a run that restarted (docs/FORMATS.md
// section 18).
type inspectAttempt struct {
	Files      []string `json:"files"`
	FirstStep  int64    `json:"first_step"`
	LastStep   int64    `json:"last_step"`
	Points     int      `json:"points"`
	Superseded int      `json:"superseded_points"`
}

type inspectTag struct {
	Tag       string `json:"tag"`
	Kind      string `json:"kind"`
	Plugin    string `json:"plugin"`
	DataClass string `json:"data_class"`
	// Count is the values on the tag's line (the latest write of each
	// step), Superseded those restarts and rewrites took off it (kept and
	// drawn apart by default): together, every value read.
	Count      int     `json:"count"`
	Superseded int     `json:"superseded"`
	FirstStep  int64   `json:"first_step"`
	LastStep   int64   `json:"last_step"`
	FirstWall  float64 `json:"first_wall_time"`
	LastWall   float64 `json:"last_wall_time"`
}

// runInspect is `trainreport inspect`: what each run's files hold, per tag,
// without writing a report.
func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trainreport inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	help := helpFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	keepAll := fs.Bool("keep-all-records", false, "keep every record in arrival order, applying no restart rule (not with --restarts)")
	var restarts string
	restartsFlag(fs, &restarts)
	var memory maxMemory
	memoryFlag(fs, &memory)
	var dirs logdirArgs
	dirs.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: trainreport inspect [--json] LOGDIR|NAME=LOGDIR ...\n\n"+
			"Lists each run's files and, per tag, its kind, plugin, data class, value count, and first and last step and wall time.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := dirs.parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *help {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	}
	if err := dirs.check(); err != nil {
		fmt.Fprintf(stderr, "trainreport: %v\n", err)
		return 2
	}
	if dirs.none() {
		fs.Usage()
		fmt.Fprintln(stderr, "trainreport: no log directory given")
		return 2
	}
	if err := checkRestarts(fs, restarts, *keepAll); err != nil {
		fmt.Fprintf(stderr, "trainreport: %v\n", err)
		return 2
	}
	ctx, stop, memoryFailed := guardMemory(ctx, memory, "trainreport", stderr)
	defer stop()
	memlimit.Phase(ctx, "reading the logs")
	asked, err := dirs.resolve()
	if err == nil {
		logdirs := logdirsOf(asked)
		var rep *model.Report
		if rep, err = collect.Collect(ctx, logdirs, collect.Options{KeepAllRecords: *keepAll, Restarts: model.RestartRule(restarts)}); err == nil {
			defer rep.Close()
			if *asJSON {
				err = writeInspectJSON(stdout, rep)
			} else {
				err = writeInspectText(stdout, rep)
			}
		}
	}
	if msg, ok := memoryFailed(err); ok {
		fmt.Fprintln(stderr, msg)
		return exitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "trainreport: %v\n", err)
		return 1
	}
	return 0
}

func inspectOf(rep *model.Report) inspectJSON {
	out := inspectJSON{Runs: []inspectRun{}, Warnings: summary.Warnings(rep.Warnings)}
	notDrawn := map[string]result.UndrawnRun{}
	for _, u := range analysis.Undrawn(rep) {
		notDrawn[u.Run] = u
	}
	for _, r := range rep.Runs {
		ir := inspectRun{Name: r.Name, Logdir: r.Logdir, Path: r.Path, Files: []inspectFile{}, Tags: []inspectTag{},
			NotDrawn: []inspectNotDrawn{}, Graphs: analysis.GraphCounts(r), Warnings: summary.Warnings(r.Warnings)}
		if ir.Graphs == nil {
			ir.Graphs = []result.GraphCount{}
		}
		for _, it := range notDrawn[r.Name].Items {
			ir.NotDrawn = append(ir.NotDrawn, inspectNotDrawn{What: it.What, Count: it.N})
		}
		for _, f := range r.LogFiles() {
			ir.Files = append(ir.Files, inspectFile{summary.LogFileOf(f), f.Format})
		}
		for _, a := range r.Attempts {
			ir.Attempts = append(ir.Attempts, inspectAttempt{Files: a.Files, FirstStep: a.FirstStep, LastStep: a.LastStep,
				Points: a.Points, Superseded: a.Superseded})
		}
		for _, t := range r.Tags {
			ir.Tags = append(ir.Tags, inspectTag{Tag: t.Tag, Kind: string(t.Kind), Plugin: t.Plugin, DataClass: t.DataClass,
				Count: t.Count, Superseded: t.Superseded, FirstStep: t.FirstStep, LastStep: t.LastStep, FirstWall: t.FirstWall, LastWall: t.LastWall})
		}
		out.Runs = append(out.Runs, ir)
	}
	return out
}

func writeInspectJSON(w io.Writer, rep *model.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(inspectOf(rep))
}

func writeInspectText(w io.Writer, rep *model.Report) error {
	notDrawn := map[string]result.UndrawnRun{}
	for _, u := range analysis.Undrawn(rep) {
		notDrawn[u.Run] = u
	}
	for _, wr := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", printable(wr.String()))
	}
	for i, r := range rep.Runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "run %s\n", quoteIfOdd(r.Name))
		// Files and tags are two tables, each aligned on its own.
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range r.LogFiles() {
			format := ""
			if f.Format != "" {
				format = "\t" + f.Format
			}
			fmt.Fprintf(tw, "  file\t%s\t%s\t%s\t%s%s\n", quoteIfOdd(f.Rel), plural(f.Size, "byte"), plural(f.Records, "record"), f.Status, format)
		}
		tw.Flush()
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for k, a := range r.Attempts {
			files := make([]string, len(a.Files))
			for i, f := range a.Files {
				files[i] = quoteIfOdd(f)
			}
			fmt.Fprintf(tw, "  attempt %d\tsteps %d..%d\t%d points\t%d superseded\t%s\n", k+1, a.FirstStep, a.LastStep, a.Points, a.Superseded, strings.Join(files, " "))
		}
		tw.Flush()
		for _, wr := range r.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", printable(wr.String()))
		}
		if u, ok := notDrawn[r.Name]; ok {
			fmt.Fprintf(w, "  not drawn yet: %s\n", printable(u.String())) // embedding names come from the logs
		}
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, g := range analysis.GraphCounts(r) {
			fmt.Fprintf(tw, "  graph\t%s\t%s\tstep %d\t%s\t%s\n", g.Source, quoteIfOdd(orDash(g.Tag)), g.Step, plural(int64(g.Nodes), "node"), plural(int64(g.Edges), "edge"))
		}
		tw.Flush()
		if len(r.Tags) == 0 {
			continue
		}
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "  TAG\tKIND\tPLUGIN\tDATA CLASS\tCOUNT\tSTEPS\tWALL TIME (UTC)\n")
		for _, t := range r.Tags {
			count := strconv.Itoa(t.Count)
			if t.Superseded > 0 {
				count += fmt.Sprintf(" (+%d superseded)", t.Superseded)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%d..%d\t%s .. %s\n", quoteIfOdd(t.Tag), t.Kind, printable(orDash(t.Plugin)), t.DataClass,
				count, t.FirstStep, t.LastStep, wallText(t.FirstWall), wallText(t.LastWall))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// quoteIfOdd quotes names holding spaces or control characters, so that
// every name reads as one column.

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func wallText(w float64) string {
	if w <= 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return "-"
	}
	sec, frac := math.Modf(w)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02 15:04:05")
}
