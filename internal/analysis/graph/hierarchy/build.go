package hierarchy

import (
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// Build groups the nodes of g. It never fails: an input naming no node is
// counted in Dangling, a repeated name in Duplicates.
func Build(g *model.NodeGraph) *Hierarchy {
	b := builder{h: &Hierarchy{Parent: make([]int, len(g.Nodes))}, g: g,
		byName: make(map[string]int, len(g.Nodes)), groupOf: map[string]int{}}
	for i, n := range g.Nodes {
		if _, dup := b.byName[n.Name]; dup {
			b.h.Duplicates++
		}
		b.byName[n.Name] = i
	}
	b.scopes()
	for gi := range b.h.Groups {
		b.series(gi) // series are appended: they are not scanned again
	}
	b.link()
	b.edges()
	for _, grp := range b.h.Groups {
		annotate(grp, g)
		extractHighDegree(grp, b.h.Groups)
	}
	return b.h
}

type builder struct {
	h       *Hierarchy
	g       *model.NodeGraph
	byName  map[string]int
	groupOf map[string]int // scope name -> group
	// slot is, for each node, its index among its group's children; and
	// groupSlot the same for each group but the root.
	slot, groupSlot []int
}

// maxScopeDepth bounds the nesting of scopes: a name's slashes past the
// 32nd stay in its label. Each scope keeps its full name, so without a
// bound a 10 KB name of slashes would cost 25 MB of names.
const maxScopeDepth = 32

// scopeCut returns the index of the slash ending name's last scope, at
// most maxScopeDepth deep, or -1 when the name has no scope.
func scopeCut(name string) int {
	cut, depth := -1, 0
	for i := 0; i < len(name) && depth < maxScopeDepth; i++ {
		if name[i] == '/' {
			cut, depth = i, depth+1
		}
	}
	return cut
}

// scopes makes the tree of name scopes: every prefix of a node's name
// ending before one of its first maxScopeDepth slashes is a scope. A node
// whose whole name is also a scope (TensorFlow allows "dense" beside
// "dense/kernel") goes inside that scope, labelled "(dense)" as
// TensorBoard labels it.
func (b *builder) scopes() {
	h := b.h
	h.Groups = append(h.Groups, &Group{Kind: Scope, Parent: -1})
	isScope := map[string]bool{}
	for _, n := range b.g.Nodes {
		depth := 0
		for i := 0; i < len(n.Name) && depth < maxScopeDepth; i++ {
			if n.Name[i] == '/' {
				isScope[n.Name[:i]] = true
				depth++
			}
		}
	}
	for i, n := range b.g.Nodes {
		parent, label := "", n.Name
		if isScope[n.Name] {
			parent, label = n.Name, "("+lastPart(n.Name)+")"
		} else if j := scopeCut(n.Name); j >= 0 {
			parent, label = n.Name[:j], n.Name[j+1:]
		}
		gi := b.group(parent)
		h.Groups[gi].Children = append(h.Groups[gi].Children, Child{Kind: Op, Ref: i, Label: label})
	}
}

// group returns the group of scope name, making it and its parents.
func (b *builder) group(name string) int {
	if name == "" {
		return 0
	}
	if gi, ok := b.groupOf[name]; ok {
		return gi
	}
	parent := ""
	if j := strings.LastIndexByte(name, '/'); j >= 0 {
		parent = name[:j]
	}
	pi := b.group(parent)
	gi := len(b.h.Groups)
	b.h.Groups = append(b.h.Groups, &Group{Name: name, Label: lastPart(name), Kind: Scope, Parent: pi})
	b.groupOf[name] = gi
	b.h.Groups[pi].Children = append(b.h.Groups[pi].Children, Child{Kind: Scope, Ref: gi, Label: lastPart(name)})
	return gi
}

func lastPart(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

// link sets every group's parent, depth and op count, and where each node
// and group sits among its parent's children.
func (b *builder) link() {
	h := b.h
	b.slot = make([]int, len(b.g.Nodes))
	b.groupSlot = make([]int, len(h.Groups))
	// Breadth first from the root: a series made later than its members
	// still comes before them.
	queue := []int{0}
	for len(queue) > 0 {
		gi := queue[0]
		queue = queue[1:]
		grp := h.Groups[gi]
		for ci, c := range grp.Children {
			if c.Kind == Op {
				h.Parent[c.Ref], b.slot[c.Ref] = gi, ci
				continue
			}
			sub := h.Groups[c.Ref]
			sub.Parent, sub.Depth, b.groupSlot[c.Ref] = gi, grp.Depth+1, ci
			queue = append(queue, c.Ref)
		}
	}
	for i := range b.g.Nodes {
		for gi := h.Parent[i]; gi >= 0; gi = h.Groups[gi].Parent {
			h.Groups[gi].Ops++
		}
	}
}
