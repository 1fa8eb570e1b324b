package visdom

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// bigEnv returns a saved environment of the shape a long training leaves:
// line windows of many points (floats as Python writes them), a heat map
// and bar names, about 40 MB in all.
func bigEnv(nanEvery int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	num := func(i int) string {
		if nanEvery > 0 && i%nanEvery == nanEvery-1 {
			return "NaN"
		}
		return strconv.FormatFloat(rng.Float64(), 'g', -1, 64)
	}
	sb.WriteString(`{"jsons": {`)
	for w := range 8 {
		fmt.Fprintf(&sb, `"line%d": {"id": "line%d", "title": "loss %d", "type": "plot", "i": %d, "content": {"data": [`, w, w, w, w)
		for tr := range 2 {
			if tr > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(`{"type": "scatter", "mode": "lines", "name": "` + strconv.Itoa(tr) + `", "x": [`)
			for i := range 100_000 {
				if i > 0 {
					sb.WriteString(", ")
				}
				sb.WriteString(strconv.Itoa(i))
			}
			sb.WriteString(`], "y": [`)
			for i := range 100_000 {
				if i > 0 {
					sb.WriteString(", ")
				}
				sb.WriteString(num(i))
			}
			sb.WriteString(`]}`)
		}
		sb.WriteString(`], "layout": {"xaxis": {"title": "step"}}}}, `)
	}
	sb.WriteString(`"heat": {"id": "heat", "title": "heat", "type": "plot", "i": 9, "content": {"data": [{"type": "heatmap", "z": [`)
	for r := range 500 {
		if r > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("[")
		for c := range 500 {
			if c > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(num(r*500 + c))
		}
		sb.WriteString("]")
	}
	sb.WriteString(`]}], "layout": {}}}, "bar": {"id": "bar", "title": "bar", "type": "plot", "i": 10, "content": {"data": [{"type": "bar", "x": [`)
	for i := range 10_000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `"class %d"`, i)
	}
	sb.WriteString(`], "y": [`)
	for i := range 10_000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(i))
	}
	sb.WriteString(`]}], "layout": {}}}}, "reload": {}}`)
	return []byte(sb.String())
}

// BenchmarkReadEnv reads a big saved environment of plain JSON.
func BenchmarkReadEnv(b *testing.B) {
	data := bigEnv(0)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		res := ReadEnv(data, "main")
		if len(res.Problems) > 0 || len(res.Envs[0].Windows) != 10 {
			b.Fatalf("problems %v, %d windows", res.Problems, len(res.Envs[0].Windows))
		}
	}
}

// BenchmarkReadEnvNaN reads the same environment as Python's json writes
// it with a NaN in every thousand numbers: encoding/json refuses it, and
// it is read again with the NaNs replaced (tolerate).
func BenchmarkReadEnvNaN(b *testing.B) {
	data := bigEnv(1000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		res := ReadEnv(data, "main")
		if len(res.Problems) > 0 || len(res.Envs[0].Windows) != 10 {
			b.Fatalf("problems %v, %d windows", res.Problems, len(res.Envs[0].Windows))
		}
	}
}
