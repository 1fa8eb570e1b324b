package result

import (
	"fmt"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// Kinds of data that are not tags, for what a run holds besides its tags'
// series (analysis.Undrawn) and for the kinds of the page that draws them
// (render's pageTable).
const (
	EmbeddingKind  model.Kind = "embedding"
	ExceptionKind  model.Kind = "exception"
	LogMessageKind model.Kind = "log_message"
)

// UndrawnRun is what one run holds that no page of the report draws.
type UndrawnRun struct {
	Run   string
	Items []UndrawnItem
}

// String is "2 meshes, 1 log message".
func (u UndrawnRun) String() string {
	parts := make([]string, len(u.Items))
	for i, it := range u.Items {
		parts[i] = it.String()
	}
	return strings.Join(parts, ", ")
}

// UndrawnItem is a kind of data a run holds that no page draws, and how
// much of it.
type UndrawnItem struct {
	// What is the kind, in the singular: "mesh", "log message", "tag of
	// kind other"; Plural the same for N other than 1.
	What, Plural string
	N            int
}

// String is "2 meshes", "1 log message".
func (it UndrawnItem) String() string {
	if it.N == 1 {
		return "1 " + it.What
	}
	return fmt.Sprintf("%d %s", it.N, it.Plural)
}
