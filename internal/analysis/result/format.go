package result

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The formats of values in the words the analysis writes (why a series
// regressed) and the outputs show beside them: one copy, so that both
// read the same.

// FormatValue formats a value for people: six significant digits.
func FormatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "−Inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// FormatPercent writes a relative change as a signed percentage, "" for
// NaN.
func FormatPercent(rel float64) string {
	switch {
	case math.IsNaN(rel):
		return ""
	case math.IsInf(rel, 1):
		return "+∞%"
	case math.IsInf(rel, -1):
		return "−∞%"
	}
	s := fmt.Sprintf("%+.2f%%", 100*rel)
	return strings.Replace(s, "-", "−", 1)
}

// RelChange is (v - base) / |base|: +Inf or -Inf when base is 0 and v is
// not, NaN when either is not finite.
func RelChange(v, base float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(base) || math.IsInf(base, 0) {
		return math.NaN()
	}
	if base == 0 {
		switch {
		case v > 0:
			return math.Inf(1)
		case v < 0:
			return math.Inf(-1)
		}
		return 0
	}
	return (v - base) / math.Abs(base)
}

// FormatCount writes n with thousands separators, as every output does:
// 12,345.
func FormatCount(n int) string {
	if n < 0 {
		return "-" + FormatCount(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// CountOf says n of a unit: "1 run", "2,000 runs".
func CountOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return FormatCount(n) + " " + many
}
