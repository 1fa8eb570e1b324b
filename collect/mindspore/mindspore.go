// Package mindspore decodes the values of MindSpore summary and lineage
// files (docs/FORMATS.md section 21) into the report model's: tensors,
// histograms and tags. Package collect reads the files (their framing is
// TensorBoard's) and keeps what this package decodes; the graph is decoded
// by package graph.
package mindspore

import "strings"

// Version is the version record that opens a MindSpore summary file.
const Version = "MindSpore.Event:1"

// tagKinds are the suffixes MindSpore's in-graph summary operators put
// behind a tag (ScalarSummary writes "loss[:Scalar]"), which MindInsight
// strips. MindSpore 2.x strips them itself before writing; 1.x files hold
// them.
var tagKinds = []string{"[:Scalar]", "[:Tensor]", "[:Image]", "[:Histogram]"}

// StripTag returns tag without the kind suffix of an in-graph summary
// operator, as MindInsight shows it.
func StripTag(tag string) string {
	for _, k := range tagKinds {
		if t, ok := strings.CutSuffix(tag, k); ok {
			return t
		}
	}
	return tag
}
