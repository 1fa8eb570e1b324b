package graph

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

// Bounds on a MindSpore dataset graph: its operations, their nesting and
// the attributes each shows. MindSpore writes a pipeline of a few
// operations (GeneratorDataset -> Map -> Batch), each with a dozen
// parameters.
const (
	maxDatasetNodes = 10_000
	maxDatasetDepth = 64
	maxDatasetAttrs = 64
)

// DecodeMindSporeDataset decodes the dataset graph of a MindSpore lineage
// file (LineageEvent.dataset_graph, docs/FORMATS.md section 21) into nodes:
// one per dataset operation, named by its op_type ("Batch",
// "GeneratorDataset"; "Batch_1" for a second of one type), its op the
// op_type, its parameters (batch_size, num_parallel_workers...) its
// attributes, its map operations and sampler summarised as attributes;
// each node's inputs are its children, the datasets it reads, so that data
// flows from the source to the last operation, the graph's root.
//
// The message is read with protowire, field by field, within the bounds
// above (the generated types would decode every operation before any
// bound could apply); the field numbers are mspb's (mspb/lineage.proto):
//
//	DatasetGraph { repeated DatasetGraph children = 1; OperationParameter parameter = 2;
//	               repeated Operation operations = 3; Operation sampler = 4; }
//	Operation { OperationParameter operationParam = 1; repeated int32 size = 2; repeated float weights = 3; }
//	OperationParameter { map<string, string> mapStr = 1; map<string, StrList> mapStrList = 2;
//	                     map<string, bool> mapBool = 3; map<string, int32> mapInt = 4; map<string, double> mapDouble = 5; }
//	StrList { repeated string strValue = 1; }
func DecodeMindSporeDataset(b []byte) (*Graph, error) {
	d := &datasetDecoder{seen: map[string]int{}, taken: map[string]bool{}}
	if _, err := d.node(b, 0); err != nil {
		return nil, fmt.Errorf("not a MindSpore dataset graph: %w", err)
	}
	g := &Graph{Nodes: d.nodes}
	if d.cut {
		g.Notes = append(g.Notes, fmt.Sprintf("more than %d operations or %d levels: the rest not read", maxDatasetNodes, maxDatasetDepth))
	}
	return g, nil
}

type datasetDecoder struct {
	nodes []Node
	seen  map[string]int  // per op type, the next suffix to try
	taken map[string]bool // the names given
	cut   bool            // past a bound
}

// node decodes one DatasetGraph and its children, returning the name it
// gave the node ("" when a bound left it out).
func (d *datasetDecoder) node(b []byte, depth int) (string, error) {
	if depth >= maxDatasetDepth || len(d.nodes) >= maxDatasetNodes {
		d.cut = true
		return "", nil
	}
	i := len(d.nodes)
	d.nodes = append(d.nodes, Node{})
	var children [][]byte
	var param params
	var ops []string
	var sampler string
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if typ != protowire.BytesType {
			return nil // no field of DatasetGraph is of another type
		}
		switch num {
		case mspb.FieldDatasetChildren:
			children = append(children, v)
		case mspb.FieldDatasetParameter:
			return param.read(v)
		case mspb.FieldDatasetOperations:
			name, err := operationName(v)
			if err != nil {
				return fmt.Errorf("operation: %w", err)
			}
			ops = append(ops, name)
		case mspb.FieldDatasetSampler:
			name, err := operationName(v)
			if err != nil {
				return fmt.Errorf("sampler: %w", err)
			}
			sampler = name
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	op := param.str["op_type"]
	if op == "" {
		op = "Dataset"
	}
	// A second operation of a type is "<type>_1", and so on, past any
	// name already given (an op_type may itself read "Map_1").
	name := op
	for k := max(1, d.seen[op]); d.taken[name]; k++ {
		name = op + "_" + strconv.Itoa(k)
		d.seen[op] = k + 1
	}
	d.taken[name] = true
	n := Node{Name: name, Op: op, Attrs: param.attrs()}
	if len(ops) > 0 {
		n.Attrs = append(n.Attrs, Attr{Name: "operations", Value: shorten(strings.Join(ops, ", "))})
	}
	if sampler != "" {
		n.Attrs = append(n.Attrs, Attr{Name: "sampler", Value: shorten(sampler)})
	}
	slices.SortFunc(n.Attrs, func(a, b Attr) int { return strings.Compare(a.Name, b.Name) })
	if len(n.Attrs) > maxDatasetAttrs {
		n.Attrs = append(n.Attrs[:maxDatasetAttrs], Attr{Name: "…", Value: fmt.Sprintf("%d more", len(n.Attrs)-maxDatasetAttrs)})
	}
	for _, c := range children {
		child, err := d.node(c, depth+1)
		if err != nil {
			return "", err
		}
		if child != "" {
			n.Inputs = append(n.Inputs, Input{Name: child})
		}
	}
	d.nodes[i] = n
	return name, nil
}

// operationName names a map operation or sampler by what its parameters
// call it (tensor_op_name, sampler_name, op_type), else "operation".
func operationName(b []byte) (string, error) {
	var p params
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if num == mspb.FieldOperationParam && typ == protowire.BytesType {
			return p.read(v)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	for _, k := range []string{"tensor_op_name", "sampler_name", "op_type", "tensor_op_module"} {
		if s := p.str[k]; s != "" {
			return s, nil
		}
	}
	return "operation", nil
}

// params is an OperationParameter: its maps, by type.
type params struct {
	str   map[string]string
	lists map[string][]string
	other map[string]string // bools, ints and doubles, written out
}

func (p *params) read(b []byte) error {
	if p.str == nil {
		p.str, p.lists, p.other = map[string]string{}, map[string][]string{}, map[string]string{}
	}
	return eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if typ != protowire.BytesType {
			return nil
		}
		key, val, err := mapEntry(v)
		if err != nil {
			return err
		}
		switch num {
		case mspb.FieldParamStr:
			p.str[key] = string(val.bytes)
		case mspb.FieldParamStrList:
			var list []string
			err := eachField(val.bytes, func(n protowire.Number, t protowire.Type, s []byte) error {
				if n == mspb.FieldStrListValue && t == protowire.BytesType && len(list) <= maxListItems {
					list = append(list, string(s))
				}
				return nil
			})
			if err != nil {
				return err
			}
			p.lists[key] = list
		case mspb.FieldParamBool:
			p.other[key] = strconv.FormatBool(val.varint != 0)
		case mspb.FieldParamInt:
			p.other[key] = strconv.FormatInt(int64(int32(val.varint)), 10)
		case mspb.FieldParamDouble:
			p.other[key] = strconv.FormatFloat(math.Float64frombits(val.fixed), 'g', -1, 64)
		}
		return nil
	})
}

// attrs are the parameters as a node's attributes, but for op_type (the
// node's op) and op_module (where MindSpore's class lives).
func (p *params) attrs() []Attr {
	var out []Attr
	for k, v := range p.str {
		if k != "op_type" && k != "op_module" {
			out = append(out, Attr{Name: shorten(k), Value: shorten(v)})
		}
	}
	for k, v := range p.lists {
		s := strings.Join(v[:min(len(v), maxListItems)], ", ")
		if len(v) > maxListItems {
			s += ", …"
		}
		out = append(out, Attr{Name: shorten(k), Value: shorten("[" + s + "]")})
	}
	for k, v := range p.other {
		out = append(out, Attr{Name: shorten(k), Value: v})
	}
	return out
}

// fieldValue is a map entry's value: bytes, a varint or 64 fixed bits.
type fieldValue struct {
	bytes  []byte
	varint uint64
	fixed  uint64
}

// mapEntry reads a map entry message: key = 1 (a string), value = 2.
func mapEntry(b []byte) (string, fieldValue, error) {
	var key string
	var val fieldValue
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) error {
		switch {
		case num == 1 && typ == protowire.BytesType:
			key = string(v)
		case num == 2 && typ == protowire.BytesType:
			val.bytes = v
		case num == 2 && typ == protowire.VarintType:
			val.varint, _ = protowire.ConsumeVarint(v)
		case num == 2 && typ == protowire.Fixed64Type:
			val.fixed, _ = protowire.ConsumeFixed64(v)
		}
		return nil
	})
	return key, val, err
}

var errMalformed = errors.New("malformed field")

// eachField calls f with every field of the message b: its number, wire
// type and value (a bytes field's content, else the value's encoding).
func eachField(b []byte, f func(protowire.Number, protowire.Type, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errMalformed
		}
		b = b[n:]
		var v []byte
		if typ == protowire.BytesType {
			c, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return errMalformed
			}
			v, n = c, m
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return errMalformed
			}
			v = b[:n]
		}
		if err := f(num, typ, v); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}
