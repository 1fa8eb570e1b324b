package render

import "github.com/trainreport/trainreport/internal/analysis/result"

// evenSteps is result.EvenSteps, the rule by which a page shows at most a
// budget of a series' steps (text, PR curves, histogram boxes); the media
// pages take theirs from the analysis (result.Media.Keep), by the same rule.
func evenSteps(n, budget int) []int { return result.EvenSteps(n, budget) }
