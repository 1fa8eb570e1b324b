package render

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// slug turns an untrusted name (a run or a tag) into one path element that
// is safe on every file system and can never leave the output directory:
// only letters, digits, '.', '_' and '-', never starting with '.', at most
// 48 characters of the name, and a hash of the whole name so that distinct
// names never share a file.
func slug(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0 && !strings.HasSuffix(b.String(), "."):
			b.WriteRune(r)
		default:
			if s := b.String(); !strings.HasSuffix(s, "_") {
				b.WriteByte('_')
			}
		}
		if b.Len() >= 48 {
			break
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s-%08x", strings.Trim(b.String(), "_."), h.Sum32())
}
