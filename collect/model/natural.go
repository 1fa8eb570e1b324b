package model

import "strings"

// CompareRunNames orders run names naturally, the order of Report.Runs:
// runs of digits compare as the numbers they write ("version_2" before
// "version_10"), and digits after a digit and a point as a decimal
// fraction ("lr=0.003" before "lr=0.01", as sweeps name runs), the rest
// byte by byte; names equal so ("a01" and "a1") fall back to byte order,
// so the order is total and stable.
func CompareRunNames(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if !isDigit(ca) || !isDigit(cb) {
			if ca != cb {
				if ca < cb {
					return -1
				}
				return 1
			}
			i++
			j++
			continue
		}
		// Two runs of digits: without leading zeros, the longer is the
		// larger number; of the same length, the first differing digit
		// decides. Any length of digits compares, without overflow.
		si, sj := i, j
		for i < len(a) && isDigit(a[i]) {
			i++
		}
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		if si >= 2 && a[si-1] == '.' && isDigit(a[si-2]) {
			// A fraction (the bytes before are the same in b): digit by
			// digit, trailing zeros aside.
			if c := strings.Compare(strings.TrimRight(a[si:i], "0"), strings.TrimRight(b[sj:j], "0")); c != 0 {
				return c
			}
			continue
		}
		na := strings.TrimLeft(a[si:i], "0")
		nb := strings.TrimLeft(b[sj:j], "0")
		if len(na) != len(nb) {
			if len(na) < len(nb) {
				return -1
			}
			return 1
		}
		if c := strings.Compare(na, nb); c != 0 {
			return c
		}
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
