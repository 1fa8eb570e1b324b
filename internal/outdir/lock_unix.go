//go:build unix

package outdir

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on the folder dir, waiting for another
// trainreport that holds it, and returns its release. The lock goes with
// the process, so one killed mid-way leaves nothing to clean up.
func lock(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// tryLock takes an exclusive lock on the open file or folder f without
// waiting, and reports whether it got it; the lock is released when f is
// closed or the process ends, however it ends.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EWOULDBLOCK:
			return false, nil
		case syscall.EINTR:
			continue
		}
		return false, err
	}
}
