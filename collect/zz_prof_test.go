package collect

import (
	"context"
	"os"
	"testing"
)

func BenchmarkZZLogdir(b *testing.B) {
	dir := os.Getenv("ZZ_LOGDIR")
	if dir == "" {
		b.Skip()
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Collect(context.Background(), []Logdir{{Name: "bench", Path: dir}}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
