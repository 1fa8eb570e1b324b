package cgraph

import (
	_ "unsafe"

	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt"
	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/internal/wasm"
)

//go:linkname toDict github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toDict
func toDict(*wasm.Dict) *cdt.Dict

//go:linkname toDictWasm github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toDictWasm
func toDictWasm(*cdt.Dict) *wasm.Dict

//go:linkname toDictLink github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toLink
func toDictLink(*wasm.DictLink) *cdt.Link

//go:linkname toDictLinkWasm github.com/trainreport/trainreport/internal/thirdparty/graphviz/cdt.toLinkWasm
func toDictLinkWasm(*cdt.Link) *wasm.DictLink

func toGraphWasm(v *Graph) *wasm.Graph {
	if v == nil {
		return nil
	}
	return v.wasm
}
