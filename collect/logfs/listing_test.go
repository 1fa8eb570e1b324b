package logfs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/gcerrors"
)

// pager is a bucket driver whose listings are what page says: the
// listing of prefix (delimited by "/" or not) continued from token (""
// for the first page) holds objs and goes on with next ("" for the last
// page). As S3's, GCS's and Azure's drivers do, it calls BeforeList
// before each request, and it counts the requests.
type pager struct {
	driver.Bucket // nil: what a listing does not use
	page          func(prefix, delim, token string, size int) (objs []*driver.ListObject, next string)
	requests      atomic.Int64
}

func (p *pager) ListPaged(ctx context.Context, opts *driver.ListOptions) (*driver.ListPage, error) {
	if opts.BeforeList != nil {
		if err := opts.BeforeList(func(any) bool { return false }); err != nil {
			return nil, err
		}
	}
	p.requests.Add(1)
	objs, next := p.page(opts.Prefix, opts.Delimiter, string(opts.PageToken), opts.PageSize)
	lp := &driver.ListPage{Objects: objs}
	if next != "" {
		lp.NextPageToken = []byte(next)
	}
	return lp, nil
}

func (p *pager) ErrorCode(error) gcerrors.ErrorCode { return gcerrors.Unknown }
func (p *pager) As(any) bool                        { return false }
func (p *pager) ErrorAs(error, any) bool            { return false }
func (p *pager) Close() error                       { return nil }

// openPager opens the log directory "p/" of a bucket served by page, with
// the listings' bounds given (0: the defaults).
func openPager(t *testing.T, maxKeys, spare int64, page func(prefix, delim, token string, size int) ([]*driver.ListObject, string)) (*Dir, *pager) {
	t.Helper()
	p := &pager{page: func(prefix, delim, token string, size int) ([]*driver.ListObject, string) {
		if delim == "" {
			// OpenURL's probe: one key.
			return []*driver.ListObject{{Key: "p/x", Size: 1}}, ""
		}
		return page(prefix, delim, token, size)
	}}
	d, err := openBucketDir(t.Context(), blob.NewBucket(p), "p/", "s3://b/p")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if maxKeys > 0 {
		d.bkt.maxKeys = maxKeys
	}
	if spare > 0 {
		d.bkt.sparePages = spare
	}
	p.requests.Store(0)
	return d, p
}

// files returns n objects below prefix, named from start on.
func files(prefix string, start, n int) []*driver.ListObject {
	objs := make([]*driver.ListObject, n)
	for i := range objs {
		objs[i] = &driver.ListObject{Key: fmt.Sprintf("%sf%09d", prefix, start+i), Size: 1}
	}
	return objs
}

// walkAll walks d and returns the error that ended it, the files walked
// and the directories refused.
func walkAll(d *Dir) (err error, walked, refused int) {
	err = d.Walk(func(string, int64) error { walked++; return nil }, func(string, error) { refused++ })
	return err, walked, refused
}

// TestBucketListingStopsPagesThatNeverEnd: a server that answers every
// page of a listing as truncated, with a new token, and a few keys a page
// or none, would be listed until killed. The listing stops after about
// sparePages requests past the first (more as its pages bring more of
// the 10 keys that pay for a request), with an error naming the log
// directory and the bound, and nothing of it is walked.
func TestBucketListingStopsPagesThatNeverEnd(t *testing.T) {
	for _, perPage := range []int{0, 1, 5} {
		t.Run(strconv.Itoa(perPage)+" keys a page", func(t *testing.T) {
			var n atomic.Int64
			d, p := openPager(t, 0, 0, func(prefix, _, _ string, _ int) ([]*driver.ListObject, string) {
				i := int(n.Add(1))
				return files(prefix, i*perPage, perPage), "token-" + strconv.Itoa(i)
			})
			err, walked, _ := walkAll(d)
			var bound *boundError
			if !errors.As(err, &bound) || !strings.Contains(err.Error(), "listing s3://b/p stopped") || !strings.Contains(err.Error(), "2000 more") {
				t.Fatalf("walk ended with %v, want the listing's bound", err)
			}
			// A request pays perPage/keysPerPage of its own; keys are
			// counted as a ListPage returns them, and gocloud's ListPage
			// asks up to 1,000 pages to fill its own.
			limit := int64((sparePages+listPage)*keysPerPage/(keysPerPage-perPage) + 1)
			if r := p.requests.Load(); r > limit || r < sparePages {
				t.Errorf("%d requests, want %d to %d", r, sparePages, limit)
			}
			if walked != 0 {
				t.Errorf("%d files walked of a listing that failed", walked)
			}
		})
	}
}

// TestBucketListingStopsAtMaxKeys: full pages of new keys, forever, stop
// at the bound on keys; so do many directories whose keys together pass
// it, and the bound ends the walk of the log directory rather than being
// one warning per directory.
func TestBucketListingStopsAtMaxKeys(t *testing.T) {
	const maxKeys = 10_000
	t.Run("one directory", func(t *testing.T) {
		var n atomic.Int64
		d, p := openPager(t, maxKeys, 0, func(prefix, _, _ string, size int) ([]*driver.ListObject, string) {
			i := int(n.Add(1))
			return files(prefix, i*size, size), "token-" + strconv.Itoa(i)
		})
		err, _, _ := walkAll(d)
		if err == nil || !strings.Contains(err.Error(), "listing s3://b/p stopped: more than 10000 keys") {
			t.Fatalf("walk ended with %v", err)
		}
		if r := p.requests.Load(); r != maxKeys/listPage+1 {
			t.Errorf("%d requests, want %d", r, maxKeys/listPage+1)
		}
	})
	t.Run("many directories", func(t *testing.T) {
		d, p := openPager(t, maxKeys, 0, func(prefix, _, _ string, _ int) ([]*driver.ListObject, string) {
			if prefix == "p/" {
				dirs := make([]*driver.ListObject, 100)
				for i := range dirs {
					dirs[i] = &driver.ListObject{Key: fmt.Sprintf("p/run%03d/", i), IsDir: true}
				}
				return dirs, ""
			}
			return files(prefix, 0, 200), ""
		})
		err, _, refused := walkAll(d)
		if err == nil || !strings.Contains(err.Error(), "stopped: more than 10000 keys") {
			t.Fatalf("walk ended with %v", err)
		}
		if refused != 0 {
			t.Errorf("%d directories refused one by one: the bound ends the walk", refused)
		}
		// The listings stop at their next request: 1 for the top, at
		// most one for each directory.
		if r := p.requests.Load(); r > 101 {
			t.Errorf("%d requests", r)
		}
	})
}

// TestBucketListingRefusesARepeatedToken: a server that gives the token
// it was given is caught when the token comes back, not by the bound on
// pages: two requests.
func TestBucketListingRefusesARepeatedToken(t *testing.T) {
	d, p := openPager(t, 0, 0, func(prefix, _, _ string, size int) ([]*driver.ListObject, string) {
		return files(prefix, 0, size), "again"
	})
	err, _, _ := walkAll(d)
	if err == nil || !strings.Contains(err.Error(), "same continuation token twice") {
		t.Fatalf("walk ended with %v", err)
	}
	if r := p.requests.Load(); r != 2 {
		t.Errorf("%d requests, want 2", r)
	}
}

// TestBucketListingBoundsLeaveRealListingsAlone: listings as servers
// answer them (full pages of 1,000; GCS's or Azure's sparse pages of 10
// keys, 32 directories listed 16 at a time; an empty page now and then)
// are walked whole, whatever order gocloud's pages come in.
func TestBucketListingBoundsLeaveRealListingsAlone(t *testing.T) {
	for _, c := range []struct {
		name          string
		dirs, perDir  int
		perPage, gaps int // keys a page; an empty truncated page after every gaps pages (0: none)
	}{
		{"full pages", 3, 2500, 1000, 0},
		{"sparse pages", 32, 1000, 10, 0},
		{"empty pages", 4, 3000, 1000, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, _ := openPager(t, 0, 0, func(prefix, _, token string, size int) ([]*driver.ListObject, string) {
				if prefix == "p/" {
					dirs := make([]*driver.ListObject, c.dirs)
					for i := range dirs {
						dirs[i] = &driver.ListObject{Key: fmt.Sprintf("p/run%03d/", i), IsDir: true}
					}
					return dirs, ""
				}
				// token: "<next key>" or "<next key>/empty" once the
				// gap was served.
				start := 0
				if token != "" {
					k, empty, _ := strings.Cut(token, "/")
					start, _ = strconv.Atoi(k)
					if c.gaps > 0 && empty == "" {
						return nil, k + "/empty"
					}
				}
				n := min(c.perPage, size, c.perDir-start)
				if start+n == c.perDir {
					return files(prefix, start, n), ""
				}
				return files(prefix, start, n), strconv.Itoa(start + n)
			})
			err, walked, refused := walkAll(d)
			if err != nil || refused != 0 || walked != c.dirs*c.perDir {
				t.Errorf("walk: %v, %d files walked of %d, %d refused", err, walked, c.dirs*c.perDir, refused)
			}
		})
	}
}

// TestListOptionsBoundAListing: the options logfs gives another package's
// listing (a part's output prefix) stop a server that pages forever too.
func TestListOptionsBoundAListing(t *testing.T) {
	p := &pager{page: func(prefix, _, token string, _ int) ([]*driver.ListObject, string) {
		return nil, token + "x"
	}}
	b := blob.NewBucket(p)
	defer b.Close()
	_, _, err := b.ListPage(t.Context(), blob.FirstPageToken, 1000, ListOptions("parts/", ""))
	if err == nil || !strings.Contains(err.Error(), "listing stopped") {
		t.Fatalf("ListPage: %v", err)
	}
	if r := p.requests.Load(); r > sparePages+1 {
		t.Errorf("%d requests", r)
	}
}

// TestBucketListingRefusesTwins: two keys a driver lists under one name
// (gocloud shows "__0x41__" as "A", and a server may list a key twice)
// are one warning, and neither is read; the rest is.
func TestBucketListingRefusesTwins(t *testing.T) {
	d, _ := openPager(t, 0, 0, func(prefix, _, _ string, _ int) ([]*driver.ListObject, string) {
		return []*driver.ListObject{{Key: prefix + "A", Size: 1}, {Key: prefix + "A", Size: 2}, {Key: prefix + "A", Size: 3}, {Key: prefix + "B", Size: 1}}, ""
	})
	var walked, refused []string
	err := d.Walk(func(name string, _ int64) error { walked = append(walked, name); return nil },
		func(name string, err error) { refused = append(refused, name+": "+err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(walked, ",") != "B" || len(refused) != 1 || !strings.HasPrefix(refused[0], `A: 3 keys are listed as "A"`) {
		t.Errorf("walked %q, refused %q", walked, refused)
	}
}
