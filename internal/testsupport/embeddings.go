package testsupport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TinyEmbeddings writes, in a new folder it returns, a projector config
// naming one tensor file of 50 points of 9 values count times: many tiny
// embeddings, whose layouts each cost iterations however few their points
// (2,000 of them, 121 KB, once took 259 s).
func TinyEmbeddings(t testing.TB, count int) string {
	t.Helper()
	dir := t.TempDir()
	var config, tsv strings.Builder
	for i := range count {
		fmt.Fprintf(&config, "embeddings { tensor_name: \"e%d\" tensor_path: \"t.tsv\" }\n", i)
	}
	for i := range 50 {
		for j := range 8 {
			fmt.Fprintf(&tsv, "%d\t", (i*31+j*17)%23)
		}
		tsv.WriteString("1\n")
	}
	for name, text := range map[string]string{"projector_config.pbtxt": config.String(), "t.tsv": tsv.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
