package hierarchy

import (
	"slices"
	"strings"
)

// minSeries is the fewest numbered siblings collapsed into a series, as
// TensorBoard collapses them.
const minSeries = 5

// seriesKey gathers the siblings of a series: the name without its number
// and, for ops, the op (TensorBoard groups only alike nodes).
type seriesKey struct {
	prefix string
	kind   Kind
	op     string
}

// series collapses, among group gi's children, each run of five or more
// alike siblings whose names differ only in a trailing number
// ("layer_1" ... "layer_12") into a series group of its own, placed where
// its first member was.
func (b *builder) series(gi int) {
	grp := b.h.Groups[gi]
	members := map[seriesKey][]int{}
	var keys []seriesKey // in the order first met
	for ci, c := range grp.Children {
		prefix, _, ok := splitNumber(c.Label)
		if !ok {
			continue
		}
		k := seriesKey{prefix: prefix, kind: c.Kind}
		if c.Kind == Op {
			k.op = b.g.Nodes[c.Ref].Op
		}
		if members[k] == nil {
			keys = append(keys, k)
		}
		members[k] = append(members[k], ci)
	}
	moved := map[int]int{} // child -> series group it moved into
	firstOf := map[int]int{}
	for _, k := range keys {
		m := members[k]
		if len(m) < minSeries {
			continue
		}
		slices.SortStableFunc(m, func(a, c int) int {
			_, na, _ := splitNumber(grp.Children[a].Label)
			_, nc, _ := splitNumber(grp.Children[c].Label)
			return cmpNumber(na, nc)
		})
		_, lo, _ := splitNumber(grp.Children[m[0]].Label)
		_, hi, _ := splitNumber(grp.Children[m[len(m)-1]].Label)
		label := k.prefix + "[" + lo + "-" + hi + "]"
		name := label
		if grp.Name != "" {
			name = grp.Name + "/" + label
		}
		si := len(b.h.Groups)
		s := &Group{Name: name, Label: label, Kind: Series, Parent: gi}
		for _, ci := range m {
			s.Children = append(s.Children, grp.Children[ci])
			moved[ci] = si
		}
		b.h.Groups = append(b.h.Groups, s)
		firstOf[slices.Min(m)] = si
	}
	if len(moved) == 0 {
		return
	}
	kept := grp.Children[:0:0]
	for ci, c := range grp.Children {
		if si, ok := firstOf[ci]; ok {
			kept = append(kept, Child{Kind: Series, Ref: si, Label: b.h.Groups[si].Label})
		}
		if _, ok := moved[ci]; !ok {
			kept = append(kept, c)
		}
	}
	grp.Children = kept
}

// splitNumber splits "layer_12" into "layer_" and "12"; ok is false when
// the label does not end in a digit or is only digits.
func splitNumber(label string) (prefix, number string, ok bool) {
	i := len(label)
	for i > 0 && label[i-1] >= '0' && label[i-1] <= '9' {
		i--
	}
	if i == len(label) || i == 0 {
		return "", "", false
	}
	return label[:i], label[i:], true
}

// cmpNumber orders decimal strings by value, of any length.
func cmpNumber(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
