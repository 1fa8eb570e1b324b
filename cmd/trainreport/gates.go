package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/gate"
	"github.com/trainreport/trainreport/internal/summary"
	"github.com/trainreport/trainreport/render"
)

// warningsGate is what --fail-on-warnings adds: any warning, or any file
// skipped or read in part for a reason other than being empty.
const warningsGate = "any(warning) or any(damaged)"

// gateFlags defines --fail-on (repeatable), --fail-on-warnings,
// --baseline and --baseline-threshold on fs. Each --fail-on is parsed as
// it is given, so that an error in one is a usage error naming its
// column, before any log is read.
func gateFlags(fs *flag.FlagSet, c *config) {
	fs.Func("fail-on", "fail with exit status 3 when `EXPR` holds over summary.json, e.g. 'loss.last > 0.5', 'any(anomaly)', "+
		"'loss.last > baseline.loss.last * 1.02', 'any(regression)' (repeatable; the language is in docs/GATES.md)", func(s string) error {
		g, err := gate.Parse(s)
		if err != nil {
			// Said once, as "--fail-on EXPR: column N: ...", rather than
			// in the flag package's words, which repeat the expression.
			c.flagErr = fmt.Errorf("--fail-on %q: %w", s, err)
			return c.flagErr
		}
		c.gates = append(c.gates, g)
		return nil
	})
	fs.BoolVar(&c.failOnWarnings, "fail-on-warnings", false, "fail with exit status 3 when the logs raised a warning or a file was damaged, truncated or skipped (empty files aside): the gate '"+warningsGate+"'")
	fs.StringVar(&c.baseline, "baseline", "", "compare with an earlier report: its summary.json `PATH`, or a log directory (read too); regressions are flagged and gates can read baseline.TAG.FIELD")
	fs.Func("charts-url", "summary.md shows its charts from `URL` (chart-1.svg... appended) instead of charts/ beside it: where a CI step uploaded the site's charts/, for a comment or job summary, which show no relative image", func(s string) error {
		u, err := url.Parse(s)
		// Nothing that could end the Markdown image's address early.
		if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || strings.ContainsAny(s, " \t\n()<>[]\"'`\\") {
			return fmt.Errorf("%q: want an http or https URL", s)
		}
		if !strings.HasSuffix(s, "/") {
			s += "/"
		}
		c.chartsURL = s
		return nil
	})
	fs.Float64Var(&c.threshold, "baseline-threshold", analysis.DefaultRegressionThreshold, "flag a metric as a regression when its last or best value is worse than the baseline's by more than this `FRACTION`")
}

// checkGates refuses, before any log is read, gates that read a baseline
// when none was given, and a threshold that is not a fraction.
func checkGates(c *config) error {
	if c.failOnWarnings {
		g, err := gate.Parse(warningsGate)
		if err != nil {
			return fmt.Errorf("internal: %w", err)
		}
		c.gates = append(c.gates, g)
	}
	for _, g := range c.gates {
		if g.UsesBaseline() && c.baseline == "" {
			return fmt.Errorf("--fail-on %q reads the baseline: give --baseline PATH", g)
		}
	}
	if !(c.threshold >= 0 && c.threshold < 10) {
		return errors.New("--baseline-threshold must be a fraction between 0 and 10 (0.02 is 2%)")
	}
	return nil
}

// loadBaseline reads --baseline: a summary.json, or a log directory,
// collected with the report's options and analysed as the report is (its
// summary is analysis.SummaryOf, no summary.json is written nor read). A
// baseline that cannot be read, or is not a summary.json, is an error of
// the command line (exit status 2, as docs/GATES.md says), found before
// the logs are read; only a cancellation is not.
func loadBaseline(ctx context.Context, c *config, opt collect.Options) (*analysis.Baseline, error) {
	sum, runs, err := readBaseline(ctx, c.baseline, opt, c.maxPoints)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, usageError{err}
	}
	return &analysis.Baseline{Source: c.baseline, Summary: sum, Threshold: c.threshold, Runs: runs}, nil
}

// readBaseline is the summary of the baseline at path, its errors
// unclassified, and for a log directory what the charts draw of its runs'
// scalar series (analysis.BaselineRuns: maxPoints a series; the rest of
// its model is let go).
func readBaseline(ctx context.Context, path string, opt collect.Options, maxPoints int) (*summary.File, []*model.Run, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--baseline: %w", err)
	}
	if st.IsDir() {
		logdirs, err := collect.ParseLogdirs([]string{path})
		if err != nil {
			return nil, nil, fmt.Errorf("--baseline: %w", err)
		}
		opt.Progress = nil
		rep, err := collect.Collect(ctx, logdirs, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("--baseline %s: %w", path, err)
		}
		defer rep.Close()
		// Its summary.json shows no layout of its embeddings.
		an, err := analysis.Build(ctx, rep, analysis.Options{SummaryOnly: true})
		if err != nil {
			return nil, nil, fmt.Errorf("--baseline %s: %w", path, err)
		}
		return analysis.SummaryOf(rep, an), analysis.BaselineRuns(rep.Runs, maxPoints), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--baseline: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, summary.MaxSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("--baseline %s: %w", path, err)
	}
	sum, err := summary.Read(b)
	if err != nil {
		return nil, nil, fmt.Errorf("--baseline %s: %w", path, err)
	}
	return sum, nil, nil
}

// failedGates are the gates of the analysis that failed.
func failedGates(an *result.Analysis) []result.Gate {
	var out []result.Gate
	for _, g := range an.Gates {
		if g.Failed {
			out = append(out, g)
		}
	}
	return out
}

// gateError is the verdict of failed gates: exit status 3.
type gateError struct{ failed []result.Gate }

func (e gateError) Error() string {
	lines := make([]string, len(e.failed))
	for i, f := range e.failed {
		lines[i] = "gate failed: " + f.Text
	}
	return strings.Join(lines, "\ntrainreport: ")
}

// chartsFrom is the site's charts folder as summary.md written at file
// names it: relative to the file's folder, with slashes.
func chartsFrom(file, out string) string {
	dir, err1 := filepath.Abs(filepath.Dir(file))
	site, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(dir, site); err == nil {
			return filepath.ToSlash(rel) + "/" + render.ChartsDir
		}
	}
	return filepath.ToSlash(out) + "/" + render.ChartsDir
}
