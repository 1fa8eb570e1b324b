package layout

import (
	"errors"
	"unicode/utf8"

	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// Metrics are the sizes, in pixels, of what the page that draws a view
// puts in a box: its labels, its core shape and its annotations. Boxes are
// sized to hold them. They are an input of the layout (Options.Metrics),
// which knows nothing of the page: the caller states the page's values
// once, beside a test that reads them back from the page's script.
type Metrics struct {
	// CharWidth is the average advance of one character of a label.
	CharWidth float64
	// OpHeight and GroupHeight are the heights of the core shape of an
	// op's box and of a scope's or series' box.
	OpHeight, GroupHeight float64
	// AnnotationLine is the height of one line of annotations.
	AnnotationLine float64
	// MaxAnnotations is the most annotations a side of a box lists; the
	// page then says how many more, on a line of its own.
	MaxAnnotations int
	// MaxAnnotationLabel is the most characters of an annotation's label
	// the page writes.
	MaxAnnotationLabel int
}

// check reports metrics that cannot size a box.
func (m Metrics) check() error {
	if !(m.CharWidth > 0 && m.OpHeight > 0 && m.GroupHeight > 0 && m.AnnotationLine > 0) ||
		m.MaxAnnotations < 0 || m.MaxAnnotationLabel < 0 {
		return errors.New("no box metrics given")
	}
	return nil
}

// Box sizes of the layout's own choosing, in pixels and characters: not
// what the page draws, but how much room a box gives it.
const (
	// maxLabel is the most characters of a label a box is sized for; the
	// page shortens longer ones to the box's width.
	maxLabel = 32
	// padding is the width a box adds to its label.
	padding = 16
)

// Size is the part of a child's box given to its annotations.
type Size struct{ InW, OutW float64 }

// childSize is the size of a child's box, annotations included.
func (m Metrics) childSize(c hierarchy.Child) (w, h float64, s Size) {
	n := min(utf8.RuneCountInString(c.Label), maxLabel)
	w = max(float64(n)*m.CharWidth+padding, 40)
	h = m.OpHeight
	if c.Kind != hierarchy.Op {
		w, h = max(w+8, 90), m.GroupHeight
	}
	s.InW = m.annotationWidth(c.In)
	s.OutW = m.annotationWidth(c.Out)
	rows := max(min(len(c.In), m.MaxAnnotations+1), min(len(c.Out), m.MaxAnnotations+1))
	h = max(h, float64(rows)*m.AnnotationLine+6)
	return w + s.InW + s.OutW, h, s
}

// annotationWidth is the width of a column of annotations: room for the
// longest label the page shows, bounded.
func (m Metrics) annotationWidth(as []hierarchy.Annotation) float64 {
	if len(as) == 0 {
		return 0
	}
	// An annotation's 9 px font is about 85% as wide as a label's 11 px.
	// (Written *85/100, not *0.85, so that the width is the float the
	// constants once made: 98.4, not 98.39999999999999.)
	return float64(m.MaxAnnotationLabel)*m.CharWidth*85/100 + 10
}
