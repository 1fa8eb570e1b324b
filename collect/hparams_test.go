package collect

import (
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// Events of the hparams plugin, as TensorBoard's, PyTorch's and
// tensorboardX's writers make them: a value with no payload whose
// metadata holds the record.

func hpMarshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hpValue is an hparams value holding content in its metadata.
func hpValue(tag string, content []byte) *pb.SummaryValue {
	return &pb.SummaryValue{Tag: tag, Metadata: &pb.SummaryMetadata{
		PluginData: &pb.PluginData{PluginName: "hparams", Content: content}}}
}

func hpExperimentEvent(t testing.TB, x *pb.Experiment) *pb.Event {
	return summary(0, hpValue("_hparams_/experiment", hpMarshal(t, &pb.HParamsPluginData{Version: 0,
		Data: &pb.HParamsPluginData_Experiment{Experiment: x}})))
}

func hpStartEvent(t testing.TB, s *pb.SessionStartInfo) *pb.Event {
	return summary(0, hpValue("_hparams_/session_start_info", hpMarshal(t, &pb.HParamsPluginData{Version: 0,
		Data: &pb.HParamsPluginData_SessionStartInfo{SessionStartInfo: s}})))
}

func hpEndEvent(t testing.TB, status pb.SessionEndInfo_Status, end float64) *pb.Event {
	return summary(0, hpValue("_hparams_/session_end_info", hpMarshal(t, &pb.HParamsPluginData{Version: 0,
		Data: &pb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &pb.SessionEndInfo{Status: status, EndTimeSecs: end}}})))
}

// hpStart is a session start with the given hyperparameters.
func hpStart(group string, hps map[string]*structpb.Value) *pb.SessionStartInfo {
	return &pb.SessionStartInfo{Hparams: hps, GroupName: group, StartTimeSecs: 1234.5}
}

// hpContent wraps raw SessionStartInfo bytes as the content of a value.
func hpStartContent(start []byte) []byte {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 0)
	b = protowire.AppendTag(b, eventpb.FieldHParamsSessionStart, protowire.BytesType)
	return protowire.AppendBytes(b, start)
}

// hpField2 appends a field 2 holding b (a model URI, or a TS-VIS map
// entry).
func hpField2(start, b []byte) []byte {
	start = protowire.AppendTag(start, 2, protowire.BytesType)
	return protowire.AppendBytes(start, b)
}

func hpEntry(t testing.TB, key string, v *structpb.Value) []byte {
	return hpMarshal(t, &pb.ValueMapEntry{Key: key, Value: v})
}

func num(x float64) model.HParamValue  { return model.HParamValue{Kind: model.NumberValue, Number: x} }
func str(s string) model.HParamValue   { return model.HParamValue{Kind: model.StringValue, Str: s} }
func boolean(b bool) model.HParamValue { return model.HParamValue{Kind: model.BoolValue, Bool: b} }
func list(vs ...model.HParamValue) model.HParamValue {
	return model.HParamValue{Kind: model.ListValue, List: append([]model.HParamValue{}, vs...)}
}

// collectOne reads one run of events and returns it.
func collectOne(t *testing.T, files []file) *model.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	rep := collectDir(t, dir, Options{})
	if len(rep.Runs) != 1 {
		t.Fatalf("runs %v", runNames(rep))
	}
	return rep.Runs[0]
}

func TestHParamValueKinds(t *testing.T) {
	nested, err := structpb.NewStruct(map[string]any{"b": 2, "a": []any{"x", true}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		value *structpb.Value
		want  model.HParamValue
		print string
	}{
		{"null", structpb.NewNullValue(), model.HParamValue{Kind: model.NullValue}, "null"},
		{"no kind set reads as null", &structpb.Value{}, model.HParamValue{Kind: model.NullValue}, "null"},
		{"integral number", structpb.NewNumberValue(1e6), num(1e6), "1000000"},
		{"fraction", structpb.NewNumberValue(0.001), num(0.001), "0.001"},
		{"huge number", structpb.NewNumberValue(1e300), num(1e300), "1e+300"},
		{"NaN", structpb.NewNumberValue(math.NaN()), num(math.NaN()), "NaN"},
		{"infinity", structpb.NewNumberValue(math.Inf(-1)), num(math.Inf(-1)), "-Inf"},
		{"string prints bare", structpb.NewStringValue("adam"), str("adam"), "adam"},
		{"bool", structpb.NewBoolValue(true), boolean(true), "true"},
		{"list of every scalar kind", structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{
			structpb.NewNumberValue(1), structpb.NewStringValue("a"), structpb.NewBoolValue(false), structpb.NewNullValue()}}),
			list(num(1), str("a"), boolean(false), model.HParamValue{Kind: model.NullValue}), `[1, "a", false, null]`},
		{"empty list", structpb.NewListValue(&structpb.ListValue{}), list(), "[]"},
		{"struct sorted by name, nested", structpb.NewStructValue(nested), model.HParamValue{Kind: model.StructValue, Fields: []model.HParamField{
			{Name: "a", Value: list(str("x"), boolean(true))}, {Name: "b", Value: num(2)}}}, `{"a": ["x", true], "b": 2}`},
	}
	hps := map[string]*structpb.Value{}
	for _, tt := range tests {
		hps[tt.name] = tt.value
	}
	r := collectOne(t, []file{{ev100, eventFile(t, fileVersion(), hpStartEvent(t, hpStart("g", hps)))}})
	if len(r.Warnings) > 0 || r.HParams == nil || len(r.HParams.Sessions) != 1 {
		t.Fatalf("warnings %v, hparams %+v", r.Warnings, r.HParams)
	}
	got := r.HParams.Sessions[0].Start.HParams
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := got[tt.name]
			if !ok {
				t.Fatal("missing")
			}
			if v.Compare(tt.want) != 0 || v.Kind != tt.want.Kind {
				t.Errorf("got %#v, want %#v", v, tt.want)
			}
			if s := v.String(); s != tt.print {
				t.Errorf("String() = %q, want %q", s, tt.print)
			}
		})
	}
}

func TestHParamValueCompare(t *testing.T) {
	// In increasing order.
	sorted := []model.HParamValue{
		{Kind: model.NullValue},
		boolean(false),
		boolean(true),
		num(math.NaN()),
		num(math.Inf(-1)),
		num(-1),
		num(2),
		num(10),
		str(""),
		str("10"),
		str("2"),
		str("b"),
		list(),
		list(num(1)),
		list(num(1), num(0)),
		list(num(2)),
		{Kind: model.StructValue},
		{Kind: model.StructValue, Fields: []model.HParamField{{Name: "a", Value: num(1)}}},
		{Kind: model.StructValue, Fields: []model.HParamField{{Name: "a", Value: num(2)}}},
		{Kind: model.StructValue, Fields: []model.HParamField{{Name: "b", Value: num(0)}}},
	}
	for i, a := range sorted {
		for j, b := range sorted {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%s compared with %s: %d, want %d", a, b, got, want)
			}
		}
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, model.HParamValue.Compare)
	for i := range sorted {
		if shuffled[i].Compare(sorted[i]) != 0 {
			t.Fatalf("sorted %v", shuffled)
		}
	}
}

// TestSessionStartVariants pins down how field 2 and field 6 of a
// SessionStartInfo are read.
func TestSessionStartVariants(t *testing.T) {
	base := hpMarshal(t, hpStart("g", map[string]*structpb.Value{"lr": structpb.NewNumberValue(0.1)}))
	acc := hpEntry(t, "acc", structpb.NewNumberValue(0.75))
	tests := []struct {
		name    string
		start   []byte
		uri     string
		metrics map[string]model.HParamValue
	}{
		{"TensorBoard model_uri", hpField2(base, []byte("gs://bucket/model")), "gs://bucket/model", nil},
		{"TensorBoard without model_uri", base, "", nil},
		{"TS-VIS metrics map at field 2", hpField2(hpField2(base, acc), hpEntry(t, "loss", structpb.NewNumberValue(0.25))), "",
			map[string]model.HParamValue{"acc": num(0.75), "loss": num(0.25)}},
		{"TS-VIS metric of string kind", hpField2(base, hpEntry(t, "note", structpb.NewStringValue("ok"))), "",
			map[string]model.HParamValue{"note": str("ok")}},
		{"map entry without a value is a string", hpField2(base, []byte("\n\x03abc")), "\n\x03abc", nil},
		{"a string beside a map entry: the last string wins", hpField2(hpField2(base, acc), []byte("uri")), "uri", nil},
		{"URI that is not UTF-8 is kept, repaired", hpField2(base, []byte("m\xffx")), "m\uFFFDx", nil},
		{"OneFlow metrics at field 6", hpMarshal(t, &pb.SessionStartInfo{GroupName: "g", ModelUri: "m",
			Hparams: map[string]*structpb.Value{"lr": structpb.NewNumberValue(0.1)},
			Metrics: map[string]*structpb.Value{"acc": structpb.NewNumberValue(0.5)}}), "m",
			map[string]model.HParamValue{"acc": num(0.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := decodeHParams(hpStartContent(tt.start))
			if err != nil {
				t.Fatal(err)
			}
			s := rec.start
			if s == nil {
				t.Fatalf("no session start in %+v", rec)
			}
			if s.ModelURI != tt.uri {
				t.Errorf("ModelURI %q, want %q", s.ModelURI, tt.uri)
			}
			if !maps.EqualFunc(s.Metrics, tt.metrics, func(a, b model.HParamValue) bool { return a.Compare(b) == 0 }) {
				t.Errorf("Metrics %v, want %v", s.Metrics, tt.metrics)
			}
			if s.GroupName != "g" || s.HParams["lr"].Number != 0.1 || s.Source != "plugin" {
				t.Errorf("start %+v", s)
			}
		})
	}
}

// TestDecodeHParamsWire pins down the wire-level reading of the content.
func TestDecodeHParamsWire(t *testing.T) {
	hp := hpMarshal(t, hpStart("g", map[string]*structpb.Value{"lr": structpb.NewNumberValue(0.1)}))
	acc := hpEntry(t, "acc", structpb.NewNumberValue(0.75))
	exp := hpMarshal(t, &pb.HParamsPluginData{Data: &pb.HParamsPluginData_Experiment{Experiment: &pb.Experiment{Name: "x"}}})
	end := hpMarshal(t, &pb.HParamsPluginData{Data: &pb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &pb.SessionEndInfo{}}})
	tests := []struct {
		name    string
		content []byte
		want    string // "experiment", "start", "end", or an error
	}{
		{"a session start split in two merges", append(hpStartContent(hp), hpStartContent(hpField2(nil, acc))...), "start lr=0.1 acc=0.75"},
		{"the last of the oneof wins: start", append(slices.Clone(exp), hpStartContent(hp)...), "start lr=0.1 acc="},
		{"the last of the oneof wins: experiment", append(hpStartContent(hp), exp...), "experiment"},
		{"an empty session end is one", end, "end"},
		{"field 3 of the wrong wire type", []byte{0x18, 0x01}, "holds no experiment"},
		{"truncated length", []byte{0x1a, 0x80}, "hparams content"},
		{"truncated session start", hpStartContent([]byte{0x0a, 0x05, 0x0a}), "session_start_info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := decodeHParams(tt.content)
			var got string
			switch {
			case err != nil:
				got = err.Error()
			case rec.experiment != nil:
				got = "experiment"
			case rec.end != nil:
				got = "end"
			case rec.start != nil:
				got = "start lr=" + rec.start.HParams["lr"].String() + " acc="
				if v, ok := rec.start.Metrics["acc"]; ok {
					got += v.String()
				}
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHParamsRecords(t *testing.T) {
	exp := &pb.Experiment{Name: "tuning", Description: "d", User: "u", TimeCreatedSecs: 99,
		HparamInfos: []*pb.HParamInfo{
			{Name: "units", DisplayName: "Units", Description: "width", Type: pb.HParamInfo_TYPE_FLOAT64,
				Domain: &pb.HParamInfo_DomainDiscrete{DomainDiscrete: &structpb.ListValue{Values: []*structpb.Value{
					structpb.NewNumberValue(16), structpb.NewNumberValue(32)}}}},
			{Name: "dropout", Type: pb.HParamInfo_TYPE_FLOAT64,
				Domain: &pb.HParamInfo_DomainInterval{DomainInterval: &pb.Interval{MinValue: 0.1, MaxValue: 0.2}}},
			{Name: "amsgrad", Type: pb.HParamInfo_TYPE_BOOL},
			{Name: "free"},
		},
		MetricInfos: []*pb.MetricInfo{
			{Name: &pb.MetricName{Group: "validation", Tag: "acc"}, DisplayName: "Accuracy", Description: "top-1",
				DatasetType: pb.MetricInfo_DATASET_VALIDATION},
			{Name: &pb.MetricName{Tag: "loss"}, DatasetType: pb.MetricInfo_DATASET_TRAINING},
		}}
	wantExp := &model.Experiment{Name: "tuning", Description: "d", User: "u", TimeCreated: 99,
		HParams: []model.HParamInfo{
			{Name: "units", DisplayName: "Units", Description: "width", Type: "float64", Discrete: []model.HParamValue{num(16), num(32)}},
			{Name: "dropout", Type: "float64", Interval: &model.Interval{Min: 0.1, Max: 0.2}},
			{Name: "amsgrad", Type: "bool"},
			{Name: "free", Type: "unset"},
		},
		Metrics: []model.MetricInfo{
			{Group: "validation", Tag: "acc", DisplayName: "Accuracy", Description: "top-1", DatasetType: "validation"},
			{Tag: "loss", DatasetType: "training"},
		}}
	one := map[string]*structpb.Value{"units": structpb.NewNumberValue(16)}
	two := map[string]*structpb.Value{"units": structpb.NewNumberValue(32)}
	// Later values of a tag without metadata: the tag's first content.
	bare := func(tag string) *pb.Event { return summary(0, &pb.SummaryValue{Tag: tag}) }

	type session struct {
		group, units string
		end          *model.SessionEnd
	}
	tests := []struct {
		name     string
		events   []*pb.Event
		exp      *model.Experiment
		sessions []session
		warnings []string
	}{
		{"experiment, start and end", []*pb.Event{hpExperimentEvent(t, exp), hpStartEvent(t, hpStart("g", one)),
			hpEndEvent(t, pb.SessionEndInfo_STATUS_SUCCESS, 2000)},
			wantExp, []session{{"g", "16", &model.SessionEnd{Status: "success", EndTime: 2000}}}, nil},
		{"every end status", []*pb.Event{hpStartEvent(t, hpStart("g", one)), hpEndEvent(t, pb.SessionEndInfo_STATUS_FAILURE, 1)},
			nil, []session{{"g", "16", &model.SessionEnd{Status: "failure", EndTime: 1}}}, nil},
		{"running", []*pb.Event{hpStartEvent(t, hpStart("g", one)), hpEndEvent(t, pb.SessionEndInfo_STATUS_RUNNING, 0)},
			nil, []session{{"g", "16", &model.SessionEnd{Status: "running", EndTime: 0}}}, nil},
		{"unknown status", []*pb.Event{hpStartEvent(t, hpStart("g", one)), hpEndEvent(t, pb.SessionEndInfo_STATUS_UNKNOWN, 0)},
			nil, []session{{"g", "16", &model.SessionEnd{Status: "unknown", EndTime: 0}}}, nil},
		{"the last experiment wins", []*pb.Event{hpExperimentEvent(t, &pb.Experiment{Name: "old"}), hpExperimentEvent(t, exp)},
			wantExp, nil, nil},
		{"a rerun of the same session replaces it", []*pb.Event{hpStartEvent(t, hpStart("g", one)),
			hpEndEvent(t, pb.SessionEndInfo_STATUS_FAILURE, 1), hpStartEvent(t, hpStart("g", one))},
			nil, []session{{"g", "16", nil}}, nil},
		{"several sessions in one run (TS-VIS)", []*pb.Event{hpStartEvent(t, hpStart("a", one)), hpStartEvent(t, hpStart("b", two)),
			hpStartEvent(t, hpStart("a", two))},
			nil, []session{{"a", "16", nil}, {"b", "32", nil}, {"a", "32", nil}}, nil},
		{"the end belongs to the last session", []*pb.Event{hpStartEvent(t, hpStart("a", one)), hpStartEvent(t, hpStart("b", two)),
			hpEndEvent(t, pb.SessionEndInfo_STATUS_SUCCESS, 5)},
			nil, []session{{"a", "16", nil}, {"b", "32", &model.SessionEnd{Status: "success", EndTime: 5}}}, nil},
		{"end before any start", []*pb.Event{hpEndEvent(t, pb.SessionEndInfo_STATUS_SUCCESS, 5), hpStartEvent(t, hpStart("a", one))},
			nil, []session{{"a", "16", nil}}, []string{"session_end_info before any session_start_info"}},
		{"a value without metadata reuses the tag's content", []*pb.Event{hpStartEvent(t, hpStart("a", one)),
			hpStartEvent(t, hpStart("b", two)), bare("_hparams_/session_start_info")},
			nil, []session{{"b", "32", nil}, {"a", "16", nil}}, nil},
		{"content that is not a record", []*pb.Event{summary(0, hpValue("_hparams_/experiment", []byte{0xff}))},
			nil, nil, []string{"hparams content"}},
		{"content with no record", []*pb.Event{summary(0, hpValue("_hparams_/experiment", []byte{8, 0}))},
			nil, nil, []string{"holds no experiment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := collectOne(t, []file{{ev100, eventFile(t, append([]*pb.Event{fileVersion()}, tt.events...)...)}})
			if len(r.Warnings) != len(tt.warnings) {
				t.Fatalf("warnings %v, want %q", r.Warnings, tt.warnings)
			}
			for i, w := range tt.warnings {
				if !strings.Contains(r.Warnings[i].Msg, w) {
					t.Errorf("warning %q, want %q", r.Warnings[i].Msg, w)
				}
			}
			var hp model.HParams
			if r.HParams != nil {
				hp = *r.HParams
			}
			if !reflect.DeepEqual(hp.Experiment, tt.exp) {
				t.Errorf("experiment\n%+v\nwant\n%+v", hp.Experiment, tt.exp)
			}
			var got []session
			for _, s := range hp.Sessions {
				got = append(got, session{s.Start.GroupName, s.Start.HParams["units"].String(), s.End})
				if s.Start.StartTime != 1234.5 || s.Start.Source != "plugin" {
					t.Errorf("start %+v", s.Start)
				}
			}
			if !reflect.DeepEqual(got, tt.sessions) {
				t.Errorf("sessions %+v, want %+v", got, tt.sessions)
			}
		})
	}
}

func TestParseHParamsYAML(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want map[string]string // name -> String()
		err  string
	}{
		{"flat, every scalar kind", "lr: 0.001\nepochs: 20\nname: Lego\ngui: true\nckpt: null\nbig: 1e6\ninf: .inf\nquoted: '12'\n",
			map[string]string{"lr": "0.001", "epochs": "20", "name": "Lego", "gui": "true", "ckpt": "null",
				"big": "1000000", "inf": "+Inf", "quoted": "12"}, ""},
		{"nested mappings flatten with a slash", "model:\n  encoder:\n    depth: 3\n  lr: 0.1\nseed: 1\n",
			map[string]string{"model/encoder/depth": "3", "model/lr": "0.1", "seed": "1"}, ""},
		{"empty nested mapping is an empty struct", "opts: {}\n", map[string]string{"opts": "{}"}, ""},
		{"lists, with mappings inside as structs", "sizes: [1, 2]\nlayers:\n- {n: 4, act: relu}\n",
			map[string]string{"sizes": "[1, 2]", "layers": `[{"act": "relu", "n": 4}]`}, ""},
		{"Python tags are named, not run", "betas: !!python/tuple\n- 0.9\n- 0.999\n" +
			"w: !!python/object/apply:numpy.core.multiarray._reconstruct\n  args: [1]\n" +
			"act: !!python/name:torch.nn.ReLU ''\nmod: !!python/name:os.path x\n",
			map[string]string{"betas": "[0.9, 0.999]", "w": "!!python/object/apply:numpy.core.multiarray._reconstruct",
				"act": "!!python/name:torch.nn.ReLU", "mod": "!!python/name:os.path x"}, ""},
		{"anchors and aliases", "a: &x {n: 1}\nb: *x\n", map[string]string{"a/n": "1", "b/n": "1"}, ""},
		{"empty file", "", map[string]string{}, ""},
		{"null document", "~\n", map[string]string{}, ""},
		{"not a mapping", "- 1\n- 2\n", nil, "not a mapping"},
		{"not YAML", "a: [1\n", nil, "yaml"},
		{"alias bomb", "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
			"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
			nil, "too many"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseHParamsYAML([]byte(tt.yaml))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			printed := map[string]string{}
			for k, v := range got {
				printed[k] = v.String()
			}
			if !maps.Equal(printed, tt.want) {
				t.Errorf("got %v, want %v", printed, tt.want)
			}
		})
	}
}

// TestHParamsYAMLBesideEvents: a run without a session_start_info takes its
// session from hparams.yaml; a run with one ignores the file.
func TestHParamsYAMLBesideEvents(t *testing.T) {
	yaml := []byte("lr: 0.01\nnet:\n  depth: 4\n")
	dir := t.TempDir()
	writeFiles(t, dir, []file{
		{"yaml/" + ev100, eventFile(t, fileVersion(), summary(0, simple("hp_metric", -1)))},
		{"yaml/hparams.yaml", yaml},
		{"plugin/" + ev100, eventFile(t, fileVersion(), hpStartEvent(t, hpStart("", map[string]*structpb.Value{
			"lr": structpb.NewNumberValue(0.5)})))},
		{"plugin/hparams.yaml", yaml},
		{"bad/" + ev100, eventFile(t, fileVersion())},
		{"bad/hparams.yaml", []byte("- a\n")},
		{"none/" + ev100, eventFile(t, fileVersion())},
	})
	rep := collectDir(t, dir, Options{})
	y := findRun(rep, "yaml")
	if y.HParams == nil || len(y.HParams.Sessions) != 1 {
		t.Fatalf("yaml run: %+v", y.HParams)
	}
	s := y.HParams.Sessions[0]
	if s.Start.Source != "hparams.yaml" || s.Start.HParams["lr"].String() != "0.01" || s.Start.HParams["net/depth"].String() != "4" {
		t.Errorf("yaml session %+v", s.Start)
	}
	// Without an experiment, the run's own scalars are its metrics.
	if mv := s.Metrics["hp_metric"]; mv.Value != -1 || mv.Run != "yaml" {
		t.Errorf("metrics %+v", s.Metrics)
	}
	p := findRun(rep, "plugin")
	if p.HParams == nil || len(p.HParams.Sessions) != 1 || p.HParams.Sessions[0].Start.Source != "plugin" ||
		p.HParams.Sessions[0].Start.HParams["lr"].Number != 0.5 {
		t.Errorf("plugin run: %+v", p.HParams)
	}
	b := findRun(rep, "bad")
	if b.HParams != nil || len(b.Warnings) != 1 || b.Warnings[0].File != "bad/hparams.yaml" {
		t.Errorf("bad run: %+v, warnings %v", b.HParams, b.Warnings)
	}
	if n := findRun(rep, "none"); n.HParams != nil || len(n.Warnings) > 0 {
		t.Errorf("run without hyperparameters: %+v, %v", n.HParams, n.Warnings)
	}
}

func TestJoinHParamMetrics(t *testing.T) {
	exp := &pb.Experiment{MetricInfos: []*pb.MetricInfo{
		{Name: &pb.MetricName{Group: "validation", Tag: "acc"}},
		{Name: &pb.MetricName{Tag: "loss"}},
		{Name: &pb.MetricName{Group: "/eval", Tag: "acc"}},   // group with a leading slash
		{Name: &pb.MetricName{Group: "train", Tag: "never"}}, // no such scalar
	}}
	start := func(units float64) *pb.Event {
		return hpStartEvent(t, hpStart("", map[string]*structpb.Value{"units": structpb.NewNumberValue(units)}))
	}
	scalars := func(tag string, vals ...float32) []*pb.Event {
		var out []*pb.Event
		for i, v := range vals {
			out = append(out, summary(int64(i+1), simple(tag, v)))
		}
		return out
	}
	mv := func(v float64, step int64, run string) model.MetricValue {
		return model.MetricValue{Value: v, Step: step, WallTime: 1000 + float64(step), Run: run}
	}
	// oneflow is a session start with OneFlow's inline metrics.
	oneflow := hpStartEvent(t, &pb.SessionStartInfo{Metrics: map[string]*structpb.Value{
		"acc": structpb.NewNumberValue(0.5), "loss": structpb.NewNumberValue(9), "note": structpb.NewStringValue("x")}})
	tsvis := summary(0, hpValue("_hparams_/session_start_info", hpStartContent(
		hpField2(nil, hpEntry(t, "f1", structpb.NewNumberValue(0.7))))))

	tests := []struct {
		name  string
		files []file
		want  map[string]map[string]model.MetricValue // run -> metrics of its sessions
		from  map[string]string                       // run -> ExperimentRun
	}{
		{"experiment in the parent, metrics in group sub-directories",
			[]file{
				{ev100, eventFile(t, fileVersion(), hpExperimentEvent(t, exp))},
				{"run-0/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(16)}, scalars("loss", 3, 2))...)},
				{"run-0/validation/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("acc", 0.5, 0.75, 0.25))...)},
				{"run-0/eval/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("acc", 0.125))...)},
				{"run-1/" + ev100, eventFile(t, fileVersion(), start(32))},
				{"run-1/validation/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("acc", 0.5))...)},
			},
			map[string]map[string]model.MetricValue{
				"run-0": {"loss": mv(2, 2, "run-0"), "validation/acc": mv(0.25, 3, "run-0/validation"), "eval/acc": mv(0.125, 1, "run-0/eval")},
				"run-1": {"validation/acc": mv(0.5, 1, "run-1/validation")},
			},
			map[string]string{"run-0": ".", "run-1": "."}},
		{"the nearest experiment wins; else any of the log directory",
			[]file{
				{"a/" + ev100, eventFile(t, fileVersion(), hpExperimentEvent(t, &pb.Experiment{MetricInfos: []*pb.MetricInfo{{Name: &pb.MetricName{Tag: "x"}}}}))},
				{"a/s/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(1)}, scalars("x", 1), scalars("y", 2))...)},
				{"b/" + ev100, eventFile(t, fileVersion(), hpExperimentEvent(t, &pb.Experiment{MetricInfos: []*pb.MetricInfo{{Name: &pb.MetricName{Tag: "y"}}}}))},
				{"b/s/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(1)}, scalars("x", 1), scalars("y", 2))...)},
				{"c/s/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(1)}, scalars("x", 1), scalars("y", 2))...)},
				{"self/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(1), hpExperimentEvent(t, &pb.Experiment{MetricInfos: []*pb.MetricInfo{
					{Name: &pb.MetricName{Tag: "hp_metric"}}}})}, scalars("hp_metric", -1), scalars("y", 2))...)},
			},
			map[string]map[string]model.MetricValue{
				"a/s":  {"x": mv(1, 1, "a/s")},
				"b/s":  {"y": mv(2, 1, "b/s")},
				"c/s":  {"x": mv(1, 1, "c/s")}, // a's experiment: the first by name
				"self": {"hp_metric": mv(-1, 1, "self")},
			},
			map[string]string{"a/s": "a", "b/s": "b", "c/s": "a", "self": "self"}},
		{"without an experiment, the scalars of the session's runs, by group",
			[]file{
				{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("top", 1))...)},
				{"run-0/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(16)}, scalars("loss", 3, 2))...)},
				{"run-0/train/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("loss", 4, 5, 6))...)},
				{"run-0/train/deep/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("acc", 1))...)},
				{"run-0/inner/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), start(8)}, scalars("own", 7))...)},
				{"run-0/inner/sub/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, scalars("own", 8))...)},
			},
			map[string]map[string]model.MetricValue{
				"run-0": {"loss": mv(2, 2, "run-0"), "train/loss": mv(6, 3, "run-0/train"), "train/deep/acc": mv(1, 1, "run-0/train/deep")},
				// A session below another one keeps its scalars to itself.
				"run-0/inner": {"own": mv(7, 1, "run-0/inner"), "sub/own": mv(8, 1, "run-0/inner/sub")},
			},
			map[string]string{"run-0": "", "run-0/inner": ""}},
		{"inline metrics fill in what the scalars leave out (OneFlow, TS-VIS)",
			[]file{
				{"oneflow/" + ev100, eventFile(t, cat([]*pb.Event{fileVersion(), oneflow}, scalars("loss", 1, 2))...)},
				{"tsvis/hparams.events.out.host", eventFile(t, tsvis)},
			},
			map[string]map[string]model.MetricValue{
				"oneflow": {"loss": mv(2, 2, "oneflow"), "acc": {Value: 0.5}},
				"tsvis":   {"f1": {Value: 0.7}},
			},
			map[string]string{"oneflow": "", "tsvis": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			rep := collectDir(t, dir, Options{})
			got := map[string]map[string]model.MetricValue{}
			from := map[string]string{}
			for _, r := range rep.Runs {
				if len(r.Warnings) > 0 {
					t.Errorf("run %s: warnings %v", r.Name, r.Warnings)
				}
				if r.HParams == nil {
					continue
				}
				for _, s := range r.HParams.Sessions {
					got[r.Name] = s.Metrics
					from[r.Name] = s.ExperimentRun
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("metrics\n%v\nwant\n%v", got, tt.want)
			}
			if !maps.Equal(from, tt.from) {
				t.Errorf("experiment runs %v, want %v", from, tt.from)
			}
		})
	}
}

// TestHParamsMatchTensorBoard compares the sessions of the shared corpus,
// their hyperparameters, status and metric values, with what TensorBoard's
// hparams plugin lists; see testdata/hparams/dump_sessions.py.
func TestHParamsMatchTensorBoard(t *testing.T) {
	corpus := sharedCorpus(t)
	raw, err := os.ReadFile("testdata/hparams/corpus_sessions.json")
	if err != nil {
		t.Fatal(err)
	}
	type tbSession struct {
		HParams map[string]any
		Status  string
		Metrics map[string][3]float64 // value, step, wall time
	}
	var want map[string]map[string]tbSession
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{"STATUS_UNKNOWN": "unknown", "STATUS_SUCCESS": "success",
		"STATUS_FAILURE": "failure", "STATUS_RUNNING": "running"}
	for _, entry := range slices.Sorted(maps.Keys(want)) {
		sessions := want[entry]
		t.Run(entry, func(t *testing.T) {
			rep := collectDir(t, filepath.Join(corpus, entry), Options{})
			got := map[string]*model.Session{}
			for _, r := range rep.Runs {
				if r.HParams == nil || len(r.HParams.Sessions) == 0 {
					continue
				}
				if len(r.HParams.Sessions) != 1 {
					t.Errorf("run %s: %d sessions", r.Name, len(r.HParams.Sessions))
					continue
				}
				got[r.Name] = r.HParams.Sessions[0]
			}
			if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(sessions))) {
				t.Fatalf("sessions %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(sessions)))
			}
			for name, w := range sessions {
				s := got[name]
				if s.Start.Source != "plugin" {
					t.Errorf("%s: source %q", name, s.Start.Source)
				}
				status := "unknown"
				if s.End != nil {
					status = s.End.Status
				}
				if status != statuses[w.Status] {
					t.Errorf("%s: status %q, want %s", name, status, w.Status)
				}
				if len(s.Start.HParams) != len(w.HParams) {
					t.Errorf("%s: %d hparams, want %d", name, len(s.Start.HParams), len(w.HParams))
				}
				for k, wv := range w.HParams {
					var ok bool
					switch v := s.Start.HParams[k]; x := wv.(type) {
					case float64:
						ok = v.Kind == model.NumberValue && v.Number == x
					case string:
						ok = v.Kind == model.StringValue && v.Str == x
					case bool:
						ok = v.Kind == model.BoolValue && v.Bool == x
					}
					if !ok {
						t.Errorf("%s: hparam %s = %#v, want %#v", name, k, s.Start.HParams[k], wv)
					}
				}
				gotM := map[string][3]float64{}
				for k, m := range s.Metrics {
					gotM[k] = [3]float64{m.Value, float64(m.Step), m.WallTime}
				}
				if !maps.Equal(gotM, w.Metrics) {
					t.Errorf("%s: metrics %v, want %v", name, gotM, w.Metrics)
				}
			}
		})
	}
}

func TestHParamsCorpus(t *testing.T) {
	corpus := sharedCorpus(t)
	read := func(t *testing.T, entry string) *model.Report {
		rep := collectDir(t, filepath.Join(corpus, entry), Options{})
		for _, r := range rep.Runs {
			for _, w := range r.Warnings {
				if strings.Contains(w.Msg, "hparams") || strings.Contains(w.File, "yaml") {
					t.Errorf("run %s: %v", r.Name, w)
				}
			}
		}
		return rep
	}
	sessions := func(rep *model.Report) (out []*model.Session) {
		for _, r := range rep.Runs {
			if r.HParams != nil {
				out = append(out, r.HParams.Sessions...)
			}
		}
		return out
	}

	t.Run("tf2-hparams-keras", func(t *testing.T) {
		rep := read(t, "tf2-hparams-keras")
		ss := sessions(rep)
		if len(ss) != 9 {
			t.Fatalf("%d sessions", len(ss))
		}
		for _, s := range ss {
			if len(s.Start.HParams) != 2 || s.Start.HParams["num_units"].Kind != model.NumberValue ||
				s.Start.HParams["optimizers"].Kind != model.StringValue || s.End == nil || s.End.Status != "success" {
				t.Errorf("session %+v, end %+v", s.Start, s.End)
			}
			keys := slices.Sorted(maps.Keys(s.Metrics))
			if !slices.Equal(keys, []string{"train/epoch_accuracy", "train/epoch_loss", "validation/epoch_accuracy", "validation/epoch_loss"}) {
				t.Errorf("metrics %v", keys)
			}
		}
	})

	t.Run("tf2-hparams-api-experiment", func(t *testing.T) {
		rep := read(t, "tf2-hparams-api-experiment")
		root := findRun(rep, "logs/hparam_tuning")
		if root == nil || root.HParams == nil || root.HParams.Experiment == nil {
			t.Fatal("no experiment in logs/hparam_tuning")
		}
		want := &model.Experiment{
			HParams: []model.HParamInfo{
				{Name: "num_units", Type: "float64", Discrete: []model.HParamValue{num(16), num(32)}},
				{Name: "dropout", Type: "float64", Interval: &model.Interval{Min: 0.1, Max: 0.2}},
				{Name: "optimizer", Type: "string", Discrete: []model.HParamValue{str("adam"), str("sgd")}},
			},
			Metrics: []model.MetricInfo{{Tag: "accuracy", DisplayName: "Accuracy", DatasetType: "unknown"}},
		}
		if !reflect.DeepEqual(root.HParams.Experiment, want) {
			t.Errorf("experiment\n%+v\nwant\n%+v", root.HParams.Experiment, want)
		}
		ss := sessions(rep)
		if len(ss) != 8 {
			t.Fatalf("%d sessions", len(ss))
		}
		for _, s := range ss {
			if s.ExperimentRun != "logs/hparam_tuning" || len(s.Start.GroupName) != 64 || s.Start.StartTime < 1.5e9 {
				t.Errorf("session %+v from %q", s.Start, s.ExperimentRun)
			}
			if _, ok := s.Metrics["accuracy"]; !ok {
				t.Errorf("no accuracy: %v", s.Metrics)
			}
		}
	})

	t.Run("tsvis-oneflow-logs", func(t *testing.T) {
		rep := read(t, "tsvis-oneflow-logs")
		groups := map[string][]string{}
		for _, r := range rep.Runs {
			if r.HParams == nil {
				continue
			}
			for _, s := range r.HParams.Sessions {
				groups[r.Name] = append(groups[r.Name], s.Start.GroupName)
			}
		}
		want := map[string][]string{
			"tests/test_logs/run2": {"mnist"},
			"tsvis/test/hp1":       {"mnist", "mnist1", "mnist2", "mnist3", "mnist4", "mnist5"},
			// Two sessions share the group "mnist", with other values.
			"tsvis/test/hp2": {"mnist", "mnist", "mnist2", "mnist3"},
			"tsvis/test/log": {"group_0", "group_1", "group_2", "group_3", "group_4", "group_5", "group_6",
				"group_7", "group_8", "group_9", "group_10", "group_11"},
		}
		if !reflect.DeepEqual(groups, want) {
			t.Errorf("sessions %v\nwant %v", groups, want)
		}
		// run2 carries its metrics at field 2, TS-VIS's way.
		s := findRun(rep, "tests/test_logs/run2").HParams.Sessions[0]
		if s.Start.ModelURI != "" || s.Start.Metrics["loss"].Number != 0.1 || s.Metrics["loss"] != (model.MetricValue{Value: 0.1}) ||
			s.Start.HParams["lrate"].Number != 0.001 || s.Start.HParams["batchSize"].Number != 32 {
			t.Errorf("run2 session %+v, metrics %v", s.Start, s.Metrics)
		}
		s = findRun(rep, "tsvis/test/hp1").HParams.Sessions[0]
		if s.Start.HParams["optimizer"].String() != "adam" || s.Start.HParams["loss"].Number != 32.1153 {
			t.Errorf("hp1 session %+v", s.Start)
		}
	})

	t.Run("lightning-tbx-sweep", func(t *testing.T) {
		rep := read(t, "lightning-tbx-sweep")
		if len(rep.Runs) != 25 {
			t.Fatalf("%d runs", len(rep.Runs))
		}
		for _, r := range rep.Runs {
			if r.HParams == nil || len(r.HParams.Sessions) != 1 || r.HParams.Experiment == nil {
				t.Errorf("run %s: %+v", r.Name, r.HParams)
				continue
			}
			s := r.HParams.Sessions[0]
			if s.Start.Source != "plugin" || len(s.Start.HParams) < 30 || s.Metrics["hp_metric"].Value != -1 {
				t.Errorf("run %s: %d hparams from %s, metrics %v", r.Name, len(s.Start.HParams), s.Start.Source, s.Metrics)
			}
		}
	})

	t.Run("lightning-hparams-only", func(t *testing.T) {
		rep := read(t, "lightning-hparams-only")
		r := findRun(rep, "lightning_logs/version_0")
		if r == nil || r.HParams == nil || len(r.HParams.Sessions) != 1 || r.HParams.Experiment == nil {
			t.Fatalf("run %+v", r)
		}
		s := r.HParams.Sessions[0]
		if len(s.Start.HParams) != 18 || s.Start.HParams["exp_name"].String() != "Lego" || s.Start.HParams["lr"].Number != 0.01 ||
			s.End == nil || s.End.Status != "success" || s.Metrics["hp_metric"].Value != -1 {
			t.Errorf("session %+v, end %+v, metrics %v", s.Start, s.End, s.Metrics)
		}
		if len(r.HParams.Experiment.HParams) != 18 || len(r.HParams.Experiment.Metrics) != 1 {
			t.Errorf("experiment %+v", r.HParams.Experiment)
		}
	})

	// Every hparams.yaml of the corpus names the hyperparameters the
	// plugin record beside it holds, Python tags included.
	t.Run("hparams.yaml names match the plugin", func(t *testing.T) {
		for _, entry := range []string{"lightning-tbx-sweep", "lightning-hparams-only", "lightning-scalars-hparams"} {
			rep := read(t, entry)
			for _, r := range rep.Runs {
				data, err := os.ReadFile(filepath.Join(corpus, entry, filepath.FromSlash(r.Path), "hparams.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				y, err := parseHParamsYAML(data)
				if err != nil {
					t.Errorf("%s %s: %v", entry, r.Name, err)
					continue
				}
				names := slices.Sorted(maps.Keys(r.HParams.Sessions[0].Start.HParams))
				if !slices.Equal(slices.Sorted(maps.Keys(y)), names) {
					t.Errorf("%s %s: yaml names %v, plugin names %v", entry, r.Name, slices.Sorted(maps.Keys(y)), names)
				}
			}
		}
	})
}

// TestHParamsTensorBoardX reads what tensorboardX's add_hparams wrote
// (testdata/hparams/gen_tbx.py): the experiment, session and metric
// scalars all in a sub-run named by the call, as PyTorch writes them.
func TestHParamsTensorBoardX(t *testing.T) {
	rep := collectDir(t, "testdata/hparams/tbx", Options{})
	if r := findRun(rep, "run"); r == nil || r.HParams != nil {
		t.Fatalf("run: %+v", r)
	}
	r := findRun(rep, "run/trial-0")
	if r == nil || r.HParams == nil || r.HParams.Experiment == nil || len(r.HParams.Sessions) != 1 {
		t.Fatalf("run/trial-0: %+v", r)
	}
	var types []string
	for _, h := range r.HParams.Experiment.HParams {
		types = append(types, h.Name+":"+h.Type)
	}
	if !slices.Equal(types, []string{"lr:float64", "optimizer:string", "amsgrad:bool", "layers:float64"}) {
		t.Errorf("hparam infos %v", types)
	}
	s := r.HParams.Sessions[0]
	want := map[string]model.HParamValue{"lr": num(0.01), "optimizer": str("adam"), "amsgrad": boolean(true), "layers": num(3)}
	if !maps.EqualFunc(s.Start.HParams, want, func(a, b model.HParamValue) bool { return a.Compare(b) == 0 }) {
		t.Errorf("hparams %v", s.Start.HParams)
	}
	if s.End == nil || s.End.Status != "success" || s.ExperimentRun != "run/trial-0" {
		t.Errorf("end %+v, experiment from %q", s.End, s.ExperimentRun)
	}
	if len(s.Metrics) != 2 || s.Metrics["hparam/accuracy"].Value != 0.75 || s.Metrics["hparam/loss"].Run != "run/trial-0" {
		t.Errorf("metrics %v", s.Metrics)
	}
}

// FuzzHParamsContent decodes arbitrary hparams plugin content: it must not
// panic, and every value it gives must print and compare equal to itself.
func FuzzHParamsContent(f *testing.F) {
	exp := hpMarshal(f, &pb.HParamsPluginData{Data: &pb.HParamsPluginData_Experiment{Experiment: &pb.Experiment{
		HparamInfos: []*pb.HParamInfo{{Name: "u", Domain: &pb.HParamInfo_DomainDiscrete{DomainDiscrete: &structpb.ListValue{
			Values: []*structpb.Value{structpb.NewNumberValue(1), structpb.NewStringValue("a")}}}}},
		MetricInfos: []*pb.MetricInfo{{Name: &pb.MetricName{Group: "g", Tag: "t"}}}}}})
	st, err := structpb.NewStruct(map[string]any{"a": []any{1, "x", nil, true, map[string]any{"b": false}}})
	if err != nil {
		f.Fatal(err)
	}
	start := hpMarshal(f, hpStart("g", map[string]*structpb.Value{"s": structpb.NewStructValue(st), "n": structpb.NewNullValue()}))
	f.Add(exp)
	f.Add(hpStartContent(start))
	f.Add(hpStartContent(hpField2(start, hpEntry(f, "acc", structpb.NewNumberValue(0.5)))))
	f.Add(hpStartContent(hpField2(start, []byte("uri"))))
	f.Add(hpMarshal(f, &pb.HParamsPluginData{Data: &pb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &pb.SessionEndInfo{Status: 1}}}))
	f.Add([]byte{})
	f.Add([]byte{0x1a, 0x02, 0x12, 0x00})
	f.Fuzz(func(t *testing.T, content []byte) {
		rec, err := decodeHParams(content)
		if err != nil {
			return
		}
		check := func(v model.HParamValue) {
			_ = v.String()
			if v.Compare(v) != 0 {
				t.Fatalf("%s differs from itself", v)
			}
		}
		switch {
		case rec.start != nil:
			for _, v := range rec.start.HParams {
				check(v)
			}
			for _, v := range rec.start.Metrics {
				check(v)
			}
		case rec.experiment != nil:
			for _, h := range rec.experiment.HParams {
				for _, v := range h.Discrete {
					check(v)
				}
			}
		case rec.end == nil:
			t.Fatal("no record and no error")
		}
	})
}

// FuzzHParamsYAML parses arbitrary hparams.yaml files: it must not panic.
func FuzzHParamsYAML(f *testing.F) {
	f.Add([]byte("lr: 0.1\nnet:\n  depth: 3\nsizes: [1, {a: b}]\n"))
	f.Add([]byte("w: !!python/object/apply:numpy.core.multiarray._reconstruct\n  args: [1]\nt: !!python/tuple [1, 2]\n"))
	f.Add([]byte("a: &a {x: *a}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		hps, err := parseHParamsYAML(data)
		if err != nil {
			return
		}
		for _, v := range hps {
			if v.Compare(v) != 0 {
				t.Fatalf("%s differs from itself", v)
			}
		}
	})
}
