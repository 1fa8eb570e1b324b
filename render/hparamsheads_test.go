package render

import (
	"slices"
	"testing"
)

// A hyperparameter and a metric of one name (the loss function chosen and
// the loss reached) get their kind in the table's heads; other names stay
// as the logs give them.
func TestHParamsHeadsMarkANameSharedByAHyperparameterAndAMetric(t *testing.T) {
	h, m := hparamsHeads(
		[]hparamsColumn{{Name: "loss"}, {Name: "lr", Numeric: true}},
		[]hparamsColumn{{Name: "accuracy", Numeric: true}, {Name: "loss", Numeric: true}})
	if want := []string{"loss (hparam)", "lr"}; !slices.Equal(h, want) {
		t.Errorf("hyperparameter heads %q, want %q", h, want)
	}
	if want := []string{"accuracy", "loss (metric)"}; !slices.Equal(m, want) {
		t.Errorf("metric heads %q, want %q", m, want)
	}
}
