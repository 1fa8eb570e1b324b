package model

import (
	"io/fs"
	"math"
	"strings"
	"testing"
)

// linkSource is memSource with a symbolic link among its files, as a
// log directory's Stat describes one.
type linkSource struct {
	memSource
	link string
}

func (l linkSource) Stat(name string) (fs.FileInfo, error) {
	if name == l.link {
		return linkInfo{memInfo{name, 1 << 20}}, nil
	}
	return l.memSource.Stat(name)
}

type linkInfo struct{ memInfo }

func (linkInfo) Mode() fs.FileMode { return fs.ModeSymlink | 0o777 }

// TestCheckPayloadsRefusesWhatIsNotInAFile: references past the end of
// their file (by an offset and length whose sum overflows too), to a
// missing file, to a link, or without a source are each reported, naming
// the reference; a model whose references all lie in regular files
// passes, each file described once.
func TestCheckPayloadsRefusesWhatIsNotInAFile(t *testing.T) {
	src := memSource{"run/events": []byte("0123456789")}
	if err := sample(src).CheckPayloads(); err != nil {
		t.Fatalf("CheckPayloads of a model whose payloads are in their file: %v", err)
	}
	for _, c := range []struct {
		name  string
		src   Source
		spoil func(b *BlobRef)
		want  string
	}{
		{"past the end", src, func(b *BlobRef) { b.Offset, b.Length = 8, 3 }, "payload logs:run/events@8+3: run/events ends at byte 10, before its bytes do"},
		{"offset and length overflowing", src, func(b *BlobRef) { b.Offset, b.Length = 2, math.MaxInt64 }, "payload logs:run/events@2+9223372036854775807: run/events ends at byte 10"},
		{"missing file", src, func(b *BlobRef) { b.Path = "run/gone" }, "payload logs:run/gone@2+3: file does not exist"},
		{"a link", linkSource{src, "run/link"}, func(b *BlobRef) { b.Path = "run/link" }, "payload logs:run/link@2+3: run/link: not a regular file"},
		{"no source", nil, func(*BlobRef) {}, "no log directory to read it from"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := sample(c.src)
			c.spoil(&r.Runs[0].Images[0].Entries[0].Images[0].Data)
			err := r.CheckPayloads()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckPayloads: %v, want a problem saying %q", err, c.want)
			}
			if c.src != nil && strings.Count(err.Error(), "payload") != 1 {
				t.Errorf("CheckPayloads: %v, want the one spoilt reference alone", err)
			}
		})
	}
	// A file's problem is named once, with its first reference.
	r := sample(linkSource{src, "run/link"})
	r.Runs[0].Images[0].Entries[0].Images[0].Data.Path = "run/link"
	r.Runs[0].Graphs[0].Data.Path = "run/link"
	if err := r.CheckPayloads(); err == nil || strings.Count(err.Error(), "run/link") != 2 {
		t.Errorf("CheckPayloads of two references to one link: %v, want it named once", err)
	}
	// BlobRef.Check compares without overflowing too.
	b := NewBlobRef(src, "logs", "run/events", 2, math.MaxInt64)
	if err := b.Check(); err == nil {
		t.Errorf("Check of %d bytes at offset 2 of a file of 10 passed", int64(math.MaxInt64))
	}
}
