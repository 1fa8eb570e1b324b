package umap

import "math"

// pow is x^y for the descent's distances: 46% of a layout's time went to
// math.Exp(y·math.Log(x)) (a 5,000-point layout's CPU profile), which this
// replaces by a logarithm and a power of two from short polynomials, within
// a relative error of about 1e-9 of math.Pow for |y·log2 x| ≤ 1,000 and
// exactly math.Pow's answer elsewhere (zero, subnormal, infinite or NaN x,
// huge exponents). It is plain arithmetic, so as deterministic as the rest.
func pow(x, y float64) float64 {
	bits := math.Float64bits(x)
	e := int64(bits>>52) & 0x7ff
	if bits>>63 != 0 || e == 0 || e == 0x7ff {
		return math.Pow(x, y)
	}
	// x = m·2^e with m in [√½, √2), where the series below is short.
	m := math.Float64frombits(bits&(1<<52-1) | 1023<<52)
	e -= 1023
	if m > math.Sqrt2 {
		m /= 2
		e++
	}
	// ln m = 2·atanh(t) = 2(t + t³/3 + t⁵/5 + …), |t| ≤ 0.172: the terms
	// past t¹¹ are below 1e-10 of the sum.
	t := (m - 1) / (m + 1)
	t2 := t * t
	lnm := 2 * t * (1 + t2*(1.0/3+t2*(1.0/5+t2*(1.0/7+t2*(1.0/9+t2*(1.0/11))))))
	z := y * (float64(e) + lnm/math.Ln2)
	if !(z > -1000 && z < 1000) {
		return math.Pow(x, y)
	}
	// 2^z = 2^i · √2 · e^(u), u = (f − ½)·ln 2 with f = z − i in [0, 1),
	// so |u| ≤ 0.347 and the Taylor series to u⁸ is within 3e-10.
	i := math.Floor(z)
	u := (z - i - 0.5) * math.Ln2
	p := 1 + u*(1+u*(1.0/2+u*(1.0/6+u*(1.0/24+u*(1.0/120+u*(1.0/720+u*(1.0/5040+u*(1.0/40320))))))))
	// p·√2 is in [1, 2): adding i to its exponent scales it by 2^i and,
	// with |i| ≤ 1,000, stays a normal number.
	return math.Float64frombits(math.Float64bits(p*math.Sqrt2) + uint64(int64(i))<<52)
}
