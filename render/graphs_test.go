package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// hostileGraph is a graph whose names, ops, devices and attributes would
// end a script element or add an element if they were written raw.
func hostileGraph() *model.Graph {
	bad := `</script><img src=x onerror=alert(1)>`
	return &model.Graph{Source: model.SourceGraphDef, NodeGraph: model.NodeGraph{Nodes: []model.Node{
		{Name: "x/" + bad, Op: bad, Device: bad, Attrs: []model.NodeAttr{{Name: bad, Value: bad}}},
		{Name: "y\u2028", Op: "Identity", Inputs: []model.NodeInput{{Name: "x/" + bad}}},
	}}}
}

// Names from a graph reach the page and its data only escaped: no
// "</script>" ends an element early in the site's page, its data script
// or the single file, and the data reads back to the names.
func TestGraphNamesInert(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	rep.Runs[0].Graphs = []*model.Graph{hostileGraph()}
	r := New(rep, Options{})
	files := filesByName(t, r)
	page := string(files["graphs.html"])
	if page == "" {
		t.Fatal("no graphs page")
	}
	var data, script []byte
	for name, b := range files {
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".json") {
			data = b
		}
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".js") {
			script = b
		}
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	for what, b := range map[string]string{"graphs.html": page, "data script": string(script), "single file": single.String()} {
		if strings.Contains(b, "<img src=x") || strings.Contains(strings.ToLower(b), "</script><img") || strings.Contains(b, "\u2028") {
			t.Errorf("%s holds a name unescaped", what)
		}
	}
	var j graphJSON
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if n := j.CGraph.Net[0]; n.Name != "x/</script><img src=x onerror=alert(1)>" || n.Attrs[0][1] != "</script><img src=x onerror=alert(1)>" {
		t.Errorf("the data does not read back to the names: %+v", n)
	}
	if !strings.Contains(single.String(), `class="graph-inline"`) {
		t.Error("the single file does not inline the graph")
	}
}
