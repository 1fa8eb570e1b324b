package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/trainreport/trainreport/internal/memlimit"
)

// maxMemory is --max-memory: a budget in bytes, or, unset, the machine's
// default (memlimit.Default).
type maxMemory struct {
	set   bool
	bytes uint64
}

func (m *maxMemory) String() string {
	if m == nil || !m.set {
		return "auto"
	}
	return memlimit.FormatSize(m.bytes)
}

func (m *maxMemory) Set(s string) error {
	n, err := memlimit.ParseSize(s)
	if err != nil {
		return err
	}
	m.set, m.bytes = true, n
	return nil
}

// memoryFlag defines --max-memory on fs.
func memoryFlag(fs *flag.FlagSet, m *maxMemory) {
	fs.Var(m, "max-memory", "stop with exit status 1 and a message when the process's memory passes `SIZE` (4GiB, 500MB, bytes; 0: no budget); "+
		"auto: the least of 3/4 of the cgroup's memory limit, 3/4 of the memory available and 1/2 of the address space ulimit -v leaves")
}

// limit is the budget in bytes and what it comes from: 0 for none.
func (m maxMemory) limit() (uint64, string) {
	if m.set {
		return m.bytes, "that of --max-memory"
	}
	n, from := memlimit.Default()
	return n, "the default, " + from
}

// guardMemory runs a command within the budget m. It returns the
// command's context, cancelled when the budget is passed; stop, to call
// when the command returns; and failed, which says whether the error the
// command returned comes of the budget, with the message to print (exit
// status 1). A command that does not return within memlimit.DefaultGrace
// of the cancel is ended with that message and status. prog begins the
// message ("trainreport", "trainreport collect").
func guardMemory(ctx context.Context, m maxMemory, prog string, stderr io.Writer) (_ context.Context, stop func(), failed func(error) (string, bool)) {
	limit, from := m.limit()
	message := func(e *memlimit.ExceededError) string {
		return fmt.Sprintf("%s: %v; the budget is %s: raise it with --max-memory SIZE (0: none), or give fewer logs", prog, e, from)
	}
	ctx, stop = memlimit.Start(ctx, memlimit.Options{Limit: limit, Hard: func(e *memlimit.ExceededError) {
		fmt.Fprintln(stderr, message(e))
		os.Exit(exitFailed)
	}})
	return ctx, stop, func(err error) (string, bool) {
		e := memlimit.Exceeded(ctx)
		if e == nil || err == nil {
			return "", false
		}
		return message(e), true
	}
}
