package render

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/cputime"
)

// indentCases are JSON documents whose indenting has a corner: empty
// containers, escapes (a quote after backslashes, a backslash before the
// closing quote), punctuation inside strings, nesting, bare values.
var indentCases = []string{
	`{}`, `[]`, `{"a":{}}`, `[[],[[]],{}]`, `{"a":[1,2,{"b":null}],"c":"d"}`,
	`"a"`, `1.5e-7`, `true`, `null`, `[-0,1E+2,"x"]`,
	`{"q\"uote":"\\","b\\\"":"\\\\","c":"{[,:]}"}`, `["\u2028<>&","\\\"\\"]`,
	`{"a":{"b":{"c":{"d":[[[1]]]}}}}`, `{"":""}`, `["a\\\\\"b"]`,
}

// TestIndentJSONIsJSONIndent checks appendIndentJSON against json.Indent
// on the corner cases and on documents json.Marshal writes of random
// values, with the report's indent and another prefix and indent.
func TestIndentJSONIsJSONIndent(t *testing.T) {
	docs := append([]string(nil), indentCases...)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b, err := json.Marshal(randomJSONValue(rng, 4))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	for _, doc := range docs {
		for _, pi := range [][2]string{{"", " "}, {"> ", "\t"}} {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(doc), pi[0], pi[1]); err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			if got := appendIndentJSON([]byte("x"), []byte(doc), pi[0], pi[1]); string(got[1:]) != want.String() || got[0] != 'x' {
				t.Errorf("%s indented with %q, %q:\n%s\nwant\n%s", doc, pi[0], pi[1], got, want.Bytes())
			}
		}
	}
}

// randomJSONValue is a value of objects, arrays, strings with escapes,
// numbers and literals, depth levels deep at most.
func randomJSONValue(rng *rand.Rand, depth int) any {
	k := rng.IntN(7)
	if depth == 0 {
		k = 3 + rng.IntN(4)
	}
	switch k {
	case 0, 1:
		m := map[string]any{}
		for range rng.IntN(4) {
			m[randomJSONString(rng)] = randomJSONValue(rng, depth-1)
		}
		return m
	case 2:
		a := make([]any, rng.IntN(4))
		for i := range a {
			a[i] = randomJSONValue(rng, depth-1)
		}
		return a
	case 3:
		return randomJSONString(rng)
	case 4:
		return rng.NormFloat64() * 1e6
	case 5:
		return rng.IntN(2) == 0
	}
	return nil
}

func randomJSONString(rng *rand.Rand) string {
	const alphabet = `ab"\{}[],: <>&` + "\n\u2028é"
	var b strings.Builder
	for range rng.IntN(8) {
		r := []rune(alphabet)
		b.WriteRune(r[rng.IntN(len(r))])
	}
	return b.String()
}

// FuzzIndentJSON checks appendIndentJSON against json.Indent on any valid
// JSON, compacted first as json.Marshal writes it.
func FuzzIndentJSON(f *testing.F) {
	for _, c := range indentCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		var compact, want bytes.Buffer
		if err := json.Compact(&compact, doc); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&want, compact.Bytes(), "", " "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndentJSON(nil, compact.Bytes(), "", " "); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%q indented:\n%s\nwant\n%s", compact.Bytes(), got, want.Bytes())
		}
	})
}

// BenchmarkIndentJSON indents a document of the shape of a sweep's
// summary.json (2,000 runs of names, numbers and nested objects), by
// json.Indent and by appendIndentJSON.
func BenchmarkIndentJSON(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	runs := make([]any, 2_000)
	for i := range runs {
		runs[i] = map[string]any{"name": "trial" + strings.Repeat("0", i%5), "path": "/logs/sweep/trial/events.out.tfevents",
			"first_step": 0, "last_step": 999, "metrics": map[string]any{"loss": map[string]any{"last": rng.Float64(), "min": rng.Float64(), "max": rng.Float64()}},
			"files": []any{map[string]any{"path": "events.out.tfevents.1700000000.synth", "bytes": 165_000, "records": 5_001}}}
	}
	src, err := json.Marshal(map[string]any{"runs": runs})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("json.Indent", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		var dst bytes.Buffer
		defer cputime.ReportPerOp(b, cputime.Used())
		for range b.N {
			dst.Reset()
			json.Indent(&dst, src, "", " ")
		}
	})
	b.Run("appendIndentJSON", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		var dst []byte
		defer cputime.ReportPerOp(b, cputime.Used())
		for range b.N {
			dst = appendIndentJSON(dst[:0], src, "", " ")
		}
	})
}
