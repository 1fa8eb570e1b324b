package memlimit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// units of sizes, longest suffix first within each base: KiB, MiB...
// are powers of 1024 (as GOMEMLIMIT's), KB, MB... powers of 1000, and a
// bare K, M, G, T is read as the binary unit, as ulimit and docker do.
var units = []struct {
	suffix string
	mult   float64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"k", 1 << 10},
	{"B", 1},
}

// ParseSize parses a size in bytes: a number, with or without a unit
// (4GiB, 1.5G, 500MB, 1048576).
func ParseSize(s string) (uint64, error) {
	num, mult := strings.TrimSpace(s), 1.0
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) || f*mult >= 1<<63 {
		return 0, fmt.Errorf("%q: want a size such as 4GiB, 500MB or a number of bytes", s)
	}
	return uint64(f * mult), nil
}

// FormatSize formats n bytes in the largest binary unit that keeps a
// digit before the point: 1.5 GiB, 512.0 MiB, 900 B.
func FormatSize(n uint64) string {
	const prefixes = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/1024, 0
	for f >= 1024 && i < len(prefixes)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, prefixes[i])
}
