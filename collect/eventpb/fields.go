package eventpb

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers that the hand-written wire readers (the fast path, blob
// locators, the projector, hparams and histogram readers) use without the
// generated code, declared here once. Each names its message and field in
// its comment: TestFieldNumbersMatchDescriptors (collect/fields_test.go)
// checks every constant of this file against the generated descriptors by
// that comment, so a constant cannot drift from the .proto files.
const (
	FieldEventWallTime          protowire.Number = 1  // Event.wall_time
	FieldEventStep              protowire.Number = 2  // Event.step
	FieldEventFileVersion       protowire.Number = 3  // Event.file_version
	FieldEventGraphDef          protowire.Number = 4  // Event.graph_def
	FieldEventSummary           protowire.Number = 5  // Event.summary
	FieldEventTaggedRunMetadata protowire.Number = 8  // Event.tagged_run_metadata
	FieldEventMetaGraphDef      protowire.Number = 9  // Event.meta_graph_def
	FieldEventSourceMetadata    protowire.Number = 10 // Event.source_metadata

	FieldTaggedRunMetadataRunMetadata protowire.Number = 2 // TaggedRunMetadata.run_metadata

	FieldSummaryValue protowire.Number = 1 // Summary.value

	FieldValueTag      protowire.Number = 1 // SummaryValue.tag
	FieldValueSimple   protowire.Number = 2 // SummaryValue.simple_value
	FieldValueImage    protowire.Number = 4 // SummaryValue.image
	FieldValueHisto    protowire.Number = 5 // SummaryValue.histo
	FieldValueAudio    protowire.Number = 6 // SummaryValue.audio
	FieldValueNodeName protowire.Number = 7 // SummaryValue.node_name
	FieldValueTensor   protowire.Number = 8 // SummaryValue.tensor
	FieldValueMetadata protowire.Number = 9 // SummaryValue.metadata

	FieldImageEncoded protowire.Number = 4 // Image.encoded_image_string
	FieldAudioEncoded protowire.Number = 4 // Audio.encoded_audio_string

	FieldMetadataPluginData   protowire.Number = 1 // SummaryMetadata.plugin_data
	FieldPluginDataPluginName protowire.Number = 1 // PluginData.plugin_name

	FieldHistogramMin         protowire.Number = 1 // HistogramProto.min
	FieldHistogramMax         protowire.Number = 2 // HistogramProto.max
	FieldHistogramNum         protowire.Number = 3 // HistogramProto.num
	FieldHistogramSum         protowire.Number = 4 // HistogramProto.sum
	FieldHistogramSumSquares  protowire.Number = 5 // HistogramProto.sum_squares
	FieldHistogramBucketLimit protowire.Number = 6 // HistogramProto.bucket_limit
	FieldHistogramBucket      protowire.Number = 7 // HistogramProto.bucket

	FieldTensorDtype   protowire.Number = 1 // TensorProto.dtype
	FieldTensorShape   protowire.Number = 2 // TensorProto.tensor_shape
	FieldTensorContent protowire.Number = 4 // TensorProto.tensor_content
	FieldTensorFloat   protowire.Number = 5 // TensorProto.float_val
	FieldTensorDouble  protowire.Number = 6 // TensorProto.double_val
	FieldTensorString  protowire.Number = 8 // TensorProto.string_val

	FieldShapeDim         protowire.Number = 2 // TensorShapeProto.dim
	FieldShapeUnknownRank protowire.Number = 3 // TensorShapeProto.unknown_rank
	FieldShapeDimSize     protowire.Number = 1 // TensorShapeProto.Dim.size

	FieldHParamsExperiment    protowire.Number = 2 // HParamsPluginData.experiment
	FieldHParamsSessionStart  protowire.Number = 3 // HParamsPluginData.session_start_info
	FieldHParamsSessionEnd    protowire.Number = 4 // HParamsPluginData.session_end_info
	FieldSessionStartModelURI protowire.Number = 2 // SessionStartInfo.model_uri

	FieldOneFlowProjectors protowire.Number = 1 // OneFlowSummaryProjector.projector
	FieldOneFlowSample     protowire.Number = 2 // OneFlowSummaryProjector.sample
	FieldOneFlowMetadata   protowire.Number = 6 // OneFlowSummaryProjector.metadata
	FieldOneFlowTag        protowire.Number = 1 // OneFlowProjector.tag
	FieldOneFlowStep       protowire.Number = 2 // OneFlowProjector.step
	FieldOneFlowWallTime   protowire.Number = 3 // OneFlowProjector.wall_time
	FieldOneFlowValue      protowire.Number = 4 // OneFlowProjector.value
	FieldOneFlowLabel      protowire.Number = 5 // OneFlowProjector.label
	FieldOneFlowSampleName protowire.Number = 1 // OneFlowSample.name
	FieldOneFlowSampleType protowire.Number = 2 // OneFlowSample.type
	FieldOneFlowSampleX    protowire.Number = 3 // OneFlowSample.x
	FieldOneFlowMetaType   protowire.Number = 1 // OneFlowMetaData.type

	FieldTsvisSummaryValue    protowire.Number = 1 // TsvisSummary.value
	FieldTsvisValueTag        protowire.Number = 1 // TsvisValue.tag
	FieldTsvisValueMetadata   protowire.Number = 9 // TsvisValue.metadata
	FieldTsvisValueProjector  protowire.Number = 7 // TsvisValue.projector
	FieldTsvisEmbedding       protowire.Number = 1 // TsvisProjector.embedding
	FieldTsvisException       protowire.Number = 2 // TsvisProjector.exception
	FieldTsvisEmbeddingSample protowire.Number = 1 // TsvisEmbedding.sample
	FieldTsvisEmbeddingValue  protowire.Number = 2 // TsvisEmbedding.value
	FieldTsvisEmbeddingLabel  protowire.Number = 3 // TsvisEmbedding.label
	FieldTsvisSampleType      protowire.Number = 2 // TsvisSample.type
	FieldTsvisSampleX         protowire.Number = 3 // TsvisSample.x
	FieldTsvisExceptionValue  protowire.Number = 1 // TsvisException.value

	FieldNumpyDtype   protowire.Number = 1 // NumpyTensor.dtype
	FieldNumpyShape   protowire.Number = 2 // NumpyTensor.shape
	FieldNumpyContent protowire.Number = 3 // NumpyTensor.content
	FieldNumpyDim     protowire.Number = 1 // NumpyShape.dim
	FieldNumpyDimSize protowire.Number = 1 // NumpyShape.Dim.size
)
