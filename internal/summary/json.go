package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The types of summary.json, declared once: render fills them and
// marshals them, Read unmarshals them. A field's order is the order the
// file writes it in.

// JSON is summary.json: the runs and their key metrics, for scripts and
// CI gates.
type JSON struct {
	Title string `json:"title"`
	// Restarts is the rule that made the series' lines (attempts, latest,
	// tensorboard), or keep-all-records: whether superseded points were
	// kept.
	Restarts string                     `json:"restarts"`
	Runs     []Run                      `json:"runs"`
	Metrics  map[string]map[string]Stat `json:"metrics"` // run -> tag -> stats
	Warnings []Warning                  `json:"warnings"`
	// Gates are the verdicts of --fail-on, when given; Baseline compares
	// with --baseline, when given.
	Gates    []Gate      `json:"gates,omitempty"`
	Baseline *Comparison `json:"baseline,omitempty"`
	// Anomalies are what internal/analysis/anomaly's rules found (docs/ANOMALIES.md).
	Anomalies []AnomalyEntry `json:"anomalies"`
}

// Run is a run of summary.json: its files and span. The span's fields
// are null for a run without events.
type Run struct {
	Name            string    `json:"name"`
	Logdir          string    `json:"logdir"`
	Path            string    `json:"path"`
	Files           []LogFile `json:"files"`
	FirstStep       *int64    `json:"first_step"`
	LastStep        *int64    `json:"last_step"`
	StartTime       *Float    `json:"start_time"`
	EndTime         *Float    `json:"end_time"`
	DurationSeconds *Float    `json:"duration_seconds"`
	RestartDropped  int       `json:"restart_dropped_points"`
	Attempts        []Attempt `json:"attempts,omitempty"`
	// Graphs are the run's model graphs with their node and edge counts,
	// for runs that have any.
	Graphs   []result.GraphCount `json:"graphs,omitempty"`
	Warnings []Warning           `json:"warnings"`
}

// Attempt is an attempt of a run that restarted.
type Attempt struct {
	Attempt    int      `json:"attempt"`
	Files      []string `json:"files"`
	FirstStep  int64    `json:"first_step"`
	LastStep   int64    `json:"last_step"`
	Points     int      `json:"points"`
	Superseded int      `json:"superseded_points"`
}

// Stat is a series' key metrics. Min and Max are over finite values,
// null when there are none.
type Stat struct {
	Points    int        `json:"points"`
	NonFinite int        `json:"non_finite"`
	Last      *StatPoint `json:"last"`
	Min       *StatPoint `json:"min"`
	Max       *StatPoint `json:"max"`
	// Better is which way the tag's name says is better: "lower",
	// "higher", or "" when it says neither (or both).
	Better string `json:"better"`
}

// StatPoint is a point of a series' key metrics.
type StatPoint struct {
	Step     int64  `json:"step"`
	WallTime Float  `json:"wall_time"`
	Value    Scalar `json:"value"`
}

// Gate is the verdict of a --fail-on gate.
type Gate struct {
	Expr   string `json:"expr"`
	Failed bool   `json:"failed"`
	Held   []Held `json:"held"`
	Runs   int    `json:"runs"`
	Error  string `json:"error,omitempty"`
	Text   string `json:"text"`
}

// Held is a run a gate held for, with the values it read.
type Held struct {
	Run    string   `json:"run"`
	Values []string `json:"values"`
}

// Comparison is summary.json's "baseline": the comparison with --baseline.
type Comparison struct {
	Source      string                      `json:"source"`
	Threshold   float64                     `json:"threshold"`
	Compared    int                         `json:"compared"`
	Regressions int                         `json:"regressions"`
	Metrics     map[string]map[string]Delta `json:"metrics"` // run -> tag
}

// Delta is a series against the baseline's.
type Delta struct {
	Last      Change     `json:"last"`
	Best      *Change    `json:"best"`
	Step      StepChange `json:"step"`
	Regressed bool       `json:"regressed"`
	Why       []string   `json:"why"`
}

// Change is a value against the baseline's.
type Change struct {
	Value    Scalar `json:"value"`
	Baseline Scalar `json:"baseline"`
	Change   Scalar `json:"change"`
	Relative Scalar `json:"relative"`
}

// StepChange is the step reached against the baseline's.
type StepChange struct {
	Value    int64 `json:"value"`
	Baseline int64 `json:"baseline"`
	Change   int64 `json:"change"`
}

// AnomalyEntry is an anomaly as summary.json lists it; Run and Tag are ""
// for what concerns the whole report or run, Step null when it concerns
// no step.
type AnomalyEntry struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Kind     string `json:"kind"`
	Run      string `json:"run"`
	Tag      string `json:"tag"`
	Step     *int64 `json:"step"`
	Value    Float  `json:"value"`
	Count    int    `json:"count"`
	Detail   string `json:"detail"`
	Message  string `json:"message"`
	Page     string `json:"page"`
	Href     string `json:"href"`
}

// Float is a float64 written as AppendValue writes it: NaN and the
// infinities as the strings "NaN", "Infinity" and "-Infinity".
type Float float64

// MarshalJSON writes f as AppendValue does.
func (f Float) MarshalJSON() ([]byte, error) {
	return AppendValue(nil, float64(f), false), nil
}

// UnmarshalJSON reads a number or one of the strings MarshalJSON writes
// for the non-finite values.
func (f *Float) UnmarshalJSON(b []byte) error {
	v, err := parseValue(b)
	*f = Float(v)
	return err
}

// Scalar is a series' value: V, written in the shortest form that reads
// back to it as a float32 when F32 (a float32 series), as a float64
// otherwise; non-finite values as Float writes them. Read back, V is
// the float64 of that decimal form and F32 is false.
type Scalar struct {
	V   float64
	F32 bool
}

// MarshalJSON writes s as AppendValue does.
func (s Scalar) MarshalJSON() ([]byte, error) {
	return AppendValue(nil, s.V, s.F32), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Scalar) UnmarshalJSON(b []byte) error {
	v, err := parseValue(b)
	*s = Scalar{V: v}
	return err
}

// AppendValue appends v as trainreport's JSON outputs write a number:
// like encoding/json (exponents only for very small or large values),
// in the shortest form that reads back to v as a float32 when f32, and
// NaN and the infinities, which JSON has no number for, as the strings
// "NaN", "Infinity" and "-Infinity".
func AppendValue(b []byte, v float64, f32 bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Infinity"`...)
	}
	bits := 64
	if f32 {
		bits = 32
	}
	// Like encoding/json: exponents only for very small or large values.
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.AppendFloat(b, v, 'g', -1, bits)
	}
	return strconv.AppendFloat(b, v, 'f', -1, bits)
}

// parseValue reads a number or one of the strings AppendValue writes for
// the non-finite values.
func parseValue(b []byte) (float64, error) {
	v := bytes.TrimSpace(b)
	switch string(v) {
	case `"NaN"`:
		return math.NaN(), nil
	case `"Infinity"`:
		return math.Inf(1), nil
	case `"-Infinity"`:
		return math.Inf(-1), nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		return 0, fmt.Errorf("value %s: %w", v, err)
	}
	return f, nil
}
