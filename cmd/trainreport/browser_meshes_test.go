package main

// Browser tests of the Meshes page on the writers' meshes (TensorBoard's
// summary and tensorboardX's add_mesh, a coloured tetrahedron each): every
// card draws every vertex inside its canvas and every face, in its
// vertices' colours, and the step slider draws the step it names; in the
// site and the single-file report, with WebGL and, in a browser without
// it, with the 2-D canvas renderer the page falls back to.

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"
)

func TestBrowserMeshes(t *testing.T) {
	t.Parallel()
	for _, b := range []struct {
		renderer string
		flags    []browserFlag
	}{
		{"webgl", withWebGL},
		{"canvas", []browserFlag{{"disable-3d-apis", true}}},
	} {
		t.Run(b.renderer, func(t *testing.T) {
			testMeshesDrawn(t, startBrowser(t, b.flags...), b.renderer)
		})
	}
}

// testMeshesDrawn checks the writers' meshes in browser, drawn by the
// page's renderer of that name.
func testMeshesDrawn(t *testing.T, browser context.Context, renderer string) {
	shots := screenshotDir(t)
	writers := filepath.Join("..", "..", "collect", "testdata", "writers")
	out := t.TempDir()
	site, single := filepath.Join(out, "site"), filepath.Join(out, "report.html")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-o", site, "--single-file", single,
		filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "tf2")}, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(site, "meshes.html"), "")},
		{"single-file", fileURL(single, "page=meshes")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			const cards = `[...document.querySelectorAll('main.page[data-page="meshes"] article.mesh-card')]`
			if n := eval[int](tb, cards+`.length`); n != 2 {
				t.Fatalf("%d mesh cards, want 2", n)
			}
			waitFor(tb, cards+`.every(c => c.dataset.meshDrawnStep === "1")`, 20*time.Second, "every mesh drawn at its last step")
			type drawn struct {
				Renderer        string
				Vertices, Faces string
				Colored, Red    int
				Blue, Green     int
			}
			// The canvas's pixels: how many are not the white background,
			// and how many are each vertex colour's (the tetrahedron's
			// corners are red, green, blue and yellow).
			got := eval[[]drawn](tb, cards+`.map(c => {
				const cv = c.querySelector('canvas'), tmp = document.createElement('canvas');
				tmp.width = cv.width; tmp.height = cv.height;
				const ctx = tmp.getContext('2d'); ctx.drawImage(cv, 0, 0);
				const px = ctx.getImageData(0, 0, tmp.width, tmp.height).data;
				let colored = 0, red = 0, green = 0, blue = 0;
				for (let i = 0; i < px.length; i += 4) {
					const [r, g, b] = [px[i], px[i+1], px[i+2]];
					if (r < 240 || g < 240 || b < 240) colored++;
					if (r > 150 && g < 80 && b < 80) red++;
					if (g > 150 && r < 80 && b < 80) green++;
					if (b > 150 && r < 80 && g < 80) blue++;
				}
				return {renderer: c.dataset.meshRenderer, vertices: c.dataset.meshDrawnVertices, faces: c.dataset.meshDrawnFaces,
					colored, red, green, blue};
			})`)
			for i, d := range got {
				if d.Renderer != renderer {
					t.Errorf("card %d drawn by %q, want %q", i, d.Renderer, renderer)
				}
				if d.Vertices != "4" || d.Faces != "4" {
					t.Errorf("card %d (%s): drew %s vertices inside the canvas and %s faces, want 4 and 4", i, d.Renderer, d.Vertices, d.Faces)
				}
				if d.Colored < 5000 || d.Red == 0 || d.Green == 0 || d.Blue == 0 {
					t.Errorf("card %d (%s): %d pixels drawn, %d red, %d green, %d blue: want the tetrahedron in its corners' colours", i, d.Renderer, d.Colored, d.Red, d.Green, d.Blue)
				}
			}
			eval[bool](tb, cards+`.every(c => { const s = c.querySelector('[data-mesh-slider]'); s.value = "0"; s.dispatchEvent(new Event('input')); return true; })`)
			waitFor(tb, cards+`.every(c => c.dataset.meshDrawnStep === "0" && c.dataset.meshDrawnVertices === "4")`, 10*time.Second, "the slider draws step 0")
			if label := eval[string](tb, cards+`[0].querySelector('[data-mesh-step-label]').textContent`); label != "0 (1 of 2)" {
				t.Errorf("step label %q, want \"0 (1 of 2)\"", label)
			}
			tb.screenshot(shots, "meshes-"+renderer+"-"+c.name)
			tb.assertClean()
		})
	}
}
