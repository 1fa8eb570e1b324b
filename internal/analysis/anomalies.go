package analysis

import (
	"context"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// anomalies runs the rules of package anomaly over rep, with the
// thresholds of opt (anomaly.DefaultThresholds when unset). A cancelled
// ctx stops the rules and is the error: a list cut short is not a
// report's.
func anomalies(ctx context.Context, rep *model.Report, opt Options) ([]result.Anomaly, error) {
	th := opt.AnomalyThresholds
	if th == (anomaly.Thresholds{}) {
		th = anomaly.DefaultThresholds
	}
	as := anomaly.Find(ctx, rep, th)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return as, nil
}
