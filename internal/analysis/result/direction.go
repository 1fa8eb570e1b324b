package result

import (
	"slices"
	"strings"
	"unicode"
)

// This file holds the one rule of which way a metric is better, by its
// name: lower for loss- and error-like names, higher for accuracy-like
// ones, unknown otherwise. The analysis (summary.json's metrics, the
// comparison with a baseline) and every ranking of the outputs use it.

// lowerWords and higherWords are the words of metric names whose better
// direction is known; names holding both, or neither, are "highest" and
// "lowest" without a verdict.
var (
	lowerWords  = []string{"loss", "error", "err", "mse", "mae", "rmse", "nll", "perplexity", "ppl", "wer", "cer"}
	higherWords = []string{"acc", "accuracy", "auc", "f1", "precision", "recall", "bleu", "rouge", "iou", "map", "reward"}
)

// BetterOf says which way the metric called name is better: the words of
// its name (split at anything not a letter or digit, and at case changes
// from lower to upper) are matched against lowerWords and higherWords.
func BetterOf(name string) Direction {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, c := range name {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
		case unicode.IsUpper(c) && unicode.IsLower(prev):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
		prev = c
	}
	flush()
	lower, higher := false, false
	for _, w := range words {
		lower = lower || slices.Contains(lowerWords, w)
		higher = higher || slices.Contains(higherWords, w)
	}
	switch {
	case lower && !higher:
		return LowerBetter
	case higher && !lower:
		return HigherBetter
	}
	return UnknownBetter
}
