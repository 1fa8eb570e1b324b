// Package testlog writes TensorBoard event files for tests, framed as
// TensorFlow's writers frame them (collect/tfrecord), so that every
// package's tests make their logs one way. It is imported by tests only.
package testlog

import (
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// FileVersion is the record every TensorFlow writer puts first.
func FileVersion() *eventpb.Event {
	return &eventpb.Event{WallTime: 1e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}
}

// Append appends the events to b as records and returns the result.
func Append(t testing.TB, b []byte, events ...*eventpb.Event) []byte {
	t.Helper()
	b, _ = AppendOffsets(t, b, events...)
	return b
}

// AppendOffsets is Append that also returns the offset in the result of
// each event's record, for tests that cut or damage one.
func AppendOffsets(t testing.TB, b []byte, events ...*eventpb.Event) ([]byte, []int64) {
	t.Helper()
	offsets := make([]int64, 0, len(events))
	for _, ev := range events {
		data, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		offsets = append(offsets, int64(len(b)))
		b = tfrecord.AppendRecord(b, data)
	}
	return b, offsets
}

// Write writes the events as an event file at path, making its folder.
func Write(t testing.TB, path string, events ...*eventpb.Event) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, Append(t, nil, events...), 0o644); err != nil {
		t.Fatal(err)
	}
}
