// Package summary holds the types of a report's summary.json (json.go),
// which render fills and writes and Read reads back, and File, what a CI
// gate evaluates (package gate) and what a later report compares itself
// with (--baseline). Read ignores the fields it does not know, so a
// summary.json of an older or newer report still reads.
package summary

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// MaxSize bounds the summary.json read back: a report's own lists every
// run and tag once (a sweep of 10,000 series is a few MB).
const MaxSize = 256 << 20

// File is what a gate and a baseline read of a summary.json.
type File struct {
	// Runs are the run names in the report's order, those without
	// scalars included.
	Runs []string
	// Metrics holds each run's key metrics by tag.
	Metrics map[string]map[string]Metric
	// Anomalies are those the report found (summary.json's anomalies).
	Anomalies []Anomaly
	// Regressions are the series the comparison with a baseline flagged
	// (summary.json's baseline), by run and tag.
	Regressions []Regression
	// Warnings counts the report's warnings, of runs and of log
	// directories; Damaged counts files skipped or read in part for a
	// reason other than being empty.
	Warnings, Damaged int
}

// Metric is a series' key metrics. Min and Max are over finite values,
// nil when there are none.
type Metric struct {
	Points, NonFinite int
	Last              Point
	Min, Max          *Point
	// Better is "lower", "higher" or "" (unknown): which way the tag's
	// name says is better.
	Better string
}

// Best is the best point by the metric's direction, nil when the
// direction is unknown or no value is finite.
func (m Metric) Best() *Point {
	switch m.Better {
	case "lower":
		return m.Min
	case "higher":
		return m.Max
	}
	return nil
}

// Regression is a series flagged as worse than the baseline's.
type Regression struct {
	Run, Tag string
	Why      []string
}

// Point is a step and its value (NaN and ±Inf included).
type Point struct {
	Step  int64
	Value float64
}

// Anomaly is one of summary.json's anomalies; Run and Tag are "" for
// what concerns the whole report or run.
type Anomaly struct {
	Rule, Run, Tag, Message string
	Step                    *int64
}

// Damaged reports whether a file of this status (summary.json's
// files[].status, model.File.Status) counts as damaged: skipped or read in
// part for a reason other than having nothing to read.
func Damaged(status string) bool {
	switch status {
	case "ok", "empty", "profile-empty":
		return false
	}
	return true
}

// Read decodes a summary.json into the view a gate reads.
func Read(b []byte) (*File, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("summary.json of %d bytes: more than the %d read", len(b), MaxSize)
	}
	var raw JSON
	if err := json.Unmarshal(b, &raw); err != nil {
		// The type error names Go's whole struct: say what the file holds.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			where := "the top level"
			if te.Field != "" {
				where = fmt.Sprintf("%q", te.Field)
			}
			return nil, fmt.Errorf("not a summary.json: a JSON %s at %s (offset %d)", te.Value, where, te.Offset)
		}
		return nil, fmt.Errorf("not a summary.json: %w", err)
	}
	if raw.Metrics == nil && raw.Runs == nil {
		return nil, errors.New("not a summary.json: neither runs nor metrics")
	}
	f := &File{Metrics: map[string]map[string]Metric{}, Warnings: len(raw.Warnings)}
	for _, r := range raw.Runs {
		f.Runs = append(f.Runs, r.Name)
		f.Warnings += len(r.Warnings)
		for _, fl := range r.Files {
			if Damaged(fl.Status) {
				f.Damaged++
			}
		}
	}
	for run, tags := range raw.Metrics {
		m := map[string]Metric{}
		for tag, s := range tags {
			if s.Last == nil {
				return nil, fmt.Errorf("metrics[%q][%q]: no last point", run, tag)
			}
			m[tag] = Metric{Points: s.Points, NonFinite: s.NonFinite, Last: *s.Last.point(), Min: s.Min.point(), Max: s.Max.point(), Better: s.Better}
		}
		f.Metrics[run] = m
	}
	if raw.Baseline != nil {
		for run, tags := range raw.Baseline.Metrics {
			for tag, d := range tags {
				if d.Regressed {
					f.Regressions = append(f.Regressions, Regression{Run: run, Tag: tag, Why: d.Why})
				}
			}
		}
		slices.SortFunc(f.Regressions, func(a, b Regression) int {
			return cmp.Or(cmp.Compare(a.Run, b.Run), cmp.Compare(a.Tag, b.Tag))
		})
	}
	for _, a := range raw.Anomalies {
		f.Anomalies = append(f.Anomalies, Anomaly{Rule: a.Rule, Run: a.Run, Tag: a.Tag, Step: a.Step, Message: a.Message})
	}
	return f, nil
}

// point is p as a gate reads it, nil for nil.
func (p *StatPoint) point() *Point {
	if p == nil {
		return nil
	}
	return &Point{Step: p.Step, Value: p.Value.V}
}
