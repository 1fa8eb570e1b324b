//go:build unix

package outdir

import "syscall"

// writable returns an error when this process may not create files in the
// folder dir: access(2)'s answer, which a read-only file system gives
// root too. (POSIX fixes W_OK and X_OK at 2 and 1 on every Unix.)
func writable(dir string) error {
	const wOK, xOK = 2, 1
	return syscall.Access(dir, wOK|xOK)
}
