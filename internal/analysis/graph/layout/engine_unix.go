//go:build unix

package layout

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe checks that fi is the current user's.
func ownedByMe(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("owner unknown")
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w (uid %d)", errOwner, st.Uid)
	}
	return nil
}

// ownedByMeOrRoot checks that fi is the current user's or root's.
func ownedByMeOrRoot(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("owner unknown")
	}
	if st.Uid != 0 && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w (uid %d)", errOwner, st.Uid)
	}
	return nil
}
