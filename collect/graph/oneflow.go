package graph

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Job is one job (one compiled function) of a OneFlow structure graph.
type Job struct {
	Name string
	Graph
}

// DecodeOneFlow decodes a OneFlow structure graph (structure_graph.json,
// docs/FORMATS.md section 14): an array of jobs {backend, class_name "Model",
// config: {name, input_layers, output_layers, layers}}, each layer {name,
// class_name, config, inbound_nodes: [producer names]}. A layer's op is
// its class_name; its device is config.device_tag (or device_type); its
// attributes are its other config entries, with the entries of a user
// op's user_conf.attr list as attributes of their own (its input and
// output lists repeat the edges and are left out).
func DecodeOneFlow(b []byte) ([]Job, error) {
	root, err := decodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("not a OneFlow structure graph: %w", err)
	}
	jobs, ok := root.([]any)
	if !ok {
		if _, one := root.(map[string]any); !one {
			return nil, fmt.Errorf("OneFlow structure graph is a %s, want a list of jobs", jsonKind(root))
		}
		jobs = []any{root}
	}
	var out []Job
	for i, j := range jobs {
		job, ok := j.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("job %d is a %s, want an object", i, jsonKind(j))
		}
		cfg := config(job)
		layers, ok := cfg["layers"].([]any)
		if !ok && cfg["layers"] != nil {
			return nil, fmt.Errorf("job %d: layers is a %s, want a list", i, jsonKind(cfg["layers"]))
		}
		name := str(cfg["name"])
		if name == "" {
			name = "job_" + strconv.Itoa(i)
		}
		jb := Job{Name: name}
		jb.Nodes = make([]Node, 0, len(layers))
		budget := newInputBudget(len(b))
		for k, l := range layers {
			if l, ok := l.(map[string]any); ok {
				jb.Nodes = append(jb.Nodes, oneflowNode(l, k, budget))
			}
		}
		jb.Notes = budget.notes()
		out = append(out, jb)
	}
	return out, nil
}

// Config entries of a OneFlow layer that are not attributes.
var oneflowNotAttrs = map[string]bool{"name": true, "device_tag": true, "device_type": true, "user_conf": true}

func oneflowNode(layer map[string]any, i int, budget *inputBudget) Node {
	cfg := config(layer)
	n := Node{Name: str(layer["name"]), Op: str(layer["class_name"])}
	if n.Name == "" {
		n.Name = layerName(layer, i)
	}
	n.Device = str(cfg["device_tag"])
	if n.Device == "" {
		n.Device = str(cfg["device_type"])
	}
	ins, _ := layer["inbound_nodes"].([]any)
	for _, in := range ins[:budget.keep(len(ins))] {
		name, ok := in.(string)
		if !ok {
			var ref kerasRef
			ref, ok = refOf(in)
			name = ref.name
		}
		if ok && budget.take(len(name)) {
			n.Inputs = append(n.Inputs, Input{Name: name})
		}
	}
	attrs := map[string]string{}
	for k, v := range cfg {
		if !oneflowNotAttrs[k] && v != nil {
			attrs[k] = jsonString(v, 0)
		}
	}
	if uc, ok := cfg["user_conf"].(map[string]any); ok {
		if n.Op == "" {
			n.Op = str(uc["op_type_name"])
		}
		list, _ := uc["attr"].([]any)
		for _, a := range list {
			a, ok := a.(map[string]any)
			if !ok || str(a["key"]) == "" {
				continue
			}
			v := a["value"]
			if m, ok := v.(map[string]any); ok && len(m) == 1 {
				for _, only := range m { // {"at_bool": false}: the value is inside
					v = only
				}
			}
			attrs[str(a["key"])] = jsonString(v, 0)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		n.Attrs = append(n.Attrs, Attr{Name: k, Value: attrs[k]})
	}
	return n
}
