package render

import (
	"errors"
	"strconv"
	"testing"
)

func TestInOrder(t *testing.T) {
	var got []string
	err := inOrder(100, func(i int) []byte { return []byte(strconv.Itoa(i)) }, func(i int, b []byte) error {
		if string(b) != strconv.Itoa(i) || i != len(got) {
			t.Fatalf("result %q at %d after %d", b, i, len(got))
		}
		got = append(got, string(b))
		return nil
	})
	if err != nil || len(got) != 100 {
		t.Fatalf("%d results, %v", len(got), err)
	}
	stop := errors.New("stop")
	n := 0
	if err := inOrder(1000, func(i int) []byte { return nil }, func(i int, b []byte) error {
		n++
		if i == 10 {
			return stop
		}
		return nil
	}); err != stop || n != 11 {
		t.Errorf("error not returned at once: %v after %d", err, n)
	}
	if err := inOrder[[]byte](0, nil, nil); err != nil {
		t.Error(err)
	}
}
