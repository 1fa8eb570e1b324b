package anomaly

import (
	"math"
	"math/bits"
)

// The spike rule needs, at every point of a series, the median of the
// window of values before it and of the window after it, and for the few
// points far from both medians the windows' median absolute deviations.
// A window kept sorted as it slides costs a binary search and a move of
// half the window per value in and out; here the order comes from sorting
// each block of w values once (heapsort, O(log w) a value; insertion sort
// up to 24), and a window is a set of bits over the sorted values of the
// two blocks it spans: a slide clears one bit and sets another, and an
// order statistic is a select in those bits. For the default window (up
// to 32 values: one 64-bit word) a point costs O(1) beyond its block's
// sort; a longer window adds O(w/64) word counts a move and O(log(w/64))
// a select, and a MAD O(log w) selects.

// blocks holds a series' values with, for each block of w consecutive
// values (the last one may be shorter), the offsets of its values in it
// in ascending order of value, sorted when a window first needs the
// block. Only the last four blocks sorted are kept (the windows before
// and after a point need no more), so that the memory is O(w), not
// O(n), and an offset is below w; a block asked for again after its slot
// was taken is sorted again.
type blocks struct {
	vals []float64
	w    int
	ring []int32 // ring[(k%4)*w:][:w]: block k's offsets, by value
	of   [4]int  // of[k%4] == k: block k is in its slot
	// keys[k%4][:n+1] are block k's n sort keys in order (offset in the
	// low bits) then keyEnd, when keyed[k%4]: the chunks merge them,
	// comparing one word a value. A keyed block's offsets are written to
	// its ring slot only when a merge by offsets asks (offsets): the
	// keys hold them, and a merge of keys does not read them.
	keys    *[4]keyBlock
	keyed   [4]bool
	offsets [4]bool // ring slot k%4 holds block k's offsets
}

// keyBlock is a keyed block's sort keys then keyEnd: an array, so that
// an index masked by 31 needs no bounds check.
type keyBlock [32]uint64

func newBlocks(vals []float64, w int) *blocks {
	b := &blocks{vals: vals, w: w, ring: make([]int32, 4*w), of: [4]int{-1, -1, -1, -1}}
	if w <= maxKeyed {
		b.keys = new([4]keyBlock)
	}
	return b
}

// blockKeys returns block k's sort keys followed by keyEnd (only keyEnd
// past the end of the series) and how many values it has, ok false when
// the block is not keyed.
func (b *blocks) blockKeys(k int) (keys *keyBlock, n int, ok bool) {
	n = b.sort(k)
	if n == 0 {
		return &keyEndOnly, 0, true
	}
	if b.keys == nil || !b.keyed[k%4] {
		return nil, 0, false
	}
	return &b.keys[k%4], n, true
}

// keyEndOnly is blockKeys past the end of a series: read only.
var keyEndOnly = keyBlock{keyEnd}

// sort sorts block k if it is not in its slot, and returns its length (0
// past the end of the series).
func (b *blocks) sort(k int) int {
	lo := k * b.w
	if lo >= len(b.vals) {
		return 0
	}
	// Only the blocks asked for are sorted: the spike rule's windows
	// jump over the stretches its prefilters clear.
	n := min(b.w, len(b.vals)-lo)
	if b.of[k%4] != k {
		seg := b.ring[k%4*b.w:][:n]
		var keys *keyBlock
		if b.keys != nil {
			keys = &b.keys[k%4]
		}
		b.keyed[k%4] = sortBlockKeyed(seg, b.vals[lo:][:n], keys)
		b.offsets[k%4] = keys == nil || !b.keyed[k%4] // else sorted as keys in keys only
		b.of[k%4] = k
	}
	return n
}

// block returns the offsets of block k's values in ascending order of
// value, nil past the end of the series.
func (b *blocks) block(k int) []int32 {
	n := b.sort(k)
	if n == 0 {
		return nil
	}
	seg := b.ring[k%4*b.w:][:n]
	if !b.offsets[k%4] { // keyed: the offsets are the keys' low bits
		for i, key := range b.keys[k%4][:n] {
			seg[i] = int32(key & keyMask)
		}
		b.offsets[k%4] = true
	}
	return seg
}

// sortBlock sets ix to the offsets 0..len(ix)-1 of vals sorted by value.
//
// Values read from float32 (most logs') have their low 29 bits zero: a
// short block of them sorts as integers, each value's bits made to order
// as integers do (the sign bit flipped, or every bit of a negative one)
// with its offset in the low bits it leaves clear, so that the sort moves
// one word a value and compares no value through an index. Other blocks
// take sortByValue. Equal values may come in any order either way.
func sortBlock(ix []int32, vals []float64) { sortBlockKeyed(ix, vals, nil) }

// Keys of sortBlock: a block of up to maxKeyed values with keyMask's bits
// clear sorts as keys, each holding its offset in those bits, which hold
// too an offset in the next block plus its length (a chunk's). keyEnd
// is above every key of a finite value, and its low bits are clear.
const (
	maxKeyed = 24
	keyMask  = 63
	keyEnd   = math.MaxUint64 &^ keyMask
)

// sortBlockKeyed is sortBlock, but when out is not nil and the block
// sorts as keys (ok) it sorts in out, leaving its keys in order then
// keyEnd there, and does not write ix (the keys' low bits are the
// offsets: blocks.block reads them when asked).
func sortBlockKeyed(ix []int32, vals []float64, out *keyBlock) (ok bool) {
	n := len(ix)
	const mask = keyMask
	if n > maxKeyed {
		sortOffsets(ix, vals)
		return false
	}
	keys := out
	if keys == nil {
		keys = new(keyBlock) // on the stack: it does not escape
	}
	// The keys are made as the values' low bits are gathered (one pass):
	// a block with a low bit set is not keyed, and its keys not read.
	var low uint64
	for i, v := range vals[:n] {
		b := math.Float64bits(v)
		low |= b
		keys[i&31] = (b^(uint64(int64(b)>>63)|1<<63))&^mask | uint64(i)
	}
	if low&mask != 0 {
		sortOffsets(ix, vals)
		return false
	}
	// Batcher's network for 32 keys, less the comparators that reach
	// past n (the keys there would be the largest, and stay): a fixed
	// sequence of min and max, no branch on the keys (an insertion sort
	// mispredicts about once a key).
	if n == 20 {
		sortNet20((*[32]uint64)(keys))
	} else {
		for _, c := range batcher[n] {
			i, j := c&31, c>>8&31 // in a word, read once: no copy of a pair
			a, b := keys[i], keys[j]
			keys[i], keys[j] = min(a, b), max(a, b)
		}
	}
	keys[n&31] = keyEnd
	if out == nil {
		for i, k := range keys[:n] {
			ix[i] = int32(k & mask)
		}
	}
	return true
}

// sortOffsets is sortBlock by value, not as keys.
func sortOffsets(ix []int32, vals []float64) {
	for i := range ix {
		ix[i] = int32(i)
	}
	sortByValue(ix, vals)
}

// keyValue returns the value of a sort key (its offset bits dropped).
func keyValue(k uint64) float64 {
	k &^= keyMask
	// A key with its top bit set is a value not negative (its sign bit
	// flipped); else a negative one (every bit flipped, low bits too).
	return math.Float64frombits((k ^ (uint64(int64(^k)>>63) | 1<<63)) &^ keyMask)
}

// batcher[n] is Batcher's odd-even merge sort network for 32 inputs, its
// comparators (i, j), i < j, in order (i | j<<8), less those with j >= n:
// a table, made once and only read.
var batcher = func() (t [25][]uint16) {
	const size = 32
	for p := 1; p < size; p *= 2 {
		for k := p; k >= 1; k /= 2 {
			for j := k % p; j+k < size; j += 2 * k {
				for i := 0; i < min(k, size-j-k); i++ {
					if (i+j)/(2*p) != (i+j+k)/(2*p) {
						continue
					}
					for n := i + j + k + 1; n < len(t); n++ {
						t[n] = append(t[n], uint16(i+j)|uint16(i+j+k)<<8)
					}
				}
			}
		}
	}
	return t
}()

// sortByValue sorts the indices ix by vals[ix]: insertion sort for the
// short blocks of the default window (fewer moves than a general sort at
// that size), heapsort otherwise (O(w log w), no allocation, no closure).
// The order of equal values does not matter: only values are read back.
func sortByValue(ix []int32, vals []float64) {
	if len(ix) <= 24 {
		for i := 1; i < len(ix); i++ {
			x := ix[i]
			v := vals[x]
			j := i
			for ; j > 0 && vals[ix[j-1]] > v; j-- {
				ix[j] = ix[j-1]
			}
			ix[j] = x
		}
		return
	}
	n := len(ix)
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && vals[ix[c+1]] > vals[ix[c]] {
				c++
			}
			if vals[ix[c]] <= vals[ix[i]] {
				return
			}
			ix[i], ix[c] = ix[c], ix[i]
			i = c
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for end := n - 1; end > 0; end-- {
		ix[0], ix[end] = ix[end], ix[0]
		down(0, end)
	}
}

// chunks are the sorted values of pairs of consecutive blocks, chunk c
// being blocks c and c+1: every window of w values that starts in block c
// lies in chunk c. The last four are kept (three would do; four is a
// mask, not a division, on every look-up), so that the window before a
// point and the window after it, w+1 apart, share the merges.
type chunks struct {
	b    *blocks
	last [4]chunk
	// The spike rule's SpikeMinRel and SpikeMADs*1.4826, for each chunk's
	// bounds.
	rel, madScale float64
	// The values of each half's windows in order, for partBounds.
	part [2][]float64
}

type chunk struct {
	c      int
	sorted []float64 // the chunk's values, ascending
	rank   []int32   // rank[i-c*w]: the position of vals[i] in sorted
	off    []int32   // off[r]: the offset in the chunk of sorted[r] (rank's inverse)
	// bounds[0] clear the points near every window that starts in the
	// first half of block c (offsets below w/2), bounds[1] those near
	// every window that starts in its second half (chunkBounds, on the
	// values each half's windows lie in), found as the chunk is merged.
	bounds [2]sideBounds
}

// side returns the bounds of the windows starting at offset o of the
// chunk (0 <= o < w), for h = w/2.
func (ch *chunk) side(o, h int) *sideBounds {
	return &ch.bounds[b2i(o >= h)]
}

func newChunks(b *blocks) *chunks {
	// At least keyMask+1 values a half: mergeKeys indexes them by a
	// mask.
	cs := &chunks{b: b, part: [2][]float64{make([]float64, max(2*b.w, keyMask+1)), make([]float64, max(2*b.w, keyMask+1))}}
	for i := range cs.last {
		// At least keyMask+1 ranks: mergeKeys indexes them by a key's
		// low bits.
		cs.last[i] = chunk{c: -1, sorted: make([]float64, 2*b.w), rank: make([]int32, max(2*b.w, keyMask+1)), off: make([]int32, 2*b.w)}
	}
	return cs
}

// at returns chunk c when it is one of the last four, at hand; nil else.
func (cs *chunks) at(c int) *chunk {
	if ch := &cs.last[c&3]; ch.c == c {
		return ch
	}
	return nil
}

// get returns chunk c, merging its two sorted blocks if it is not one of
// the last four.
func (cs *chunks) get(c int) *chunk {
	ch := &cs.last[c&3]
	if ch.c == c {
		return ch
	}
	if ka, na, ok := cs.b.blockKeys(c); ok {
		if kb, nb, ok := cs.b.blockKeys(c + 1); ok {
			n0, n1 := cs.mergeKeys(ch, ka, kb, na+nb)
			ch.c = c
			cs.setBounds(ch, n0, n1)
			return ch
		}
	}
	w := cs.b.w
	lo, hi := cs.b.block(c), cs.b.block(c+1)
	vals := cs.b.vals[c*w:] // offsets in the chunk: lo's as they are, hi's plus w
	put := func(r int, x int32) {
		ch.sorted[r] = vals[x]
		ch.rank[x] = int32(r)
		ch.off[r] = x
	}
	// The merge takes from one side or the other without a branch on the
	// values (which side is a coin toss on noise), then copies the rest.
	i, k, r := 0, 0, 0
	for i < len(lo) && k < len(hi) {
		a, b := lo[i], hi[k]+int32(w)
		t := b2i(vals[a] <= vals[b])
		put(r, b+int32(t)*(a-b))
		i, k, r = i+t, k+1-t, r+1
	}
	for _, x := range lo[i:] {
		put(r, x)
		r++
	}
	for _, x := range hi[k:] {
		put(r, x+int32(w))
		r++
	}
	ch.c = c
	cs.partBounds(ch, r)
	return ch
}

// halves returns where the values of the windows of each half of a chunk
// of u values lie: offsets [0, end0) and [h, u) (partBounds).
func (cs *chunks) halves(u int) (end0, h int) {
	h = cs.b.w / 2
	return min(h-1+cs.b.w, u), h
}

// partBounds sets the bounds of chunk ch, of u values, for the windows
// starting in each half of its first block: those starting at offsets
// [0, h) (h = w/2) lie in its values of offsets [0, h-1+w), those at [h,
// w) in [h, u). A half's values are fewer than the chunk's, and hold
// fewer of those not in its windows: the median's interval is narrower,
// and the shortest span of ceil(w/2) values wider (for noise of the
// default window, some 30 values of 40), so a half's bounds clear more
// points than the whole chunk's would. Each half's values, in order, are
// copied from the chunk's in one pass, a value kept by a flag (its
// offset in the half's), not a branch; mergeKeys copies them as it
// merges.
func (cs *chunks) partBounds(ch *chunk, u int) {
	end0, h := cs.halves(u)
	p0, p1 := cs.part[0][:u], cs.part[1][:u]
	n0, n1 := 0, 0
	for r, v := range ch.sorted[:u] {
		o := int(ch.off[r])
		p0[n0], p1[n1] = v, v
		n0 += b2i(o < end0)
		n1 += b2i(o >= h)
	}
	cs.setBounds(ch, n0, n1)
}

// setBounds sets ch's bounds from its halves' values, the first n0 and
// n1 of cs.part.
func (cs *chunks) setBounds(ch *chunk, n0, n1 int) {
	for p, n := range [2]int{n0, n1} {
		if n < cs.b.w { // no window starts there (a short last block)
			ch.bounds[p] = sideBounds{near: valueRange{1, 0}, t: -1}
			continue
		}
		ch.bounds[p] = chunkBounds(cs.part[p][:n], cs.b.w, cs.rel, cs.madScale)
	}
}

// mergeKeys merges two blocks' sort keys, each followed by keyEnd, u
// values in all, into ch's sorted values and ranks: one comparison of
// words a value, no branch on them. The second block's offsets are
// raised by w (its keys' too, which keeps them in order, above the
// first's on equal values: the order of the merge by value). A -0 comes
// before a 0 here. The keys' indices are masked and the ranks an array
// (keyed blocks are at most maxKeyed long): no bounds check a value.
//
// It copies each half's values too (partBounds), and returns how many
// each has.
func (cs *chunks) mergeKeys(ch *chunk, ka, kb *keyBlock, u int) (n0, n1 int) {
	w := uint64(cs.b.w)
	sorted, rank := ch.sorted[:u], (*[keyMask + 1]int32)(ch.rank)
	p0, p1 := (*[keyMask + 1]float64)(cs.part[0]), (*[keyMask + 1]float64)(cs.part[1])
	e0, h := cs.halves(u)
	end0, half := uint64(e0), uint64(h)
	i, k := 0, 0
	for r := range sorted {
		a, b := ka[i&31], kb[k&31]+w
		t := b2i(a < b)
		m := min(a, b)
		v, o := keyValue(m), m&keyMask
		sorted[r] = v
		rank[o] = int32(r)
		p0[n0&keyMask], p1[n1&keyMask] = v, v
		n0 += b2i(o < end0)
		n1 += b2i(o >= half)
		i, k = i+t, k+1-t
	}
	return n0, n1
}

// b2i is 1 for true, 0 for false: a flag, not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// window is w consecutive values of a series, vals[start:start+w], with
// their order statistics at hand: a set of bits over the sorted values of
// the chunk it lies in. It moves forward only.
type window struct {
	cs    *chunks
	w     int
	ch    *chunk
	set   []uint64 // bit r: ch.sorted[r] is in the window
	start int
	base  int // the index in vals of the chunk's first value
	// The index of set for order statistics, made once a move when one is
	// asked for: bytes[i] holds in byte b the count of set bits in bytes
	// 0..b of set[i], cum[i] the count in the words before i.
	bytes []uint64
	cum   []int
	fresh bool
}

func newWindow(cs *chunks) *window {
	n := (2*cs.b.w + 63) / 64
	return &window{cs: cs, w: cs.b.w, start: -1, set: make([]uint64, n), bytes: make([]uint64, n), cum: make([]int, n)}
}

// moveTo moves the window to start at j (j+w <= len(vals)): a value out
// and one in per step within a chunk, the window's bits set afresh from
// the next chunk.
func (win *window) moveTo(j int) {
	w := win.w
	win.fresh = win.fresh && j == win.start
	// The chunk may have been reused for a later one since the window
	// last moved (its c is not the window's): then load it again.
	if win.ch == nil || j >= win.base+w || j < win.start || win.ch.c*w != win.base {
		c := j / w
		win.ch, win.base = win.cs.get(c), c*w
		clear(win.set)
		for _, k := range win.ch.rank[j-win.base : j+w-win.base] {
			win.set[k>>6] |= 1 << (k & 63)
		}
		win.start = j
		return
	}
	rank := win.ch.rank[win.start-win.base : j+w-win.base]
	for d := range j - win.start {
		out, in := rank[d], rank[d+w]
		win.set[out>>6] &^= 1 << (out & 63)
		win.set[in>>6] |= 1 << (in & 63)
	}
	win.start = j
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// index makes the window's index for at, if it moved since.
func (win *window) index() {
	if win.fresh {
		return
	}
	n := 0
	for i, x := range win.set {
		// Broadword (Vigna's rank/select): counts per 2, 4, 8 bits, then
		// running counts by a multiply.
		s := x - (x>>1)&0x5555555555555555
		s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
		s = (s + s>>4) & 0x0f0f0f0f0f0f0f0f
		win.bytes[i] = s * ones
		win.cum[i] = n
		n += bits.OnesCount64(x)
	}
	win.fresh = true
}

// at returns the k-th smallest value of the window (from 0): the word
// that holds it by a binary search of the running counts (none for
// windows of up to 32 values), then the rank within that word.
func (win *window) at(k int) float64 {
	win.index()
	i := 0
	for lo, hi := 0, len(win.cum); hi-lo > 1; { // the last word with cum <= k
		m := int(uint(lo+hi) >> 1)
		if win.cum[m] <= k {
			lo = m
		} else {
			hi = m
		}
		i = lo
	}
	return word{win.set[i], win.bytes[i], win.ch.sorted[i<<6:]}.at(k - win.cum[i])
}

// word is one word of a window's bits, with its running counts per byte
// and the sorted values it stands for.
type word struct {
	set, bytes uint64
	sorted     []float64
}

// at returns the value of the word's k-th set bit (from 0; k is below its
// count) with no branch on the bits: the byte from the running counts,
// the bit within it from a table.
func (o word) at(k int) float64 {
	return o.sorted[o.pos(k)]
}

// pos returns the position of the word's k-th set bit (from 0; k is
// below its count).
func (o word) pos(k int) int {
	// The high bit of byte b is set when bytes 0..b hold more than k.
	at := bits.TrailingZeros64(((o.bytes|highs)-uint64(k+1)*ones)&highs) &^ 7
	k -= int((o.bytes << 8 >> at) & 0xff)
	return at + int(selectInByte[(o.set>>at)&0xff][k&7])
}

// selectInByte[x][k] is the position of the k-th set bit of the byte x: a
// table, filled once and only read.
var selectInByte = func() (t [256][8]uint8) {
	for x := range 256 {
		k := 0
		for b := range 8 {
			if x&(1<<b) != 0 {
				t[x][k] = uint8(b)
				k++
			}
		}
	}
	return t
}()

// median returns the window's median: the middle value, the mean of the
// middle two for an even w.
//
// A window of up to 32 values (one word of bits) finds the middle two of
// an even w by one select and the next set bit.
func (win *window) median() float64 {
	h := win.w / 2
	if win.w%2 == 1 {
		return win.at(h)
	}
	if len(win.set) == 1 {
		win.index()
		o := word{win.set[0], win.bytes[0], win.ch.sorted}
		p := o.pos(h - 1)
		q := p + 1 + bits.TrailingZeros64(o.set>>(p+1)) // a set bit is above p
		return (o.sorted[p] + o.sorted[q]) / 2
	}
	return (win.at(h-1) + win.at(h)) / 2
}

// mad returns the median of the absolute deviations of the window's
// values from its median med. The deviations of the lower half (med
// minus the values below the middle, outwards) and of the upper half (the
// values from the middle on minus med) are each ascending; the median of
// their union is found by a binary search for how many of the w/2 smallest
// come from the lower half, in O(log w) order statistics. The values are
// those the walk outwards from the middle finds, computed alike.
//
// A window of up to 32 values is first gathered in order from its one
// word of bits (a load per value, no branch but the loop's): at that size
// cheaper than a dozen selects.
func (win *window) mad(med float64) float64 {
	if len(win.set) == 1 {
		var buf [32]float64
		n := 0
		for x := win.set[0]; x != 0 && n < len(buf); x &= x - 1 {
			buf[n] = win.ch.sorted[bits.TrailingZeros64(x)]
			n++
		}
		return madOf(n, med, buf[:n], nil)
	}
	return madOf(win.w, med, nil, win)
}

// madOf is mad over w values: sorted, or the window's when sorted is nil.
func madOf(w int, med float64, sorted []float64, win *window) float64 {
	at := func(k int) float64 {
		if sorted != nil {
			return sorted[k]
		}
		return win.at(k)
	}
	h := w / 2 // deviations below: ranks h-1 down to 0; above: h up to w-1
	lower := func(i int) float64 { return med - at(h-1-i) }
	upper := func(i int) float64 { return at(h+i) - med }
	// Take the h smallest deviations, a from below and h-a from above.
	a, hiA := 0, h
	for a < hiA {
		m := int(uint(a+hiA) >> 1)
		if upper(h-m-1) > lower(m) {
			a = m + 1
		} else {
			hiA = m
		}
	}
	b := h - a
	// The next deviation, the (h+1)-th smallest, is the median for an odd
	// w; for an even w the median is its mean with the h-th.
	var next float64
	switch {
	case a == h:
		next = upper(b)
	case b == w-h:
		next = lower(a)
	default:
		next = min(lower(a), upper(b))
	}
	if w%2 == 1 {
		return next
	}
	var last float64
	switch {
	case a == 0:
		last = upper(b - 1)
	case b == 0:
		last = lower(a - 1)
	default:
		last = max(lower(a-1), upper(b-1))
	}
	return (last + next) / 2
}
