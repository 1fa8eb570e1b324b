package graph

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/model"
)

// Field numbers of TensorFlow's step_stats.proto that the report reads.
const (
	stepStatsDevStats       = 1 // StepStats.dev_stats
	deviceStepStatsDevice   = 1 // DeviceStepStats.device
	deviceStepStatsNodes    = 2 // DeviceStepStats.node_stats
	nodeExecName            = 1 // NodeExecStats.node_name
	nodeExecAllEndRelMicros = 5 // NodeExecStats.all_end_rel_micros
	nodeExecMemory          = 6 // NodeExecStats.memory
	allocatorTotalBytes     = 2 // AllocatorMemoryUsed.total_bytes
)

// DecodeStepStats reads a serialized StepStats (RunMetadata.step_stats):
// per node name, its compute time and allocated memory summed over the
// devices and executions that list it, as TensorBoard's graph dashboard
// sums them. It walks the wire format itself (four small messages, two
// fields each), so the report declares no proto for them.
func DecodeStepStats(b []byte) ([]model.NodeStats, error) {
	var out []model.NodeStats
	at := map[string]int{}
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num != stepStatsDevStats || typ != protowire.BytesType {
			return nil
		}
		var device string
		var nodes [][]byte
		if err := fields(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
			switch {
			case num == deviceStepStatsDevice && typ == protowire.BytesType:
				device = string(v)
			case num == deviceStepStatsNodes && typ == protowire.BytesType:
				nodes = append(nodes, v)
			}
			return nil
		}); err != nil {
			return fmt.Errorf("DeviceStepStats: %w", err)
		}
		for _, nb := range nodes {
			var s model.NodeStats
			if err := fields(nb, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
				switch {
				case num == nodeExecName && typ == protowire.BytesType:
					s.Node = string(v)
				case num == nodeExecAllEndRelMicros && typ == protowire.VarintType:
					s.Micros = int64(x)
				case num == nodeExecMemory && typ == protowire.BytesType:
					return fields(v, func(num protowire.Number, typ protowire.Type, _ []byte, x uint64) error {
						if num == allocatorTotalBytes && typ == protowire.VarintType {
							s.Bytes += int64(x)
						}
						return nil
					})
				}
				return nil
			}); err != nil {
				return fmt.Errorf("NodeExecStats: %w", err)
			}
			if s.Node == "" {
				continue
			}
			if i, ok := at[s.Node]; ok {
				out[i].Micros += s.Micros
				out[i].Bytes += s.Bytes
				continue
			}
			s.Device = device
			at[s.Node] = len(out)
			out = append(out, s)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("step stats: %w", err)
	}
	return out, nil
}

// fields calls fn with each field of the message b: its number, wire
// type, bytes (length-delimited fields) and value (varints and fixed
// ones). Groups are skipped whole.
func fields(b []byte, fn func(protowire.Number, protowire.Type, []byte, uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var u uint32
			u, n = protowire.ConsumeFixed32(b)
			x = uint64(u)
		case protowire.Fixed64Type:
			x, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}
