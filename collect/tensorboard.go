package collect

import (
	"path"
	"strings"

	"github.com/trainreport/trainreport/collect/discover"
)

// The kinds of TensorBoard's event files (docs/FORMATS.md section 1), the
// names of TS-VIS and OneFlow included: the same framing and Event
// message.
const (
	// KindEvents is an event file to read (cmd/benchpeers reads these).
	KindEvents discover.Kind = "events"
	// kindEmpty is a zero-byte event file: a run file nothing was written
	// to.
	kindEmpty discover.Kind = "empty"
	// kindProfileEmpty is the marker a profiler run leaves; it holds no
	// summaries.
	kindProfileEmpty discover.Kind = "profile-empty"
)

// tensorBoardFile takes an event file (by isEventFile, or any file given
// alone) into its run (runDir) when also holds: TensorBoard's three rules
// differ in also alone.
func tensorBoardFile(c discover.Candidate, also bool) (run string, ok bool) {
	if !also || !c.Alone && !isEventFile(c.Dir, c.Name) {
		return "", false
	}
	return runDir(c.Dir, c.Name), true
}

// isEventFile reports whether a file's base name marks it as an event file:
// TensorBoard's "tfevents" infix, the TS-VIS names ("events.out.<time>.<host>",
// with "hparams." or "projector." in front), or a OneFlow "event.<sec>.log"
// inside an "event" directory.
func isEventFile(dir, name string) bool {
	switch {
	case strings.Contains(name, "tfevents"):
		return true
	case strings.HasPrefix(name, "events.out."), strings.Contains(name, ".events.out."):
		return !strings.Contains(name, ".summary.") // MindSpore streams are another format
	case path.Base(dir) == "event" && strings.HasPrefix(name, "event.") && strings.HasSuffix(name, ".log"):
		return true
	}
	return false
}

// runDir returns the run directory of an event file in dir: OneFlow keeps
// its later files in "<run>/event/".
func runDir(dir, name string) string {
	if path.Base(dir) == "event" && strings.HasPrefix(name, "event.") {
		return path.Dir(dir)
	}
	return dir
}
