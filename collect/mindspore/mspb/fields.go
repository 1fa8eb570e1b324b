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

	// The dataset graph of a lineage file, which collect/graph reads field
	// by field within its bounds.
	FieldLineageDatasetGraph protowire.Number = 9 // LineageEventDatasetGraph.dataset_graph
	FieldDatasetChildren     protowire.Number = 1 // DatasetGraph.children
	FieldDatasetParameter    protowire.Number = 2 // DatasetGraph.parameter
	FieldDatasetOperations   protowire.Number = 3 // DatasetGraph.operations
	FieldDatasetSampler      protowire.Number = 4 // DatasetGraph.sampler
	FieldOperationParam      protowire.Number = 1 // Operation.operationParam
	FieldParamStr            protowire.Number = 1 // OperationParameter.mapStr
	FieldParamStrList        protowire.Number = 2 // OperationParameter.mapStrList
	FieldParamBool           protowire.Number = 3 // OperationParameter.mapBool
	FieldParamInt            protowire.Number = 4 // OperationParameter.mapInt
	FieldParamDouble         protowire.Number = 5 // OperationParameter.mapDouble
	FieldStrListValue        protowire.Number = 1 // StrList.strValue
)
