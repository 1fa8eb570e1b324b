package tensorview

import "math"

// Heatmap is a tensor flattened to 2-D the way Tianshu's exception view
// lays it out, and shrunk to a bounded number of cells.
type Heatmap struct {
	// Rows and Cols are the size of the flattened matrix before any
	// shrinking; Cells holds CellRows x CellCols values, row-major, each
	// the mean of the finite values of a block of BlockRows x BlockCols of
	// the matrix (NaN, +Inf or -Inf when the block holds one: a NaN
	// first, then the first infinity; NaN too for a cell of a tiled
	// layout's padding, which has no value, see Pad).
	Rows, Cols           int
	BlockRows, BlockCols int
	CellRows, CellCols   int
	Cells                []float64
	// Pad marks the cells that are padding of a tiled layout only.
	Pad []bool
}

// Layout returns where the flattened matrix takes each element of a
// tensor of shape: its rows and columns and, per element in C order, its
// (row, column). Rank 0 and 1 are one row; rank 2 is the matrix itself;
// rank 3 [A, H, W] tiles the A slices of H x W in a grid ceil(sqrt(A))
// slices wide; rank 4 is read as NHWC, transposed to NCHW and tiled a row
// of C channels per sample; higher ranks merge their leading dimensions
// into the first of three.
func Layout(shape []int) (rows, cols int, at func(i int) (int, int)) {
	size := 1
	for _, d := range shape {
		size *= d
	}
	switch len(shape) {
	case 0, 1:
		return 1, size, func(i int) (int, int) { return 0, i }
	case 2:
		c := shape[1]
		return shape[0], c, func(i int) (int, int) { return i / c, i % c }
	case 4:
		n, h, w, c := shape[0], shape[1], shape[2], shape[3]
		// Element (n, y, x, ch) of NHWC is (n, ch, y, x) of NCHW, drawn in
		// tile (n, ch) at (y, x).
		return n * h, c * w, func(i int) (int, int) {
			ch := i % c
			x := (i / c) % w
			y := (i / (c * w)) % h
			s := i / (c * w * h)
			return s*h + y, ch*w + x
		}
	}
	h, w := shape[len(shape)-2], shape[len(shape)-1]
	a := 1
	if h*w > 0 {
		a = size / (h * w)
	}
	g := int(math.Ceil(math.Sqrt(float64(a))))
	g = max(g, 1)
	tilesDown := (a + g - 1) / g
	return tilesDown * h, g * w, func(i int) (int, int) {
		t := i / (h * w)
		y := (i / w) % h
		x := i % w
		return (t/g)*h + y, (t%g)*w + x
	}
}

// HeatmapOf flattens vals (C order, of shape) with Layout and shrinks the
// matrix by whole blocks to at most maxSide cells each way.
// A shape that does not hold len(vals) elements (a writer's mistake) is
// taken as one row.
func HeatmapOf(vals []float64, shape []int, maxSide int) Heatmap {
	n := 1
	for _, d := range shape {
		if d < 0 || d > 0 && n > len(vals)/d {
			n = -1
			break
		}
		n *= d
	}
	if n != len(vals) {
		shape = []int{len(vals)}
	}
	maxSide = max(maxSide, 1)
	rows, cols, at := Layout(shape)
	hm := Heatmap{Rows: rows, Cols: cols, BlockRows: 1, BlockCols: 1}
	if rows == 0 || cols == 0 {
		return hm
	}
	hm.BlockRows = (rows + maxSide - 1) / maxSide
	hm.BlockCols = (cols + maxSide - 1) / maxSide
	hm.CellRows = (rows + hm.BlockRows - 1) / hm.BlockRows
	hm.CellCols = (cols + hm.BlockCols - 1) / hm.BlockCols
	n = hm.CellRows * hm.CellCols
	sum := make([]float64, n)
	cnt := make([]int, n)
	seen := make([]bool, n)
	bad := make([]float64, n) // 0: none; else the non-finite value kept
	for i, v := range vals {
		r, c := at(i)
		k := (r/hm.BlockRows)*hm.CellCols + c/hm.BlockCols
		seen[k] = true
		switch {
		case math.IsNaN(v):
			bad[k] = v
		case math.IsInf(v, 0):
			if bad[k] == 0 {
				bad[k] = v
			}
		default:
			sum[k] += v
			cnt[k]++
		}
	}
	hm.Cells = make([]float64, n)
	hm.Pad = make([]bool, n)
	for k := range hm.Cells {
		switch {
		case !seen[k]:
			hm.Cells[k], hm.Pad[k] = math.NaN(), true
		case bad[k] != 0 || math.IsNaN(bad[k]):
			hm.Cells[k] = bad[k]
		default:
			hm.Cells[k] = sum[k] / float64(cnt[k])
		}
	}
	return hm
}
