package layout

import (
	"unicode/utf8"

	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// Box metrics, in pixels, that assets/graphs.js draws with: an 11 px
// sans-serif label averages under CharWidth a character.
const (
	CharWidth   = 6.5
	OpHeight    = 24
	GroupHeight = 36
	// MaxLabel is the most characters of a label a box is sized for; the
	// page shortens longer ones.
	MaxLabel = 32
	// MaxAnnotations is the most annotations a side of a box lists; the
	// page then says how many more.
	MaxAnnotations = 3
	// MaxAnnotationLabel is the most characters of an annotation's
	// label a box is sized for.
	MaxAnnotationLabel = 16
	annotationLine     = 12
	padding            = 16
)

// Size is the part of a child's box given to its annotations.
type Size struct{ InW, OutW float64 }

// childSize is the size of a child's box, annotations included.
func childSize(c hierarchy.Child) (w, h float64, s Size) {
	n := min(utf8.RuneCountInString(c.Label), MaxLabel)
	w = max(float64(n)*CharWidth+padding, 40)
	h = OpHeight
	if c.Kind != hierarchy.Op {
		w, h = max(w+8, 90), GroupHeight
	}
	s.InW = annotationWidth(c.In)
	s.OutW = annotationWidth(c.Out)
	rows := max(min(len(c.In), MaxAnnotations+1), min(len(c.Out), MaxAnnotations+1))
	h = max(h, float64(rows*annotationLine+6))
	return w + s.InW + s.OutW, h, s
}

// annotationWidth is the width of a column of annotations: room for the
// longest label the page shows, bounded.
func annotationWidth(as []hierarchy.Annotation) float64 {
	if len(as) == 0 {
		return 0
	}
	return MaxAnnotationLabel*CharWidth*0.85 + 10
}
