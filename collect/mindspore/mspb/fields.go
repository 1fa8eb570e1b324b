package mspb

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers on the paths to MindSpore payloads (docs/FORMATS.md
// section 21), which collect locates in a record without the generated
// code, declared here once. Each names its message and field in its
// comment: TestFieldNumbersMatchDescriptors (collect/fields_test.go)
// checks every constant of this file against the generated descriptors by
// that comment.
const (
	FieldEventGraph   protowire.Number = 4 // Event.graph
	FieldEventSummary protowire.Number = 5 // Event.summary
	FieldSummaryValue protowire.Number = 1 // Summary.value
	FieldValueImage   protowire.Number = 4 // SummaryValue.image
	FieldValueTensor  protowire.Number = 8 // SummaryValue.tensor
	FieldImageEncoded protowire.Number = 4 // Image.encoded
)
