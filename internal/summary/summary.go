// Package summary reads back a report's summary.json: what a CI gate
// evaluates (package gate) and what a later report compares itself with
// (--baseline). It reads only the fields those need, so a summary.json of an
// older or newer report still reads.
package summary

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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

// Read decodes a summary.json.
func Read(b []byte) (*File, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("summary.json of %d bytes: more than the %d read", len(b), MaxSize)
	}
	var raw struct {
		Runs []struct {
			Name  string `json:"name"`
			Files []struct {
				Status string `json:"status"`
			} `json:"files"`
			Warnings []json.RawMessage `json:"warnings"`
		} `json:"runs"`
		Metrics map[string]map[string]struct {
			Points    int       `json:"points"`
			NonFinite int       `json:"non_finite"`
			Last      *rawPoint `json:"last"`
			Min       *rawPoint `json:"min"`
			Max       *rawPoint `json:"max"`
			Better    string    `json:"better"`
		} `json:"metrics"`
		Anomalies []struct {
			Rule    string `json:"rule"`
			Run     string `json:"run"`
			Tag     string `json:"tag"`
			Step    *int64 `json:"step"`
			Message string `json:"message"`
		} `json:"anomalies"`
		Warnings []json.RawMessage `json:"warnings"`
		Baseline *struct {
			Metrics map[string]map[string]struct {
				Regressed bool     `json:"regressed"`
				Why       []string `json:"why"`
			} `json:"metrics"`
		} `json:"baseline"`
	}
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
			mt := Metric{Points: s.Points, NonFinite: s.NonFinite, Last: Point(*s.Last), Better: s.Better}
			if s.Min != nil {
				p := Point(*s.Min)
				mt.Min = &p
			}
			if s.Max != nil {
				p := Point(*s.Max)
				mt.Max = &p
			}
			m[tag] = mt
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

// rawPoint reads a point whose value is a number or one of the strings
// summary.json writes for NaN and the infinities.
type rawPoint struct {
	Step  int64
	Value float64
}

func (p *rawPoint) UnmarshalJSON(b []byte) error {
	var raw struct {
		Step  int64           `json:"step"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	p.Step = raw.Step
	v := bytes.TrimSpace(raw.Value)
	switch string(v) {
	case `"NaN"`:
		p.Value = math.NaN()
	case `"Infinity"`:
		p.Value = math.Inf(1)
	case `"-Infinity"`:
		p.Value = math.Inf(-1)
	default:
		if err := json.Unmarshal(v, &p.Value); err != nil {
			return fmt.Errorf("value %s: %w", v, err)
		}
	}
	return nil
}
