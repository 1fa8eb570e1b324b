// Package graph decodes the model graphs training logs carry into one node
// model: TensorFlow GraphDefs (alone, inside a MetaGraphDef, or inside the
// RunMetadata of a traced step), Keras model JSON, OneFlow structure
// graphs (docs/FORMATS.md section 14) and MindSpore graphs (section 21). It reads payloads handed to it
// and opens no file; every decoder returns an error for input it cannot
// read and never panics.
package graph

import (
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// The node model is the report model's (package model); these names are
// the ones the decoders were written with.
type (
	// Graph is a model graph decoded to its nodes.
	Graph = model.NodeGraph
	// Node is one operation or layer.
	Node = model.Node
	// Input is an edge into a node.
	Input = model.NodeInput
	// Attr is one attribute of a node, its value summarised for reading.
	Attr = model.NodeAttr
	// Shape is a tensor shape.
	Shape = model.NodeShape
)

// Bounds on the summaries of attribute values.
const (
	maxListItems = 8   // items of a list shown before the count of the rest
	maxValueLen  = 160 // bytes of one attribute value
	maxDepth     = 4   // nesting of JSON values shown
)

// shorten cuts s to at most maxValueLen bytes, on a rune boundary, marking
// the cut.
func shorten(s string) string {
	if len(s) <= maxValueLen {
		return s
	}
	cut := maxValueLen - len("…")
	for cut > 0 && !runeStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }

// listString writes items as "[a, b, c]": at most maxListItems of them,
// fewer when they grow long, then how many there are in all.
func listString(n int, item func(i int) string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	shown := 0
	for ; shown < n && shown < maxListItems && sb.Len() <= maxValueLen; shown++ {
		if shown > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(item(shown))
	}
	if shown < n {
		sb.WriteString(", … (" + strconv.Itoa(n) + " items)")
	}
	sb.WriteByte(']')
	return sb.String()
}
