package analysis

import (
	"context"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// anomalies runs the rules of package anomaly over rep, with the
// thresholds of opt (anomaly.DefaultThresholds when unset), over the
// tensors Build decoded (decoded: each tensor is decoded once). A cancelled
// ctx stops the rules and is the error: a list cut short is not a
// report's.
func anomalies(ctx context.Context, rep *model.Report, decoded *anomaly.Decoded, opt Options) ([]result.Anomaly, error) {
	th := opt.AnomalyThresholds
	if th == (anomaly.Thresholds{}) {
		th = anomaly.DefaultThresholds
	}
	as := anomaly.FindDecoded(ctx, rep, th, decoded)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return as, nil
}
