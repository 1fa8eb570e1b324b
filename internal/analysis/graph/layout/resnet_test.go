package layout

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/model"
)

// resnetLike generates a ResNet-shaped GraphDef of about n nodes: stages
// of residual blocks, each block a scope of convolutions with batch norms
// (their variables and constants inside), a shortcut add and a ReLU, the
// first block of a stage with a projection shortcut (a convolution and a
// batch norm beside the main path), so that scopes nest three deep,
// numbered blocks form series and views branch as real ones do.
func resnetLike(n int) *model.NodeGraph {
	g := &model.NodeGraph{}
	add := func(name, op string, inputs ...string) string {
		nd := model.Node{Name: name, Op: op, OutputShapes: []model.NodeShape{{Dims: []int64{-1, 56, 56, 64}}}}
		for _, in := range inputs {
			nd.Inputs = append(nd.Inputs, model.NodeInput{Name: in})
		}
		g.Nodes = append(g.Nodes, nd)
		return name
	}
	x := add("input", "Placeholder")
	for s := 0; len(g.Nodes) < n; s++ {
		for b := 0; b < 6 && len(g.Nodes) < n; b++ {
			scope := fmt.Sprintf("resnet/stage%d/block_%d", s+1, b+1)
			convBN := func(conv, x string) string {
				w := add(conv+"/kernel", "VariableV2")
				r := add(conv+"/kernel/read", "Identity", w)
				x = add(conv+"/Conv2D", "Conv2D", x, r)
				eps := add(conv+"/bn/epsilon", "Const")
				var vars []string
				for _, v := range []string{"gamma", "beta", "moving_mean", "moving_variance"} {
					vars = append(vars, add(conv+"/bn/"+v, "VariableV2"))
				}
				return add(conv+"/bn/FusedBatchNorm", "FusedBatchNorm", append([]string{x, eps}, vars...)...)
			}
			in := x
			if b == 0 {
				in = convBN(scope+"/shortcut", x)
			}
			for c := range 3 {
				conv := fmt.Sprintf("%s/conv%d", scope, c+1)
				x = add(conv+"/Relu", "Relu", convBN(conv, x))
			}
			x = add(scope+"/add", "AddV2", x, in)
			x = add(scope+"/Relu", "Relu", x)
		}
	}
	add("loss/Mean", "Mean", x)
	add("loss/ScalarSummary", "ScalarSummary", "loss/Mean")
	return g
}
