//go:build !linux

// Command benchpeers measures trainreport against TensorBoard and tbparse;
// it reads /proc and uses Linux process control, so it runs on Linux only.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "benchpeers: Linux only (it reads /proc and uses PR_SET_CHILD_SUBREAPER)")
	os.Exit(1)
}
