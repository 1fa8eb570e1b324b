package gvc

import (
	_ "unsafe"

	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt"
	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/cgraph"
	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/internal/wasm"
)

//go:linkname toGraph github.com/trainreport/trainreport/internal/thirdparty/graphviz/cgraph.toGraph
func toGraph(*wasm.Graph) *cgraph.Graph

//go:linkname toGraphWasm github.com/trainreport/trainreport/internal/thirdparty/graphviz/cgraph.toGraphWasm
func toGraphWasm(*cgraph.Graph) *wasm.Graph

//go:linkname toNode github.com/trainreport/trainreport/internal/thirdparty/graphviz/cgraph.toNode
func toNode(*wasm.Node) *cgraph.Node

//go:linkname toEdge github.com/trainreport/trainreport/internal/thirdparty/graphviz/cgraph.toEdge
func toEdge(*wasm.Edge) *cgraph.Edge

//go:linkname toDictLink github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toLink
func toDictLink(*wasm.DictLink) *cdt.Link

//go:linkname toDictLinkWasm github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toLinkWasm
func toDictLinkWasm(*cdt.Link) *wasm.DictLink
