package umap

import "math"

// mantBits is the mantissa bits that index power's table of m^b: 1,024
// steps of m over [1, 2), between which the power is interpolated
// linearly.
const (
	mantBits  = 10
	mantSteps = 1 << mantBits
)

// power is x^b for the descent's squared distances and one exponent b, the
// fitted curve's: 65% of a layout's CPU went to the power (a 2,500-point
// layout's profile) even computed by short polynomials, a chain of some
// twenty dependent multiply-adds and a division. With x = m·2^e, x^b is
// 2^(b·e), one entry of a table by exponent, times m^b, interpolated in a
// table by the mantissa's first bits: two loads and three operations. The
// relative error is below h²/8·|b(b−1)| with h = 1/1,024, 1.1e-8 for the
// default curve's b (0.895), 2.4e-7 at b = 2: about float32's precision,
// in which umap-learn computes its whole descent. Numbers whose power is
// not a normal number times the table's (zero, subnormal, negative,
// infinite, NaN, or a power beyond float64's normal range) go to
// math.Pow. It is plain arithmetic on tables computed from b alone, so as
// deterministic as the rest.
type power struct {
	b float64
	// lo and hi bound the biased exponents e whose 2^(b·(e−1023)) is a
	// normal number, within 1 and 2046 (not zero, subnormal, infinite or
	// NaN x).
	lo, hi uint64
	exp    [2048]float64          // 2^(b·(e−1023)) by biased exponent e
	mant   [mantSteps + 1]float64 // (1 + i/mantSteps)^b
}

// newPower returns the power of exponent b.
func newPower(b float64) *power {
	p := &power{b: b, lo: 2047}
	for e := uint64(1); e <= 2046; e++ {
		v := math.Exp2(b * float64(int64(e)-1023))
		p.exp[e] = v
		// Times m^b (between 1 and 2^b), the result must stay normal.
		if v >= 0x1p-1020 && v <= 0x1p1020 {
			p.lo, p.hi = min(p.lo, e), max(p.hi, e)
		}
	}
	for i := range p.mant {
		p.mant[i] = math.Pow(1+float64(i)/mantSteps, b)
	}
	return p
}

// of returns x^b.
func (p *power) of(x float64) float64 {
	bits := math.Float64bits(x)
	e := bits >> 52 // with the sign bit: a negative x is beyond hi
	if e < p.lo || e > p.hi {
		return math.Pow(x, p.b)
	}
	frac := bits & (1<<52 - 1)
	i := frac >> (52 - mantBits)
	f := float64(frac&(1<<(52-mantBits)-1)) * (1.0 / (1 << (52 - mantBits)))
	m0, m1 := p.mant[i&(mantSteps-1)], p.mant[i&(mantSteps-1)+1]
	return p.exp[e&2047] * (m0 + (m1-m0)*f)
}
