package render

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// appendFloat32 appends v, a float32 in [2^-10, 2^24) or its negative,
// as strconv.AppendFloat(b, v, 'f', -1, 32) does, and reports whether it
// did; other values are left to strconv. Values are most of the bytes of
// the data files, and strconv's general path spends more on its set-up
// and formatting than on its search for the digits.
//
// The shortest decimal that reads back as v (round half to even: the
// bounds belong to v when its mantissa is even) is found exactly, in
// integers, in the manner of Schubfach (R. Giulietti, "The Schubfach way
// to render doubles", 2020), at a scale where the search has two
// outcomes. With v = m*2^-s, the half-way points to v's neighbours are
// (4m-2)/2^(s+2) and (4m+2)/2^(s+2) ((4m-1) below a power of two); in
// units of 10^-d they are those numerators times 5^d over 2^(s+2-d), all
// below 2^51 in this range (scaled to be over 2^32 in every binade, below
// 2^61). d is the binade's (ftoa32Scales): the least
// with 10^d >= 2^s, so that the interval between the half-way points,
// one ulp, is at least one unit and less than ten. The decimals of d
// places that read back as v are the integers lo..hi inside it:
//
//   - a multiple of ten among them (there can be only one) has fewer
//     significant digits than any other, and is the shortest, with its
//     trailing zeros trimmed (one of fewer places than d-1 is a multiple
//     of ten too, so it is that one);
//   - else they all have as many digits, and strconv writes the one
//     closest to v, of two as close the even one: v's integer part or
//     the next integer.
//
// The digits are then written eight at a time (digits8), straight into
// b's spare capacity, with no copy through a buffer of digits.
// TestAppendFloat32 compares it with strconv on every float32 of a sample
// of binades (on all of them with TRAINREPORT_FTOA32_ALL=1) and
// FuzzAppendFloat32 on any.
func appendFloat32(b []byte, v float64) ([]byte, bool) {
	n := len(b)
	room := b
	if cap(b)-n < float32Room {
		room = slices.Grow(b, float32Room)
	}
	// One value: putFloat32sGo, as putFloat32s would (its kernel takes
	// eight at a time), with no dispatch.
	k, done := putFloat32sGo(room[n:n+float32Room], []float64{v})
	if done == 0 {
		return b, false // b as it was
	}
	return room[:n+k-1], true // not the comma after it
}

// float32Room is the room putFloat32s writes a value and its comma
// into: its longest form, "-0.0009765625,", is 14 bytes, but it writes
// words of eight bytes at offsets up to 15.
const float32Room = 24

// putFloat32s writes the values of vs into dst, each as appendFloat32
// appends it and followed by a comma, while it takes them (a float32 of
// its range), and returns how many bytes it wrote and how many values:
// all of them, or up to the first it leaves to strconv. It stops early
// too when dst has no room for the next, float32Room bytes: a caller
// makes room for a block of values, then hands it the block.
//
// It is the formatter of the data files' value columns. Where the CPU
// has AVX-512 (useAVX512), putFloat32sAVX512 writes eight values at a
// time in vector lanes, the same bytes as putFloat32sGo; a group of
// eight it does not take (a value it leaves to strconv, too little room
// left) and the last values, fewer than eight, go to putFloat32sGo,
// which stops where the contract says.
func putFloat32s(dst []byte, vs []float64) (n, done int) {
	if !useAVX512 {
		return putFloat32sGo(dst, vs)
	}
	for {
		k, d := putFloat32sAVX512(dst[n:], vs[done:], &ftoa32Lanes)
		n, done = n+k, done+d
		k, d = putFloat32sGo(dst[n:], vs[done:min(done+8, len(vs))])
		n, done = n+k, done+d
		if d < 8 || done == len(vs) {
			return n, done
		}
	}
}

// putFloat32sGo is putFloat32s in Go: the reference of the vector
// kernel, and the path of CPUs without AVX-512. The loop is
// here, around the formatting, so that no call per value spills the
// loop's state, and the stores index a value's room below fixed bounds,
// so that none is checked. The comma after a value (which a column
// drops after its last, and appendFloat32 after its one) is written
// with no branch.
func putFloat32sGo(dst []byte, vs []float64) (n, done int) {
	rest := dst // its room: a value's is its first float32Room bytes
	for ; done < len(vs); done++ {
		if len(rest) < float32Room {
			break
		}
		o := (*[float32Room]byte)(rest)
		// A float32 of the range, read from the float64's bits, with no
		// conversion: its exponent in [2^-10, 2^24), and no mantissa bit
		// past a float32's 23 (which rules out 0, subnormals, Inf, NaN).
		u := math.Float64bits(vs[done])
		e := uint(u>>52&0x7ff) - (1023 - 10) // wraps below 2^-10
		if u&(1<<29-1) != 0 || e > 150-117 {
			break
		}
		sc := &ftoa32Scales[e]
		m := u>>29&(1<<23-1) | 1<<23
		// The bounds are L, X, H over 2^32: units of 10^-d (sc.p5 is 5^d
		// times 2^(32-t), so that every binade's shifts are by 32).
		X := m * sc.p5 << 2
		L, H := X-2*sc.p5, X+2*sc.p5
		if m == 1<<23 {
			L = X - sc.p5 // the neighbour below is half as far
		}
		// lo, hi: the integers in the interval; its bounds belong to it when
		// m is even (round half to even reads them back as v), not when odd:
		// ceil(L/2^32) or the next integer above, floor(H/2^32) or the one
		// below, in one expression for both (m's parity is a coin flip too).
		odd := m & 1
		lo, hi := (L+1<<32-1+odd)>>32, (H-odd)>>32
		if lo > hi {
			break // only below a power of two, where the interval is 3/4 of an ulp: left to strconv
		}
		// The integer closest to v, of two as close the even one (X over
		// 2^32 rounded half to even: X>>32 is at most hi), then the multiple
		// of ten when there is one; computed, not branched on: which it
		// is varies from value to value as a coin flip would.
		places := int(sc.d)
		c := min((X+1<<31-1+(X>>32)&1)>>32, hi)
		c = max(c, lo)
		if c10 := uint64(uint32(hi) / 10 * 10); c10 >= lo {
			c = c10
		}
		// A '-' first, kept only for a negative v: written, not branched on.
		o[0] = '-'
		i := int(u >> 63)
		// c >= lo > 2^23-1 (10^d >= 2^s) and c < 2^24*10^d/2^s < 1.7e8: seven
		// or eight digits, or a one and eight; its trailing zeros, which the
		// shortest form drops (up to the point), are the '0' bytes at the top
		// of its last eight digits' word.
		nd, last8 := 7, c
		if c >= 1e7 {
			nd = 8
		}
		if c >= 1e8 {
			nd, last8 = 9, c-1e8
		}
		lanes := digitLanes(uint32(last8))
		w := lanes + 0x3030303030303030
		zeros := min(bits.LeadingZeros64(lanes)/8, places)
		if nd < 8 {
			// Below 1 with seven places or fewer, a leading zero, "0.":
			// written by the default case, as any other, not by a branch of
			// its own (values about 1 go either way).
			if places < 8 {
				nd = max(nd, places+1)
			}
			w >>= 8 * uint(8-nd) & 63 // the first digit in the low byte
		}
		// Offsets are masked to their bounds (none passes 15), which the
		// compiler then knows: no store is checked.
		switch {
		case places >= nd:
			// 0.000ddd: "0." and zeros, then the digits over some of them.
			binary.LittleEndian.PutUint64(o[i:], 0x3030303030302e30)
			binary.LittleEndian.PutUint64(o[(i+8)&15:], 0x3030303030303030)
			j := i + 2 + places - nd
			if nd == 9 {
				o[j&15] = '1'
				j++
			}
			binary.LittleEndian.PutUint64(o[j&15:], w)
			i += 2 + places
		case nd == 9:
			// 1dd.ddddd: the one, then as below with eight digits.
			o[i] = '1'
			i++
			whole := 8 - places // digits of w before the point
			binary.LittleEndian.PutUint64(o[i:], w)
			o[(i+whole)&15] = '.'
			binary.LittleEndian.PutUint64(o[(i+whole+1)&15:], w>>(8*uint(whole)&63))
			i += 9
		default:
			whole := nd - places
			binary.LittleEndian.PutUint64(o[i:], w)
			i += nd
			if places > 0 {
				o[(i-places)&15] = '.'
				binary.LittleEndian.PutUint64(o[(i-places+1)&15:], w>>(8*uint(whole)&63))
				i++
			}
		}
		i -= zeros
		if zeros == places && places > 0 {
			i-- // no decimals left: no point
		}
		o[i&15] = ','
		rest = rest[i&15+1:]
	}
	return len(dst) - len(rest), done
}

// ftoa32Scale is the scale of appendFloat32's search in a binade:
// decimals of d places, and p5 = 5^d*2^(32-t) for v = m*2^-s and t =
// s+2-d: the bounds over 2^t in units of 10^-d are the same over 2^32
// with p5 for 5^d, and a shift by a constant costs less than by t (no
// count register to load, no mask to look up). They stay below 2^61
// (TestFtoa32ScalesFit).
type ftoa32Scale struct {
	p5, d uint64
}

// ftoa32Scales holds the scales of appendFloat32's binades, exponent bits
// 117 to 150 ([2^-10, 2^24), s = 150-exp from 33 to 0): d the least with
// 10^d >= 2^s, computed in integers.
var ftoa32Scales = func() (sc [34]ftoa32Scale) {
	for i := range sc {
		s := 33 - i
		d, p10, p5 := 0, uint64(1), uint64(1)
		for p10 < 1<<s {
			d, p10, p5 = d+1, p10*10, p5*5
		}
		t := s + 2 - d // from 2 to 25
		sc[i] = ftoa32Scale{p5: p5 << (32 - t), d: uint64(d)}
	}
	return sc
}()

// pow10u32 holds 10^0..10^8.
var pow10u32 = [9]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// digits8 returns the eight decimal digits of n < 10^8, leading zeros
// included, as ASCII bytes of a word, the first digit in its low byte
// (little-endian: stored as is, they read in order). The digits are split
// in lanes, 4+4, then 2+2+2+2, then 1+...+1, each split a multiplication
// for all lanes at once (D. Lemire, "Converting integers to fix-digit
// representations quickly", 2021): TestDigits8 checks it on every n.
func digits8(n uint32) uint64 {
	return digitLanes(n) + 0x3030303030303030
}

// digitLanes is digits8 before the '0's are added: digit d of n in byte
// d. A split of lanes x into q = x/10^k and r = x-q*10^k, r shifted up
// by the lane's width w, is q | r<<w = x<<w - q*(10^k<<w - 1): one
// multiplication, in integers of the whole word, each lane's r being
// whole (x >= q*10^k lane by lane), where r's product, its subtraction
// and the OR were three operations (two on the shift ports).
func digitLanes(n uint32) uint64 {
	x := uint64(n)
	q := x * 109951163 >> 40 // n/10^4 for n < 10^8 (TestDigits8)
	x = x<<32 - q*(1e4<<32-1)
	hundreds := (x * 10486 >> 20) & 0x7f_0000_007f // x/100 in each of two lanes below 10^4
	x = x<<16 - hundreds*(100<<16-1)
	tens := (x * 103 >> 10) & 0x000f_000f_000f_000f // x/10 in each of four lanes below 100
	return x<<8 - tens*(10<<8-1)
}
