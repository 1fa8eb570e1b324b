package hierarchy

import (
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// FuzzBuild builds the hierarchy of graphs whose node names, ops and
// inputs come from the fuzzer (one node a line: "name op input ..."), and
// checks what every view relies on: each node sits in exactly one group,
// every child refers to something that exists, every edge joins two
// children of its group (mixed only when it bundles two data edges or
// more), the op counts add up, and no child holding more than half its
// view's ops is in the side box.
func FuzzBuild(f *testing.F) {
	f.Add("a/b/c Conv2D a/x\na/x Const\na/b VariableV2\nl_1 Relu\nl_2 Relu l_1\nl_3 Relu l_2\nl_4 Relu l_3\nl_5 Relu ^l_4\ns ScalarSummary l_5")
	f.Add("a Op a\na Op\n/ Op //\n// Op /:1\nx:y Op ^x:y")
	// MindSpore's shape: parameters all feeding one main scope.
	f.Add("pa Parameter\npb Parameter\npc Parameter\npd Parameter\npe Parameter\npf Parameter\npg Parameter\nph Parameter\npi Parameter\npj Parameter\npk Parameter\npl Parameter\nDefault/net/oa MatMul pa pa\nDefault/net/ob MatMul Default/net/oa pb\nDefault/net/oc MatMul Default/net/ob pc\nDefault/net/od MatMul Default/net/oc pd\nDefault/net/oe MatMul Default/net/od pe\nDefault/net/of MatMul Default/net/oe pf\nDefault/net/og MatMul Default/net/of pg\nDefault/net/oh MatMul Default/net/og ph\nDefault/net/oi MatMul Default/net/oh pi\nDefault/net/oj MatMul Default/net/oi pj\nDefault/net/ok MatMul Default/net/oj pk\nDefault/net/ol MatMul Default/net/ok pl\nDefault/net/om MatMul Default/net/ol pa\nDefault/net/on MatMul Default/net/om pb\nGradients/Default/g Grad Default/net/on pb")
	f.Fuzz(func(t *testing.T, text string) {
		g := &model.NodeGraph{}
		for _, line := range strings.Split(text, "\n") {
			fields := strings.Fields(line)
			if len(fields) == 0 || len(g.Nodes) >= 500 {
				continue
			}
			n := model.Node{Name: fields[0]}
			if len(fields) > 1 {
				n.Op = fields[1]
			}
			for _, in := range fields[min(2, len(fields)):] {
				n.Inputs = append(n.Inputs, model.NodeInput{Name: strings.TrimPrefix(in, "^"), Control: strings.HasPrefix(in, "^")})
			}
			g.Nodes = append(g.Nodes, n)
		}
		h := Build(g)
		placed := make([]int, len(g.Nodes))
		for gi, grp := range h.Groups {
			if gi > 0 && (grp.Parent < 0 || grp.Parent >= len(h.Groups)) {
				t.Fatalf("group %d: parent %d", gi, grp.Parent)
			}
			ops := 0
			for _, c := range grp.Children {
				switch c.Kind {
				case Op:
					placed[c.Ref]++
					ops++
					if h.Parent[c.Ref] != gi {
						t.Fatalf("node %d is in group %d, its parent says %d", c.Ref, gi, h.Parent[c.Ref])
					}
				default:
					if h.Groups[c.Ref].Parent != gi {
						t.Fatalf("group %d is in group %d, its parent says %d", c.Ref, gi, h.Groups[c.Ref].Parent)
					}
					ops += h.Groups[c.Ref].Ops
				}
				if c.Side && c.Kind != Op && 2*h.Groups[c.Ref].Ops > grp.Ops {
					t.Fatalf("group %q: child %q holds %d of its %d ops and is in the side box", grp.Name, c.Label, h.Groups[c.Ref].Ops, grp.Ops)
				}
				for _, a := range append(c.In, c.Out...) {
					if a.Child < 0 || a.Child >= len(grp.Children) {
						t.Fatalf("annotation of child %d", a.Child)
					}
				}
			}
			if ops != grp.Ops {
				t.Fatalf("group %q: %d ops in its children, Ops says %d", grp.Name, ops, grp.Ops)
			}
			for _, e := range grp.Edges {
				if e.From < 0 || e.From >= len(grp.Children) || e.To < 0 || e.To >= len(grp.Children) || e.From == e.To || e.Mixed && e.Data < 2 {
					t.Fatalf("group %q: edge %+v", grp.Name, e)
				}
			}
		}
		for i, n := range placed {
			if n != 1 {
				t.Fatalf("node %d placed %d times", i, n)
			}
		}
		if h.Groups[0].Ops != len(g.Nodes) {
			t.Fatalf("root holds %d ops of %d", h.Groups[0].Ops, len(g.Nodes))
		}
		if got, want := Count(g), (Counts{h.Edges, h.Dangling, h.Duplicates}); got != want {
			t.Fatalf("Count says %+v, Build %+v", got, want)
		}
		k, dangling := 0, 0
		for _, n := range g.Nodes {
			for _, in := range n.Inputs {
				r := h.Inputs[k]
				k++
				switch {
				case r.Node < 0:
					dangling++
				case r.Node >= len(g.Nodes) || g.Nodes[r.Node].Name != in.Node():
					t.Fatalf("input %q resolved to node %d", in.Name, r.Node)
				}
			}
		}
		if k != len(h.Inputs) || dangling != h.Dangling {
			t.Fatalf("%d inputs resolved of %d, %d dangling, Dangling says %d", len(h.Inputs), k, dangling, h.Dangling)
		}
	})
}
