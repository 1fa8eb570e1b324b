package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// DecodeKeras decodes a Keras model's JSON (model.to_json(), written by
// the Keras TensorBoard callback with plugin graph_keras_model) into one
// node per layer, as TensorBoard draws it: every name behind its model's
// scope ("Logistic/dense"), nested models as scopes of their own, edges
// from Functional models' inbound_nodes (the Keras 2 nested lists and the
// Keras 3 {args: [{config: {keras_history}}]} form alike) and from the
// order of a Sequential model's layers. A layer's config entries become
// its attributes; an InputLayer's batch shape its output shape.
func DecodeKeras(b []byte) (*Graph, error) {
	root, err := decodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("not Keras model JSON: %w", err)
	}
	top, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("Keras model JSON is a %s, want an object", jsonKind(root))
	}
	if _, ok := modelLayers(top); !ok {
		return nil, fmt.Errorf("Keras model JSON of class %q holds no layers", str(top["class_name"]))
	}
	w := &kerasWalker{g: &Graph{}, inputOf: map[string]string{}, outputsOf: map[string][]string{}, inputs: newInputBudget(len(b))}
	w.walk("", top, 0)
	if w.tooDeep {
		w.g.Notes = append(w.g.Notes, fmt.Sprintf("models nested deeper than %d levels not read", maxModelDepth))
	}
	if w.tooLong > 0 {
		w.g.Notes = append(w.g.Notes, fmt.Sprintf("layers of models whose scoped names pass %d bytes not read (%d models)", maxScopeLen, w.tooLong))
	}
	if w.cut {
		w.g.Notes = append(w.g.Notes, fmt.Sprintf("names longer than %d bytes cut (each ends in a hash of the whole)", maxNameLen))
	}
	w.g.Notes = append(w.g.Notes, w.inputs.notes()...)
	return w.g, nil
}

// decodeJSON decodes JSON keeping numbers as written.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// maxModelDepth bounds the nesting of models in a model.
const maxModelDepth = 64

// Bounds on names. Every layer's name carries the names of the models
// around it ("outer/inner/dense"), so long names nested deep made every
// layer pay for all of them: 8.5 KB of JSON (30 models of 150-byte names
// around 500 empty layers) decoded to 4.6 MB of names. Keras names its
// layers "dense_3", users "encoder_block_2", and models nest a few deep:
// real scoped names stay well within 100 bytes.
const (
	// maxNameLen bounds one layer's or model's name; a longer one is cut,
	// ending in a hash of the whole so that names stay apart and every
	// reference to it meets it.
	maxNameLen = 128
	// maxScopeLen bounds the scope a model's layers sit in (its own
	// scoped name); the layers of a model past it are not read. A node's
	// name is thus at most maxScopeLen+1+maxNameLen bytes.
	maxScopeLen = 512
)

// name bounds a name to maxNameLen bytes (see the constant).
func (w *kerasWalker) name(s string) string {
	if len(s) <= maxNameLen {
		return s
	}
	w.cut = true
	h := fnv.New32a()
	h.Write([]byte(s))
	suffix := fmt.Sprintf("…%08x", h.Sum32())
	cut := maxNameLen - len(suffix)
	for cut > 0 && !runeStart(s[cut]) {
		cut--
	}
	return s[:cut] + suffix
}

// kerasWalker turns the layers of a Keras model into nodes, in preorder.
type kerasWalker struct {
	g *Graph
	// inputOf maps the scoped name of a nested model's input layer to the
	// node that feeds the model.
	inputOf map[string]string
	// outputsOf maps the scoped name of a model to its output layers, so
	// that an edge from a model starts at the right one of them.
	outputsOf map[string][]string
	prev      string // the last node made: a Sequential layer's input
	inputs    *inputBudget
	tooDeep   bool
	tooLong   int  // models whose layers were not read for the length of their scope
	cut       bool // names were cut to maxNameLen
}

// kerasRef is a reference to a layer's output: [name, node index, tensor
// index] in Keras' JSON.
type kerasRef struct {
	name   string
	tensor int
}

// modelLayers returns the layers of a layer that is a model: its
// config.layers, or, in Keras 1's Sequential form, the config itself.
func modelLayers(layer map[string]any) ([]any, bool) {
	switch c := layer["config"].(type) {
	case map[string]any:
		l, ok := c["layers"].([]any)
		return l, ok
	case []any:
		return c, true
	}
	return nil, false
}

// config returns a layer's config object, or nil.
func config(layer map[string]any) map[string]any {
	c, _ := layer["config"].(map[string]any)
	return c
}

// layerName is a layer's name: config.name, else the layer's own name
// (Functional models repeat it there), else its place.
func layerName(layer map[string]any, i int) string {
	if s := str(config(layer)["name"]); s != "" {
		return s
	}
	if s := str(layer["name"]); s != "" {
		return s
	}
	return "layer_" + strconv.Itoa(i)
}

func scoped(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "/" + name
}

func (w *kerasWalker) walk(scope string, layer map[string]any, depth int) {
	layers, isModel := modelLayers(layer)
	if !isModel {
		w.addLayer(scope, layer, len(w.g.Nodes))
		return
	}
	if depth >= maxModelDepth {
		w.tooDeep = true
		return
	}
	name := w.name(layerName(layer, len(w.g.Nodes)))
	if _, ok := layer["config"].([]any); ok {
		name = "sequential"
	}
	inner := scoped(scope, name)
	if len(inner) > maxScopeLen {
		w.tooLong++
		return
	}
	w.enterModel(scope, inner, layer, layers)
	for _, l := range layers {
		if l, ok := l.(map[string]any); ok {
			w.walk(inner, l, depth+1)
		}
	}
}

// enterModel links a model's layers with what surrounds it, as
// TensorBoard does: a Functional model's input layers take its inbound
// nodes (or the previous layer when its parent is Sequential), a
// Sequential model's first layer its first inbound node; and it records
// the model's outputs.
func (w *kerasWalker) enterModel(scope, name string, layer map[string]any, layers []any) {
	cfg := config(layer)
	inputs, outputs := refList(cfg["input_layers"]), refList(cfg["output_layers"])
	inbound := inboundRefs(layer)
	functional := len(inputs) > 0 && len(outputs) > 0
	switch {
	case len(inbound) > 0 && functional:
		for i, in := range inputs[:min(len(inputs), len(inbound))] {
			w.inputOf[scoped(name, w.name(in.name))] = w.resolve(scoped(scope, w.name(inbound[i].name)), inbound[i].tensor)
		}
	case len(inbound) > 0:
		w.prev = w.resolve(scoped(scope, w.name(inbound[0].name)), inbound[0].tensor)
	case w.prev != "" && functional:
		w.inputOf[scoped(name, w.name(inputs[0].name))] = w.prev
	}
	if functional {
		outs := make([]string, len(outputs))
		for i, o := range outputs {
			outs[i] = scoped(name, w.name(o.name))
		}
		w.outputsOf[name] = outs
	} else if len(layers) > 0 {
		if last, ok := layers[len(layers)-1].(map[string]any); ok {
			w.outputsOf[name] = []string{scoped(name, w.name(layerName(last, 0)))}
		}
	}
}

// resolve follows an edge that starts at a model to the output layer it
// starts at.
func (w *kerasWalker) resolve(name string, tensor int) string {
	for range maxModelDepth {
		outs, ok := w.outputsOf[name]
		if !ok || len(outs) == 0 {
			break
		}
		if tensor >= 0 && tensor < len(outs) {
			name = outs[tensor]
		} else {
			name = outs[len(outs)-1]
		}
		tensor = 0
	}
	return name
}

func (w *kerasWalker) addLayer(scope string, layer map[string]any, i int) {
	cfg := config(layer)
	n := Node{Name: scoped(scope, w.name(layerName(layer, i))), Op: w.name(str(layer["class_name"]))}
	// The inputs: the inbound nodes' (or, without any, the previous
	// layer), then what feeds the model whose input the layer is.
	raw, inbound := layer["inbound_nodes"]
	inbound = inbound && raw != nil
	var refs []kerasRef
	extra := 0
	if inbound {
		refs = inboundRefs(layer)
	} else if w.prev != "" {
		extra++
	}
	fed, isInput := w.inputOf[n.Name]
	if isInput {
		extra++
	}
	refs = refs[:max(w.inputs.keep(len(refs)+extra)-extra, 0)]
	for _, in := range refs {
		if name := w.resolve(scoped(scope, w.name(in.name)), in.tensor); w.inputs.take(len(name)) {
			n.Inputs = append(n.Inputs, Input{Name: name})
		}
	}
	if !inbound && w.prev != "" && w.inputs.take(len(w.prev)) {
		n.Inputs = append(n.Inputs, Input{Name: w.prev})
	}
	if isInput && w.inputs.take(len(fed)) {
		n.Inputs = append(n.Inputs, Input{Name: fed})
	}
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		if k == "name" || cfg[k] == nil {
			continue
		}
		n.Attrs = append(n.Attrs, Attr{Name: k, Value: jsonString(cfg[k], 0)})
	}
	if n.Op == "InputLayer" {
		for _, k := range []string{"batch_input_shape", "batch_shape"} {
			if s, ok := jsonShape(cfg[k]); ok {
				n.OutputShapes = []Shape{s}
				break
			}
		}
	}
	w.g.Nodes = append(w.g.Nodes, n)
	w.prev = n.Name
}

// refList reads a list of [name, node index, tensor index] references, or
// a single one (Keras writes both for input_layers and output_layers).
func refList(v any) []kerasRef {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil
	}
	if _, single := l[0].(string); single {
		l = []any{l}
	}
	var refs []kerasRef
	for _, r := range l {
		if ref, ok := refOf(r); ok {
			refs = append(refs, ref)
		}
	}
	return refs
}

// refOf reads one [name, node index, tensor index, ...] reference.
func refOf(v any) (kerasRef, bool) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return kerasRef{}, false
	}
	name, ok := l[0].(string)
	if !ok {
		return kerasRef{}, false
	}
	ref := kerasRef{name: name}
	if len(l) > 2 {
		if n, ok := l[2].(json.Number); ok {
			if t, err := strconv.Atoi(n.String()); err == nil {
				ref.tensor = t
			}
		}
	}
	return ref, true
}

// inboundRefs reads the inputs of a layer from its inbound_nodes, one
// entry per call of the layer: in Keras 2 a list of references (or a
// single one), in Keras 3 an object whose args hold Keras tensors with
// their keras_history.
func inboundRefs(layer map[string]any) []kerasRef {
	calls, _ := layer["inbound_nodes"].([]any)
	var refs []kerasRef
	for _, call := range calls {
		switch c := call.(type) {
		case []any:
			refs = append(refs, refList(c)...)
		case map[string]any:
			args, _ := c["args"].([]any)
			for _, a := range args {
				refs = appendHistories(refs, a, 0)
			}
		}
	}
	return refs
}

// appendHistories appends the keras_history of every Keras tensor in an
// argument, which may be a tensor or a list of them.
func appendHistories(refs []kerasRef, v any, depth int) []kerasRef {
	if depth > maxDepth {
		return refs
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			refs = appendHistories(refs, e, depth+1)
		}
	case map[string]any:
		h, _ := config(x)["keras_history"].([]any)
		if len(h) >= 3 {
			if ref, ok := refOf(h); ok {
				refs = append(refs, ref)
			}
		}
	}
	return refs
}

// jsonShape reads a shape written as a JSON list of sizes and nulls.
func jsonShape(v any) (Shape, bool) {
	l, ok := v.([]any)
	if !ok {
		return Shape{}, false
	}
	s := Shape{Dims: make([]int64, len(l))}
	for i, d := range l {
		s.Dims[i] = -1
		if n, ok := d.(json.Number); ok {
			if v, err := n.Int64(); err == nil {
				s.Dims[i] = v
			}
		}
	}
	return s, true
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "list"
	}
	return "object"
}

// jsonString summarises a JSON value: scalars as written (strings without
// quotes), lists shortened, {class_name, config} objects (initializers,
// dtype policies) as "Class(key=value, ...)", other objects as
// "{key: value, ...}".
func jsonString(v any, depth int) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return shorten(x.String())
	case string:
		return shorten(x)
	case []any:
		if depth >= maxDepth {
			return "[…]"
		}
		return listString(len(x), func(i int) string { return jsonString(x[i], depth+1) })
	case map[string]any:
		if depth >= maxDepth {
			return "{…}"
		}
		if cls, ok := x["class_name"].(string); ok && len(x) <= 4 {
			if inner := objectString(config(x), "=", depth); inner != "" {
				return shorten(cls + "(" + inner + ")")
			}
			return shorten(cls)
		}
		return shorten("{" + objectString(x, ": ", depth) + "}")
	}
	return ""
}

// objectString writes the non-null entries of an object, sorted by key.
func objectString(m map[string]any, sep string, depth int) string {
	var sb strings.Builder
	n := 0
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] == nil {
			continue
		}
		if n == maxListItems || sb.Len() > maxValueLen {
			sb.WriteString(", …")
			break
		}
		if n > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(k + sep + jsonString(m[k], depth+1))
		n++
	}
	return sb.String()
}
