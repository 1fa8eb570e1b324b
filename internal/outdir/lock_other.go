//go:build !unix

package outdir

import "os"

// lock is a no-op where there is no flock: commits are two renames, so
// concurrent reports still each leave a whole report, the last winning.
func lock(string) (func(), error) { return func() {}, nil }

// tryLock reports that the lock is never free where there is no flock: no
// temporary folder is ever taken for a stale one and removed.
func tryLock(*os.File) (bool, error) { return false, nil }
