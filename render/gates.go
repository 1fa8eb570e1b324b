package render

import "github.com/trainreport/trainreport/internal/summary"

// gatesJSON are summary.json's gates, nil without any.
func (r *Report) gatesJSON() []summary.Gate {
	var out []summary.Gate
	for _, g := range r.an.Gates {
		sg := summary.Gate{Expr: g.Expr, Failed: g.Failed, Held: []summary.Held{}, Runs: g.Runs, Error: g.Err, Text: g.Text}
		for _, h := range g.Held {
			vals := h.Values
			if vals == nil {
				vals = []string{}
			}
			sg.Held = append(sg.Held, summary.Held{Run: h.Run, Values: vals})
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
	for _, g := range r.an.Gates {
		out = append(out, gateRow{g.Failed, g.Expr, g.Text})
	}
	return out
}
