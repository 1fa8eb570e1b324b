package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
)

// valueOf converts a google.protobuf.Value; one with no kind set is null.
func valueOf(pv *structpb.Value) model.HParamValue {
	switch k := pv.GetKind().(type) {
	case *structpb.Value_BoolValue:
		return model.HParamValue{Kind: model.BoolValue, Bool: k.BoolValue}
	case *structpb.Value_NumberValue:
		return model.HParamValue{Kind: model.NumberValue, Number: k.NumberValue}
	case *structpb.Value_StringValue:
		return model.HParamValue{Kind: model.StringValue, Str: k.StringValue}
	case *structpb.Value_ListValue:
		return listOf(k.ListValue)
	case *structpb.Value_StructValue:
		v := model.HParamValue{Kind: model.StructValue}
		for _, name := range slices.Sorted(maps.Keys(k.StructValue.GetFields())) {
			v.Fields = append(v.Fields, model.HParamField{Name: name, Value: valueOf(k.StructValue.GetFields()[name])})
		}
		return v
	}
	return model.HParamValue{Kind: model.NullValue}
}

func listOf(l *structpb.ListValue) model.HParamValue {
	v := model.HParamValue{Kind: model.ListValue, List: make([]model.HParamValue, 0, len(l.GetValues()))}
	for _, e := range l.GetValues() {
		v.List = append(v.List, valueOf(e))
	}
	return v
}

func valueMap(m map[string]*structpb.Value) map[string]model.HParamValue {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]model.HParamValue, len(m))
	for k, pv := range m {
		out[k] = valueOf(pv)
	}
	return out
}

// hparamsRecord is the decoded content of one hparams value: exactly one
// of its fields is set.
type hparamsRecord struct {
	experiment *model.Experiment
	start      *model.SessionStart
	end        *model.SessionEnd
}

// decodeHParams decodes the content of an hparams plugin value
// (HParamsPluginData). The session start is decoded apart, since writers
// disagree on its field 2 (see decodeSessionStart).
func decodeHParams(content []byte) (hparamsRecord, error) {
	var rest, start []byte
	hasStart := false
	last := protowire.Number(0) // the oneof field seen last wins, as in proto
	for b := content; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return hparamsRecord{}, fmt.Errorf("hparams content: %w", protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return hparamsRecord{}, fmt.Errorf("hparams content: field %d: %w", num, protowire.ParseError(m))
		}
		field := b[:n+m]
		b = b[n+m:]
		switch num {
		case eventpb.FieldHParamsExperiment, eventpb.FieldHParamsSessionEnd:
			last = num
		case eventpb.FieldHParamsSessionStart:
			last = num
			if typ == protowire.BytesType {
				// Repeated occurrences of a message field merge, as their
				// concatenation does.
				v, _ := protowire.ConsumeBytes(field[n:])
				start, hasStart = append(start, v...), true
				continue
			}
		}
		rest = append(rest, field...)
	}
	var pd eventpb.HParamsPluginData
	if err := proto.Unmarshal(rest, &pd); err != nil {
		return hparamsRecord{}, fmt.Errorf("hparams content: %w", err)
	}
	switch {
	case last == eventpb.FieldHParamsSessionStart && hasStart:
		s, err := decodeSessionStart(start)
		if err != nil {
			return hparamsRecord{}, err
		}
		return hparamsRecord{start: s}, nil
	case last == eventpb.FieldHParamsExperiment && pd.GetExperiment() != nil:
		return hparamsRecord{experiment: experimentOf(pd.GetExperiment())}, nil
	case last == eventpb.FieldHParamsSessionEnd && pd.GetSessionEndInfo() != nil:
		e := pd.GetSessionEndInfo()
		return hparamsRecord{end: &model.SessionEnd{Status: endStatus(e.GetStatus()), EndTime: e.GetEndTimeSecs()}}, nil
	}
	return hparamsRecord{}, errors.New("hparams content holds no experiment, session start or session end")
}

// decodeSessionStart decodes a SessionStartInfo. Its field 2 is
// TensorBoard's model_uri, a string, or TS-VIS's map<string, Value> of
// metric values: the occurrences of field 2 are TS-VIS's map when each one
// decodes as a map entry with a value and nothing else, and a string
// otherwise. A map entry's value starts with the byte 0x12, a control
// character no model URI holds.
func decodeSessionStart(b []byte) (*model.SessionStart, error) {
	var rest []byte
	var field2 [][]byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, fmt.Errorf("session_start_info: %w", protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, fmt.Errorf("session_start_info: field %d: %w", num, protowire.ParseError(m))
		}
		// Field 2: model_uri, or TS-VIS's metrics.
		if num == eventpb.FieldSessionStartModelURI && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b[n : n+m])
			field2 = append(field2, v)
		} else {
			rest = append(rest, b[:n+m]...)
		}
		b = b[n+m:]
	}
	var si eventpb.SessionStartInfo
	if err := proto.Unmarshal(rest, &si); err != nil {
		return nil, fmt.Errorf("session_start_info: %w", err)
	}
	s := &model.SessionStart{HParams: valueMap(si.GetHparams()), Metrics: valueMap(si.GetMetrics()),
		MonitorURL: si.GetMonitorUrl(), GroupName: si.GetGroupName(), StartTime: si.GetStartTimeSecs(), Source: "plugin"}
	if s.HParams == nil {
		s.HParams = map[string]model.HParamValue{}
	}
	if entries, ok := valueMapEntries(field2); ok {
		if s.Metrics == nil {
			s.Metrics = map[string]model.HParamValue{}
		}
		for _, e := range entries {
			s.Metrics[e.GetKey()] = valueOf(e.GetValue())
		}
	} else if len(field2) > 0 {
		s.ModelURI = strings.ToValidUTF8(string(field2[len(field2)-1]), "\uFFFD")
	}
	return s, nil
}

// valueMapEntries decodes each occurrence of a field as an entry of a
// map<string, Value>, and says whether all of them are one.
func valueMapEntries(occurrences [][]byte) ([]*eventpb.ValueMapEntry, bool) {
	if len(occurrences) == 0 {
		return nil, false
	}
	var out []*eventpb.ValueMapEntry
	for _, b := range occurrences {
		var e eventpb.ValueMapEntry
		if err := proto.Unmarshal(b, &e); err != nil || e.GetValue() == nil || len(e.ProtoReflect().GetUnknown()) > 0 {
			return nil, false
		}
		out = append(out, &e)
	}
	return out, true
}

func experimentOf(e *eventpb.Experiment) *model.Experiment {
	x := &model.Experiment{Name: e.GetName(), Description: e.GetDescription(), User: e.GetUser(), TimeCreated: e.GetTimeCreatedSecs()}
	for _, h := range e.GetHparamInfos() {
		hi := model.HParamInfo{Name: h.GetName(), DisplayName: h.GetDisplayName(), Description: h.GetDescription(), Type: hparamType(h.GetType())}
		switch d := h.GetDomain().(type) {
		case *eventpb.HParamInfo_DomainDiscrete:
			hi.Discrete = listOf(d.DomainDiscrete).List
		case *eventpb.HParamInfo_DomainInterval:
			hi.Interval = &model.Interval{Min: d.DomainInterval.GetMinValue(), Max: d.DomainInterval.GetMaxValue()}
		}
		x.HParams = append(x.HParams, hi)
	}
	for _, m := range e.GetMetricInfos() {
		x.Metrics = append(x.Metrics, model.MetricInfo{Group: m.GetName().GetGroup(), Tag: m.GetName().GetTag(),
			DisplayName: m.GetDisplayName(), Description: m.GetDescription(), DatasetType: datasetType(m.GetDatasetType())})
	}
	return x
}

func hparamType(t eventpb.HParamInfo_Type) string {
	switch t {
	case eventpb.HParamInfo_TYPE_STRING:
		return "string"
	case eventpb.HParamInfo_TYPE_BOOL:
		return "bool"
	case eventpb.HParamInfo_TYPE_FLOAT64:
		return "float64"
	}
	return "unset"
}

func datasetType(t eventpb.MetricInfo_DatasetType) string {
	switch t {
	case eventpb.MetricInfo_DATASET_TRAINING:
		return "training"
	case eventpb.MetricInfo_DATASET_VALIDATION:
		return "validation"
	}
	return "unknown"
}

func endStatus(s eventpb.SessionEndInfo_Status) string {
	switch s {
	case eventpb.SessionEndInfo_STATUS_SUCCESS:
		return "success"
	case eventpb.SessionEndInfo_STATUS_FAILURE:
		return "failure"
	case eventpb.SessionEndInfo_STATUS_RUNNING:
		return "running"
	}
	return "unknown"
}

// addHParams reads a value of the hparams plugin (docs/FORMATS.md section 12).
// Its writers put the whole record in the metadata of every value, so the
// content of this value's metadata is read, and the tag's remembered
// content only when the value has none. What the record holds is read
// from the content, not from the tag (`_hparams_/experiment`,
// `_hparams_/session_start_info` or `_hparams_/session_end_info`).
func (rr *runReader) addHParams(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, tag string) error {
	content := ts.content
	if pd := v.GetMetadata().GetPluginData(); pd != nil && pd.GetPluginName() == "hparams" {
		content = pd.GetContent()
	}
	rec, err := decodeHParams(content)
	if err != nil {
		return err
	}
	hp := rr.run.HParams
	if hp == nil {
		hp = &model.HParams{}
		rr.run.HParams = hp
	}
	switch {
	case rec.experiment != nil:
		hp.Experiment = rec.experiment
	case rec.start != nil:
		rr.addSession(hp, rec.start)
	case rec.end != nil:
		if len(hp.Sessions) == 0 {
			return errors.New("session_end_info before any session_start_info; ignored")
		}
		hp.Sessions[len(hp.Sessions)-1].End = rec.end
	}
	return nil
}

// addSession starts a session, or replaces the run's session of the same
// group name and hyperparameters. Sessions are found by a key of both, not
// by comparing with every earlier one: 17,000 sessions in one run took
// 12 s of comparisons. A replaced session leaves a nil, removed when the
// run is finished (finishHParams), so that indices stay valid meanwhile.
func (rr *runReader) addSession(hp *model.HParams, s *model.SessionStart) {
	key := sessionKey(s)
	if rr.sessions == nil {
		rr.sessions = map[string]int{}
	}
	if i, ok := rr.sessions[key]; ok {
		hp.Sessions[i] = nil
	}
	hp.Sessions = append(hp.Sessions, &model.Session{Start: *s})
	rr.sessions[key] = len(hp.Sessions) - 1
}

// sessionKey names a session by its group and hyperparameters: two
// sessions have one key when their values compare equal (HParamValue's
// Compare), but for -0, which is kept apart from 0.
func sessionKey(s *model.SessionStart) string {
	var b strings.Builder
	b.WriteString(strconv.Quote(s.GroupName))
	for _, name := range slices.Sorted(maps.Keys(s.HParams)) {
		v := s.HParams[name]
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(name))
		b.WriteByte(byte('0' + v.Kind))
		b.WriteString(strconv.Quote(v.String()))
	}
	return b.String()
}

// finishHParams completes the run's hyperparameters once its files are
// read: a run without a session_start_info takes its session from the
// hparams.yaml that Lightning leaves beside the event files.
func (rr *runReader) finishHParams() {
	if hp := rr.run.HParams; hp != nil {
		hp.Sessions = slices.DeleteFunc(hp.Sessions, func(s *model.Session) bool { return s == nil })
		if len(hp.Sessions) > 0 {
			return
		}
	}
	s, err := readHParamsYAML(rr.src, path.Join(rr.run.Path, hparamsYAML))
	if err != nil {
		rr.run.Warnings = append(rr.run.Warnings, model.Warning{File: path.Join(rr.run.Path, hparamsYAML), Offset: -1, Msg: err.Error()})
		return
	}
	if s == nil {
		return
	}
	if rr.run.HParams == nil {
		rr.run.HParams = &model.HParams{}
	}
	rr.run.HParams.Sessions = append(rr.run.HParams.Sessions, &model.Session{Start: *s})
}

// hparamsYAML is the file Lightning's TensorBoardLogger writes beside its
// event files.
const hparamsYAML = "hparams.yaml"

// maxHParamsYAML bounds the hparams.yaml read; Lightning's are a few KB.
const maxHParamsYAML = 4 << 20

// maxYAMLNodes bounds the nodes visited in hparams.yaml, aliases expanded.
const maxYAMLNodes = 100_000

// Bounds on what flattening hparams.yaml produces, aliases expanded. The
// node budget alone does not bound it: a long key reached through nested
// aliases (billion laughs) is copied into the name of every hyperparameter
// below it, so a 10 KB file made 10,000 names of 9.5 KB each, and the
// report took 1.7 GB and 275 MB of output. Lightning's files hold tens of
// hyperparameters of a few dozen bytes (the corpus's largest file is
// 1.4 KB, some 40 entries); a configuration dumped whole (Hydra) a few
// thousand. Past either bound the file is not read, with a warning.
const (
	// maxYAMLBytes bounds the bytes of the names and values produced.
	maxYAMLBytes = 1 << 20
	// maxYAMLEntries bounds the hyperparameters (columns of the HParams
	// page).
	maxYAMLEntries = 10_000
)

// readHParamsYAML reads the hparams.yaml name of src into a session start, or returns
// nil when there is none. Nested mappings are flattened into names joined
// with "/", as Lightning's log_hyperparams does before it writes the
// hparams plugin record; sequences become lists. The file is parsed with
// go.yaml.in/yaml/v3 (the maintained home of gopkg.in/yaml.v3), whose node
// tree keeps each value's tag, so that Python-specific tags Lightning
// writes (!!python/object..., !!python/tuple) are read without running
// anything: a tagged mapping or scalar becomes a string naming its tag, and
// a tagged sequence a list.
func readHParamsYAML(src *logfs.Dir, name string) (*model.SessionStart, error) {
	data, err := src.ReadFile(name, maxHParamsYAML)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, logfs.ErrNotRegular) {
		return nil, nil // discovery warns of what is not a regular file
	}
	if err != nil {
		return nil, fmt.Errorf("not read: %w", err)
	}
	hps, err := parseHParamsYAML(data)
	if err != nil {
		return nil, err
	}
	return &model.SessionStart{HParams: hps, Source: hparamsYAML}, nil
}

// parseHParamsYAML reads the hyperparameters of an hparams.yaml file.
func parseHParamsYAML(data []byte) (map[string]model.HParamValue, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	out := map[string]model.HParamValue{}
	if len(doc.Content) == 0 { // an empty file
		return out, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return out, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: not a mapping of hyperparameters", root.Line)
	}
	y := yamlReader{budget: maxYAMLNodes, bytes: maxYAMLBytes}
	if err := y.flatten(root, "", out, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// yamlReader converts YAML nodes to values within a budget of nodes and
// one of bytes produced (see maxYAMLBytes).
type yamlReader struct{ budget, bytes int }

// spend takes n bytes from the budget before they are produced (at the
// node at), and fails, naming its line, once the budget is spent.
func (y *yamlReader) spend(n int, at *yaml.Node) error {
	y.bytes -= n
	if y.bytes < 0 {
		return fmt.Errorf("line %d: hyperparameters past %d bytes once flattened (aliases expanded); not read", at.Line, maxYAMLBytes)
	}
	return nil
}

// maxYAMLDepth bounds the nesting of hparams.yaml.
const maxYAMLDepth = 100

func (y *yamlReader) visit(n *yaml.Node, depth int) (*yaml.Node, error) {
	for n.Kind == yaml.AliasNode && n.Alias != nil && depth <= maxYAMLDepth {
		n, depth = n.Alias, depth+1
	}
	y.budget--
	if y.budget < 0 || depth > maxYAMLDepth {
		return nil, fmt.Errorf("line %d: too many or too deeply nested values", n.Line)
	}
	return n, nil
}

// flatten adds the entries of the mapping n under prefix.
func (y *yamlReader) flatten(n *yaml.Node, prefix string, out map[string]model.HParamValue, depth int) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := y.visit(n.Content[i], depth+1)
		if err != nil {
			return err
		}
		name := k.Value
		if k.Kind != yaml.ScalarNode {
			v, err := y.value(k, depth+1)
			if err != nil {
				return err
			}
			name = v.String()
		}
		if err := y.spend(len(prefix)+1+len(name), k); err != nil {
			return err
		}
		if prefix != "" {
			name = prefix + "/" + name
		}
		v, err := y.visit(n.Content[i+1], depth+1)
		if err != nil {
			return err
		}
		if v.Kind == yaml.MappingNode && isCoreTag(v.ShortTag()) && len(v.Content) > 0 {
			if err := y.flatten(v, name, out, depth+1); err != nil {
				return err
			}
			continue
		}
		val, err := y.value(v, depth+1)
		if err != nil {
			return err
		}
		out[name] = val
		if len(out) > maxYAMLEntries {
			return fmt.Errorf("line %d: more than %d hyperparameters once flattened (aliases expanded); not read", k.Line, maxYAMLEntries)
		}
	}
	return nil
}

func isCoreTag(tag string) bool {
	switch tag {
	case "!!null", "!!bool", "!!int", "!!float", "!!str", "!!map", "!!seq", "!!binary", "!!timestamp", "!!merge":
		return true
	}
	return false
}

// value converts one node: mappings nested in lists become structs.
func (y *yamlReader) value(n *yaml.Node, depth int) (model.HParamValue, error) {
	n, err := y.visit(n, depth)
	if err != nil {
		return model.HParamValue{}, err
	}
	tag := n.ShortTag()
	switch n.Kind {
	case yaml.SequenceNode:
		v := model.HParamValue{Kind: model.ListValue, List: []model.HParamValue{}}
		for _, c := range n.Content {
			e, err := y.value(c, depth+1)
			if err != nil {
				return model.HParamValue{}, err
			}
			v.List = append(v.List, e)
		}
		return v, nil
	case yaml.MappingNode:
		if !isCoreTag(tag) {
			return model.HParamValue{Kind: model.StringValue, Str: tag}, nil
		}
		fields := map[string]model.HParamValue{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := y.value(n.Content[i], depth+1)
			if err != nil {
				return model.HParamValue{}, err
			}
			e, err := y.value(n.Content[i+1], depth+1)
			if err != nil {
				return model.HParamValue{}, err
			}
			name := k.String()
			if err := y.spend(len(name), n); err != nil {
				return model.HParamValue{}, err
			}
			fields[name] = e
		}
		v := model.HParamValue{Kind: model.StructValue}
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			v.Fields = append(v.Fields, model.HParamField{Name: name, Value: fields[name]})
		}
		return v, nil
	case yaml.ScalarNode:
		// Every scalar produced is written out wherever it is reached,
		// however many aliases lead to it.
		if err := y.spend(len(tag)+len(n.Value), n); err != nil {
			return model.HParamValue{}, err
		}
		switch tag {
		case "!!null":
			return model.HParamValue{Kind: model.NullValue}, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err == nil {
				return model.HParamValue{Kind: model.BoolValue, Bool: b}, nil
			}
		case "!!int", "!!float":
			var x float64
			if err := n.Decode(&x); err == nil {
				return model.HParamValue{Kind: model.NumberValue, Number: x}, nil
			}
		case "!!str", "!!binary", "!!timestamp":
		default:
			if n.Value == "" {
				return model.HParamValue{Kind: model.StringValue, Str: tag}, nil
			}
			return model.HParamValue{Kind: model.StringValue, Str: tag + " " + n.Value}, nil
		}
		return model.HParamValue{Kind: model.StringValue, Str: n.Value}, nil
	}
	return model.HParamValue{Kind: model.NullValue}, nil
}
