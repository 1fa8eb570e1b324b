package render

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
	for _, g := range r.an.Gates {
		sg := summaryGate{Expr: g.Expr, Failed: g.Failed, Held: []summaryHeld{}, Runs: g.Runs, Error: g.Err, Text: g.Text}
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
	for _, g := range r.an.Gates {
		out = append(out, gateRow{g.Failed, g.Expr, g.Text})
	}
	return out
}
