package logfs

import (
	"crypto/sha256"
	"fmt"
	"sync/atomic"

	"gocloud.dev/blob"
)

const (
	// MaxListKeys bounds the keys (objects and directories) the listing
	// of one log directory takes: past it the listing stops with an
	// error, where a server that pages forever would have it go on until
	// killed, every entry held in memory.
	MaxListKeys = 1_000_000
	// keysPerPage and sparePages bound the requests of a listing. The
	// first request for each directory is paid for by the directory, a
	// key counted; every further one (a continuation, including those
	// gocloud makes inside one ListPage to fill its page) must be paid
	// for by keysPerPage keys received, with sparePages to spare for
	// servers that page sparsely (GCS and Azure may answer few keys, or
	// none, with a next page) and for the keys of pages not yet counted
	// (16 listings at once, each up to 99 requests into a ListPage of
	// pages of 10 keys). A full S3 page is 1,000 keys; a server answering
	// a key a page, or none, forever is stopped after about sparePages
	// requests.
	keysPerPage = 10
	sparePages  = 2000
)

// listBudget is what the listings of one log directory may take, shared
// by the listings of its directories, which run concurrently.
type listBudget struct {
	display string // the log directory's URL without query, for messages

	maxKeys, sparePages int64

	keys, more atomic.Int64 // keys received; requests after a first one
	stopped    atomic.Pointer[boundError]
}

// boundError is a listing stopped by a bound: it ends the walk of the
// whole log directory, where another error of a directory's listing is a
// warning for that directory.
type boundError struct{ msg string }

func (e *boundError) Error() string { return e.msg }

// stop records that a listing passed a bound (why), at dir, and returns
// the error that ends the walk: the first one recorded, which every
// listing still going returns before its next request.
func (lb *listBudget) stop(why, dir string) error {
	at := lb.display // a directory listed is a plain name (entry)
	if dir != "." && dir != "" {
		at += "/" + dir
	}
	if at != "" {
		at += " "
	}
	lb.stopped.CompareAndSwap(nil, &boundError{fmt.Sprintf("listing %sstopped: %s (the bound of a log directory's listing, docs/READING.md)", at, why)})
	return lb.stopped.Load()
}

// addKeys counts the n keys a page of dir's listing received.
func (lb *listBudget) addKeys(n int, dir string) error {
	if lb.keys.Add(int64(n)) > lb.maxKeys {
		return lb.stop(fmt.Sprintf("more than %d keys", lb.maxKeys), dir)
	}
	return nil
}

// lister is the listing of one directory (or one probe), a page after
// another in one goroutine: the requests it made and the continuation
// tokens it was given.
type lister struct {
	budget   *listBudget
	dir      string
	requests int
	seen     map[[sha256.Size]byte]bool // by hash: a token's length is the server's
	shown    bool                       // the driver shows each request's token (S3)
}

func (lb *listBudget) lister(dir string) *lister {
	return &lister{budget: lb, dir: dir, seen: map[[sha256.Size]byte]bool{}}
}

// options returns the options of a listing of the keys below prefix, with
// delimiter delim: each request it makes goes through beforeRequest.
func (l *lister) options(prefix, delim string) *blob.ListOptions {
	return &blob.ListOptions{Prefix: prefix, Delimiter: delim, BeforeList: l.beforeRequest}
}

// beforeRequest runs before every request of the listing (gocloud's
// BeforeList, called by each driver for each request): it prepares the
// driver's request (beforeList) and refuses it past a bound.
func (l *lister) beforeRequest(as func(any) bool) error {
	lb := l.budget
	if e := lb.stopped.Load(); e != nil {
		return e
	}
	l.requests++
	token, shown, err := beforeList(as)
	if err != nil {
		return err
	}
	if shown {
		l.shown = true
		switch {
		case token != "":
			if err := l.checkToken([]byte(token)); err != nil {
				return err
			}
		case l.requests > 1:
			// gocloud asks for the first page again when the server's
			// token is its own name for the first page.
			return lb.stop("the server's continuation token named the first page, which would list the same pages forever", l.dir)
		}
	}
	if l.requests == 1 {
		return nil // a directory's first request: the directory is a key counted
	}
	if n, keys := lb.more.Add(1), lb.keys.Load(); n > lb.sparePages+keys/keysPerPage {
		return lb.stop(fmt.Sprintf("%d requests past the directories' first ones for %d keys, where one per %d keys and %d more are allowed",
			n, keys, keysPerPage, lb.sparePages), l.dir)
	}
	return nil
}

// nextPage checks the token a ListPage returned, for a driver that does
// not show each request's (beforeRequest checks those).
func (l *lister) nextPage(token []byte) error {
	if l.shown || len(token) == 0 {
		return nil
	}
	return l.checkToken(token)
}

// checkToken refuses a continuation token this listing was given before:
// a server giving one twice would have it list the same pages forever.
func (l *lister) checkToken(token []byte) error {
	h := sha256.Sum256(token)
	if l.seen[h] {
		return l.budget.stop("the server gave the same continuation token twice, which would list the same pages forever", l.dir)
	}
	l.seen[h] = true
	return nil
}

// ListOptions returns the options of a listing of the keys below prefix,
// with delimiter delim ("" for none), by the rules of a log directory's:
// with the S3 driver, the keys come URL-encoded (encoding-type=url) and
// are decoded before gocloud sees them, so that a key holding a character
// XML 1.0 cannot carry (a control character) is listed, to be refused as
// one key, instead of making the response unreadable; and the listing's
// requests are bounded as a log directory's are (MaxListKeys, one
// continuation per 10 keys received and 2,000 more, no continuation token
// twice), with an error past the bound. The options are for one listing,
// of pages asked for one after another.
func ListOptions(prefix, delim string) *blob.ListOptions {
	lb := &listBudget{maxKeys: MaxListKeys, sparePages: sparePages}
	return lb.lister("").options(prefix, delim)
}
