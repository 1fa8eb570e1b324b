package render

import (
	"context"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
)

// newReport analyses rep as the command does, with the analysis options
// given (the defaults when none), and prepares it for writing. A report
// made by hand gets the readers' decoders, as collect's reports have.
func newReport(rep *model.Report, opt Options, aopt ...analysis.Options) *Report {
	if rep.Decoders().Tensor == nil {
		rep.SetDecoders(collect.Decoders())
	}
	var a analysis.Options
	if len(aopt) > 0 {
		a = aopt[0]
	}
	an, err := analysis.Build(context.Background(), rep, a)
	if err != nil {
		panic(err) // only a cancelled context fails, and this one is not
	}
	return New(rep, an, opt)
}
