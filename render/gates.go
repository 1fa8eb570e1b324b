package render

import (
	"github.com/trainreport/trainreport/internal/gate"
)

// SetGates gives the report the verdicts of the --fail-on conditions,
// evaluated over its own summary.json: summary.json, summary.md and the
// overview then show them, failed ones first.
func (r *Report) SetGates(results []gate.Result) {
	var failed, passed []gate.Result
	for _, g := range results {
		if g.Failed {
			failed = append(failed, g)
		} else {
			passed = append(passed, g)
		}
	}
	r.gates = append(failed, passed...)
}

// summaryGate is a gate in summary.json.
type summaryGate struct {
	Expr   string        `json:"expr"`
	Failed bool          `json:"failed"`
	Held   []summaryHeld `json:"held"`
	Runs   int           `json:"runs"`
	Error  string        `json:"error,omitempty"`
	Text   string        `json:"text"`
}

type summaryHeld struct {
	Run    string   `json:"run"`
	Values []string `json:"values"`
}

func (r *Report) gatesJSON() []summaryGate {
	var out []summaryGate
	for _, g := range r.gates {
		sg := summaryGate{Expr: g.Expr, Failed: g.Failed, Held: []summaryHeld{}, Runs: g.Runs, Error: g.Err, Text: g.String()}
		for _, h := range g.Held {
			vals := h.Values
			if vals == nil {
				vals = []string{}
			}
			sg.Held = append(sg.Held, summaryHeld{h.Run, vals})
		}
		out = append(out, sg)
	}
	return out
}

// gateRow is a gate on the overview.
type gateRow struct {
	Failed bool
	Expr   string
	Text   string
}

func (r *Report) gateRows() []gateRow {
	var out []gateRow
	for _, g := range r.gates {
		out = append(out, gateRow{g.Failed, g.Expr, g.String()})
	}
	return out
}
