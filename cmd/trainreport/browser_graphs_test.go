package main

// Browser test of the graphs page on the shared corpus's largest graph
// (the TF1 Estimator's GraphDef, 1,474 nodes) and on the Keras and ONNX
// graphs, from file:// with the network blocked, in the site and the
// single-file report: the view drawn is the data's (every box where the
// layout put it, every edge, control edges dashed), a scope opens on
// double-click and the breadcrumbs lead back, the search opens the scopes
// of the node it finds and selects it, the details panel says what the
// data says of the node, and the SVG and PNG exports are made (the SVG
// holding the boxes and edges drawn).

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type graphViewState struct {
	Group, Kind           string
	Crumbs                []string
	Boxes, WantBoxes      int
	Edges, WantEdges      int
	Dashed, WantDashed    int
	Misplaced, FirstScope int
	ScopeName             string
}

func readGraphView(t *testing.T, tb *tab) graphViewState {
	t.Helper()
	var v graphViewState
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "view"))), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func checkGraphView(t *testing.T, v graphViewState) {
	t.Helper()
	if v.Boxes == 0 || v.Boxes != v.WantBoxes {
		t.Errorf("view %q: %d boxes drawn, the data has %d", v.Group, v.Boxes, v.WantBoxes)
	}
	if v.Edges != v.WantEdges || v.Dashed != v.WantDashed {
		t.Errorf("view %q: %d edges (%d dashed) drawn, the data has %d (%d control only)", v.Group, v.Edges, v.Dashed, v.WantEdges, v.WantDashed)
	}
	if v.Misplaced > 0 {
		t.Errorf("view %q: %d boxes drawn outside their layout box", v.Group, v.Misplaced)
	}
}

func TestBrowserGraphs(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := reportOf(t, filepath.Join(corpusRoot(t), "tf1-estimator-truncated"))
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "graphs.html"), "")},
		{"single-file", fileURL(r.single, "page=graphs")},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("graphs.js", "drawn"), 10*time.Second, "the graph drawn")
			t.Logf("the 1,474-node graph drawn %v after the tab opened", time.Since(start).Round(time.Millisecond))
			root := readGraphView(t, tb)
			if root.Group != "" || len(root.Crumbs) != 1 {
				t.Fatalf("first view %q, crumbs %q: want the graph's top level", root.Group, root.Crumbs)
			}
			checkGraphView(t, root)
			if root.Dashed == 0 {
				t.Error("the Estimator's top level draws no control edge")
			}
			tb.screenshot(shots, "graphs-tf1-"+c.name)
			checkFitReadable(t, tb, "input_layer")

			// Export: the SVG holds the view drawn, the PNG is made.
			var exp []struct {
				Name, Type         string
				Size, Boxes, Edges int
				Parses             bool
			}
			if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "exported"))), &exp); err != nil {
				t.Fatal(err)
			}
			if len(exp) != 2 || exp[0].Type != "image/svg+xml" || !exp[0].Parses || exp[0].Boxes != root.Boxes || exp[0].Edges != root.Edges ||
				!strings.HasSuffix(exp[0].Name, ".svg") || exp[1].Type != "image/png" || exp[1].Size < 1000 || !strings.HasSuffix(exp[1].Name, ".png") {
				t.Errorf("exports %+v; want an SVG of %d boxes and %d edges and a PNG", exp, root.Boxes, root.Edges)
			}

			// Open a scope, then back by the breadcrumbs.
			if root.FirstScope < 0 {
				t.Fatal("no scope at the top level")
			}
			eval[bool](tb, pageJS("graphs.js", "open", root.FirstScope))
			in := readGraphView(t, tb)
			if in.Group != root.ScopeName || len(in.Crumbs) != 2 {
				t.Errorf("after opening %q: view %q, crumbs %q", root.ScopeName, in.Group, in.Crumbs)
			}
			checkGraphView(t, in)
			eval[bool](tb, pageJS("graphs.js", "crumb", 0))
			if back := readGraphView(t, tb); back.Group != "" {
				t.Errorf("the first breadcrumb leads to %q, not the top level", back.Group)
			}

			// Search for the deepest node: its scopes open, it is selected,
			// its details are the data's.
			name := eval[string](tb, pageJS("graphs.js", "deepNode"))
			eval[bool](tb, pageJS("graphs.js", "find", name))
			var d struct {
				Name, Op, DataOp, Scope, Hash string
				Inputs, DataInputs            []string
				Selected                      int
			}
			if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "details"))), &d); err != nil {
				t.Fatal(err)
			}
			if d.Name != name || d.Op == "" || d.Op != d.DataOp || strings.Join(d.Inputs, "|") != strings.Join(d.DataInputs, "|") {
				t.Errorf("details after finding %q: %+v", name, d)
			}
			if d.Selected != 1 {
				t.Errorf("after finding %q, %d boxes drawn selected, want 1", name, d.Selected)
			}
			found := readGraphView(t, tb)
			if found.Group != d.Scope || len(found.Crumbs) < 3 {
				t.Errorf("finding %q shows view %q (crumbs %q), want its scope %q", name, found.Group, found.Crumbs, d.Scope)
			}
			checkGraphView(t, found)
			if !strings.Contains(d.Hash, "node=") || !strings.Contains(d.Hash, "scope=") {
				t.Errorf("the URL hash %q does not keep the node and scope", d.Hash)
			}
			tb.screenshot(shots, "graphs-tf1-found-"+c.name)
		})
	}
}

// graphFit is what the page shows of a view at Fit (graphs.js measure).
type graphFit struct {
	Zoom, MinFont               float64
	Labels, Anns                int
	LabelsOutside, AnnsDetached []string
	MainShown                   bool
	Main, Zoomed                string
}

// checkFitReadable checks the drawn view at Fit, as the page opened it
// and after clicking Fit: labels read at 8 px or more, every box's label
// inside its box, every annotation against its box's core (within 10 px)
// and beside the box, the view's main box (main) in sight; and that −
// zooms out past Fit's zoom, and Ctrl + wheel up in again.
func checkFitReadable(t *testing.T, tb *tab, main string) {
	t.Helper()
	for _, step := range []string{"opened", "Fit"} {
		if step == "Fit" {
			eval[bool](tb, pageJS("graphs.js", "fit"))
		}
		var f graphFit
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "measure"))), &f); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: zoom %.2f, labels at %.1f px or more, %d labels, %d annotations; %q", step, f.Zoom, f.MinFont, f.Labels, f.Anns, f.Zoomed)
		if f.MinFont < 8 {
			t.Errorf("%s: labels drawn at %.1f px (zoom %.2f): unreadable", step, f.MinFont, f.Zoom)
		}
		if len(f.LabelsOutside) > 0 {
			t.Errorf("%s: %d of %d labels outside their box: %q", step, len(f.LabelsOutside), f.Labels, f.LabelsOutside)
		}
		if f.Anns == 0 || len(f.AnnsDetached) > 0 {
			t.Errorf("%s: %d of %d annotations apart from their box: %q", step, len(f.AnnsDetached), f.Anns, f.AnnsDetached)
		}
		if f.Main != main || !f.MainShown {
			t.Errorf("%s: the main box %q (want %q) is not in sight", step, f.Main, main)
		}
	}
	fit := eval[float64](tb, `document.querySelector('main.page[data-page="graphs"] [data-graph-canvas] svg').getScreenCTM().a`)
	eval[bool](tb, `document.querySelector('main.page[data-page="graphs"] [data-graph-zoom="0.8"]').click(), true`)
	out := eval[float64](tb, `document.querySelector('main.page[data-page="graphs"] [data-graph-canvas] svg').getScreenCTM().a`)
	if out >= fit {
		t.Errorf("− leaves the zoom at %.2f (Fit's %.2f)", out, fit)
	}
	// Ctrl + wheel up zooms in.
	eval[bool](tb, `document.querySelector('main.page[data-page="graphs"] [data-graph-canvas]').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, ctrlKey: true, bubbles: true, cancelable: true})), true`)
	if z := eval[float64](tb, `document.querySelector('main.page[data-page="graphs"] [data-graph-canvas] svg').getScreenCTM().a`); z <= out {
		t.Errorf("Ctrl + wheel up leaves the zoom at %.2f", z)
	}
	eval[bool](tb, pageJS("graphs.js", "fit"))
}

// TestBrowserGraphsCorpus opens the Keras, ONNX and OneFlow graphs of the
// corpus: each draws its top level as its data says, without an error.
func TestBrowserGraphsCorpus(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	for _, name := range []string{"keras-tf21-standard-profile", "tbx12-2018-no-file-version", "tsvis-oneflow-logs", "tf2-custom-loop-tensors"} {
		t.Run(name, func(t *testing.T) {
			r := reportOf(t, filepath.Join(corpusRoot(t), name))
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, "graphs.html"), ""))
			waitFor(tb, pageJS("graphs.js", "drawn"), 10*time.Second, "the graph drawn")
			if name == "tf2-custom-loop-tensors" {
				// Its traced graph is 50 empty RunMetadata (TensorBoard
				// shows nothing either): the page says so.
				if msg := eval[string](tb, `document.querySelector('main.page[data-page="graphs"]').textContent`); !strings.Contains(msg, "holds no node") || !strings.Contains(msg, "the RunMetadata holds no graph") {
					t.Errorf("the empty traced graph is not said to be empty")
				}
			} else {
				checkGraphView(t, readGraphView(t, tb))
			}
			if name == "tsvis-oneflow-logs" {
				// Its profiler run metadata holds step stats of 16 nodes of
				// the op graph: colour by memory reaches them, and only them.
				// The page opens on the Minist scope, the graph's main
				// scope (42 of its 44 ops).
				if v := readGraphView(t, tb); v.Group != "Minist" {
					t.Errorf("the OneFlow graph opens on %q, not its main scope Minist", v.Group)
				}
				var c struct {
					Enabled       bool
					Colored, Want int
					Legend        string
				}
				if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "colorBy", "memory"))), &c); err != nil {
					t.Fatal(err)
				}
				if !c.Enabled || c.Want == 0 || c.Colored != c.Want || !strings.Contains(c.Legend, "most") {
					t.Errorf("colour by memory: %+v", c)
				}
				tb.screenshot(shots, "graphs-"+name+"-memory")
			}
			tb.screenshot(shots, "graphs-"+name)
		})
	}
}
