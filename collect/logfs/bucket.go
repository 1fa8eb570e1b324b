package logfs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// MaxRequests is how many requests a log directory in a bucket has in
// flight at most: listings, attribute reads and range reads together. It
// is the parallelism that hides a request's latency (tens of
// milliseconds to a cloud) without opening a connection per file.
const MaxRequests = 16

const (
	// listPage is the size of a page of a listing: S3's largest.
	listPage = 1000
	// readChunk is the most one range request of a sequential read (an
	// event file read from its start) asks for, so that a big file is
	// read by bounded requests, each of which can be retried or cancelled.
	readChunk = 8 << 20
)

// schemes maps the schemes a log directory URL may have to gocloud's, and
// the build tag that compiles each one's driver in.
var schemes = map[string]struct{ gocloud, tag string }{
	"s3":     {"s3", "s3"},
	"gs":     {"gs", "gcs"},
	"az":     {"azblob", "azure"},
	"azblob": {"azblob", "azure"},
}

// secretParams are words of URL query parameters that would carry a
// credential: refused, since credentials come only from each cloud's
// environment, and a URL is echoed in messages and scripts.
// (web_identity_token_file, a path, is not one).
var secretParams = []string{"secret", "password", "passwd", "session_token", "access_key", "accesskey", "sig", "credential", "sas_", "sastoken"}

// IsURL reports whether p names a log directory in a bucket (s3://, gs://,
// az://) rather than a path.
func IsURL(p string) bool {
	scheme, _, ok := strings.Cut(p, "://")
	_, known := schemes[strings.ToLower(scheme)]
	return ok && known
}

// Redact returns the bucket URL p without its query (driver options such
// as an endpoint) and without user information: the form every output and
// message names it by. A path is returned as it is.
func Redact(p string) string {
	if !IsURL(p) {
		return p
	}
	u, err := parseURL(p)
	if err != nil {
		scheme, _, _ := strings.Cut(p, "://")
		return strings.ToLower(scheme) + "://?"
	}
	return u.display
}

// bucketURL is a log directory URL taken apart.
type bucketURL struct {
	scheme  string // ours: s3, gs, az
	open    string // what gocloud opens: its scheme, the bucket and the query
	prefix  string // the keys' prefix, "" or ending in "/"
	display string // scheme://bucket/prefix, nothing else
}

func parseURL(p string) (bucketURL, error) {
	scheme, rest, _ := strings.Cut(p, "://")
	scheme = strings.ToLower(scheme)
	if scheme == "azblob" {
		scheme = "az"
	}
	s, ok := schemes[scheme]
	if !ok {
		return bucketURL{}, fmt.Errorf("not a bucket URL: the scheme is not s3, gs or az")
	}
	rest, query, _ := strings.Cut(rest, "?")
	if i := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); i >= 0 {
		return bucketURL{}, errors.New("the URL holds user information: credentials are read only from the environment (see docs/USAGE.md)")
	}
	bkt, prefix, _ := strings.Cut(rest, "/")
	if bkt == "" {
		return bucketURL{}, errors.New("the URL names no bucket")
	}
	if !bucketName(bkt) {
		return bucketURL{}, fmt.Errorf("bucket name %s is not a plain name", strconv.Quote(bkt))
	}
	for _, kv := range strings.Split(query, "&") {
		k, _, _ := strings.Cut(kv, "=")
		k = strings.ToLower(k)
		for _, w := range secretParams {
			if strings.Contains(k, w) {
				return bucketURL{}, errors.New("the URL's query holds a credential: credentials are read only from the environment (see docs/USAGE.md)")
			}
		}
	}
	prefix = strings.TrimSuffix(prefix, "/")
	if prefix != "" && (prefix == "." || !fs.ValidPath(prefix) || !validName(prefix)) {
		return bucketURL{}, fmt.Errorf("prefix %s is not a plain slash-separated name", strconv.Quote(prefix))
	}
	u := bucketURL{scheme: scheme, open: s.gocloud + "://" + bkt, display: scheme + "://" + bkt}
	if query != "" {
		u.open += "?" + query
	}
	if prefix != "" {
		u.prefix = prefix + "/"
		u.display += "/" + prefix
	}
	return u, nil
}

// bucketName reports whether s can be a bucket's or container's name in
// any of the clouds: a letter or digit, then letters, digits, '.', '-'
// and '_' (S3's legacy names, GCS's).
func bucketName(s string) bool {
	for i, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || i > 0 && strings.ContainsRune("._-", c)) {
			return false
		}
	}
	return s != ""
}

// validName reports whether a key, or an element of one, can be named in a
// report without misleading: UTF-8, no control character, no backslash
// (which Windows readers take for a separator).
func validName(s string) bool {
	if !utf8.ValidString(s) || strings.ContainsRune(s, '\\') {
		return false
	}
	return !strings.ContainsFunc(s, unicode.IsControl)
}

// OpenURL opens the bucket log directory at the URL p (s3://bucket/prefix,
// gs://..., az://container/prefix) with gocloud.dev/blob. The driver of its
// cloud must be compiled in (build tags s3, gcs, azure); credentials and
// the account come from the cloud's standard environment. Every request
// made through the directory, now or when payloads are read later, uses
// ctx.
func OpenURL(ctx context.Context, p string) (*Dir, error) {
	bkt, prefix, display, err := OpenBucket(ctx, p)
	if err != nil {
		return nil, err
	}
	return openBucketDir(ctx, bkt, prefix, display)
}

// openBucketDir is OpenURL for the bucket bkt once opened: the log
// directory of the keys below prefix ("" or ending in "/"), named
// display. It closes bkt when it fails.
func openBucketDir(ctx context.Context, bkt *blob.Bucket, prefix, display string) (*Dir, error) {
	b := &bucket{b: bkt, ctx: ctx, prefix: prefix, display: display, sem: make(chan struct{}, MaxRequests),
		maxKeys: MaxListKeys, sparePages: sparePages,
		sizes: map[string]int64{}, dirs: map[string]bool{}, listed: map[string]bool{}}
	// One listing of one key says at once whether the bucket can be read
	// and whether the prefix holds anything: a typo is then an error, as
	// a missing folder is.
	objs, err := b.probe(".", prefix, "")
	if err != nil {
		bkt.Close()
		return nil, fmt.Errorf("%s: %w", display, BucketError(display, err))
	}
	if len(objs) == 0 {
		bkt.Close()
		return nil, fmt.Errorf("%s: no object under this prefix: %w", display, fs.ErrNotExist)
	}
	return &Dir{bkt: b, path: display}, nil
}

// bucketError says what the common failures of a first request mean, in
// one line; gocloud's errors quote the driver's, several lines long.
func bucketError(err error) error {
	var bound *boundError
	if errors.As(err, &bound) {
		return bound // ours, said in one line already
	}
	// A connection that could not be made: the endpoint is wrong or
	// down, whatever the SDK's retries and wrappers made of it.
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return &endpointError{addr: fmt.Sprint(op.Addr), cause: op.Err}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &endpointError{addr: dns.Name, cause: dns}
	}
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return fmt.Errorf("the bucket does not exist: %w", fs.ErrNotExist)
	case gcerrors.PermissionDenied:
		return errors.New("access denied: check the credentials in the environment (AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_*)")
	case gcerrors.Canceled:
		return context.Canceled
	case gcerrors.DeadlineExceeded:
		return context.DeadlineExceeded
	}
	// Drivers leave some refusals Unknown (S3's InvalidAccessKeyId): the
	// HTTP status says what they are, through the SDKs' error interfaces.
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) {
		switch status.HTTPStatusCode() {
		case 401, 403:
			return errors.New("access denied: check the credentials in the environment (AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_*)")
		case 404:
			return fmt.Errorf("the bucket does not exist: %w", fs.ErrNotExist)
		}
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}

// bucket is the backend of a Dir in object storage. Names are keys below
// prefix; the listing of Walk records every object's size and every
// directory, so that Stat and Open need no request for what was listed.
type bucket struct {
	b       *blob.Bucket
	ctx     context.Context
	prefix  string
	display string        // the log directory's URL without query, for messages
	sem     chan struct{} // a slot per request in flight
	budget  *listBudget   // of the walk's listings; a probe has its own

	maxKeys, sparePages int64 // the listings' bounds: MaxListKeys, sparePages (tests lower them)

	mu     sync.Mutex
	sizes  map[string]int64 // listed objects, by name
	dirs   map[string]bool  // listed directories, by name
	listed map[string]bool  // directories listed whole: what they hold is known
}

// do runs one request in a slot of the semaphore.
func (b *bucket) do(fn func() error) error {
	select {
	case b.sem <- struct{}{}:
	case <-b.ctx.Done():
		return b.ctx.Err()
	}
	defer func() { <-b.sem }()
	return fn()
}

// probe lists one key below prefix (a directory's name, for messages):
// whether there is one. Its requests are bounded as a walk's are, by a
// budget of its own.
func (b *bucket) probe(dir, prefix, delim string) ([]*blob.ListObject, error) {
	var objs []*blob.ListObject
	l := b.newBudget().lister(dir)
	err := b.do(func() error {
		var err error
		objs, _, err = b.b.ListPage(b.ctx, blob.FirstPageToken, 1, l.options(prefix, delim))
		return err
	})
	return objs, err
}

// newBudget returns bounds for listings of the directory, none used yet.
func (b *bucket) newBudget() *listBudget {
	return &listBudget{display: b.display, maxKeys: b.maxKeys, sparePages: b.sparePages}
}

// entry is what a listing found in a directory.
type entry struct {
	name string // relative to the log directory
	dir  bool
	size int64
	bad  error // a key refused, with the reason
	sub  *listing
}

// listing is a directory's entries, sorted as fs.WalkDir visits them.
type listing struct {
	entries []entry
	err     error
	done    chan struct{}
}

// list lists the directory dir ("." for the top), a page at a time, and
// starts listing each directory in it at once: directories are listed
// concurrently, MaxRequests requests at a time, and visited in order.
func (b *bucket) list(dir string, wg *sync.WaitGroup) *listing {
	l := &listing{done: make(chan struct{})}
	wg.Go(func() {
		defer close(l.done)
		prefix := b.prefix
		if dir != "." {
			prefix += dir + "/"
		}
		token := blob.FirstPageToken
		lr := b.budget.lister(dir)
		opts := lr.options(prefix, "/")
		for len(token) > 0 {
			var objs []*blob.ListObject
			err := b.do(func() error {
				var err error
				objs, token, err = b.b.ListPage(b.ctx, token, listPage, opts)
				return err
			})
			if err == nil {
				err = b.budget.addKeys(len(objs), dir)
			}
			if err == nil {
				err = lr.nextPage(token)
			}
			if err != nil {
				l.err = bucketError(err)
				return
			}
			for _, o := range objs {
				if e, ok := b.entry(dir, prefix, o); ok {
					l.entries = append(l.entries, e)
				}
			}
		}
		// fs.WalkDir's order: by name, a directory "a" before a file
		// "a.txt", where the keys sort "a.txt" before "a/".
		slices.SortStableFunc(l.entries, func(x, y entry) int { return cmp.Compare(x.name, y.name) })
		refuseTwins(l.entries)
		b.mu.Lock()
		b.listed[dir] = true
		for _, e := range l.entries {
			switch {
			case e.bad != nil:
			case e.dir:
				b.dirs[e.name] = true
			default:
				b.sizes[e.name] = e.size
			}
		}
		b.mu.Unlock()
		for i := range l.entries {
			if e := &l.entries[i]; e.dir && e.bad == nil {
				e.sub = b.list(e.name, wg)
			}
		}
	})
	return l
}

// entry checks one object or directory of a listing of dir. A key is an
// untrusted name: one that would not be a plain name in the report (an
// empty, "." or ".." element, a backslash, a control character, invalid
// UTF-8) is refused under a quoted name, never read.
func (b *bucket) entry(dir, prefix string, o *blob.ListObject) (entry, bool) {
	rel := strings.TrimPrefix(o.Key, prefix)
	if o.IsDir {
		rel = strings.TrimSuffix(rel, "/")
	} else if rel == "" || strings.HasSuffix(rel, "/") {
		// A directory marker (a console's "folder"): the listing has the
		// directory itself already.
		return entry{}, false
	}
	e := entry{name: path.Join(dir, rel), dir: o.IsDir, size: o.Size}
	if rel == "" || rel == "." || rel == ".." || strings.Contains(rel, "/") || !validName(rel) {
		// Quoted and not joined: path.Join would clean the quoted
		// form of "/../x" into another name.
		e.name = strconv.Quote(rel)
		if dir != "." {
			e.name = dir + "/" + e.name
		}
		e.bad = fmt.Errorf("object key %s is not a plain name: not read", strconv.Quote(o.Key))
	}
	if o.Size < 0 {
		e.bad = fmt.Errorf("object key %s has a negative size: not read", strconv.Quote(o.Key))
	}
	return e, true
}

// refuseTwins refuses every name that entries, sorted by name, hold more
// than once: gocloud's drivers show a key's "__0x41__" as the character
// it escapes ("A"), and read a name by its escaped form, so the keys
// "run/A" and "run/__0x41__" both list as "run/A", of which one is read
// twice (a server may also list a key twice). Neither is read, and the
// name is refused once.
func refuseTwins(entries []entry) {
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].name == entries[i].name {
			j++
		}
		if j-i > 1 && entries[i].bad == nil {
			entries[i].bad = fmt.Errorf("%d keys are listed as %s (gocloud shows \"__0x41__\" in a key as \"A\"), or one more than once: none is read",
				j-i, strconv.Quote(path.Base(entries[i].name)))
			for k := i + 1; k < j; k++ {
				entries[k].bad = errSkip // named once, by the first
			}
		}
		i = j
	}
}

// errSkip marks an entry refused under another's warning.
var errSkip = errors.New("refused with its twin")

// walk is Dir.Walk for a bucket.
func (b *bucket) walk(fn func(name string, size int64) error, refused func(name string, err error)) error {
	// Each walk lists anew, within bounds of its own.
	b.budget = b.newBudget()
	var wg sync.WaitGroup
	top := b.list(".", &wg)
	// The listings go on concurrently; an early return waits for them,
	// which the context of the directory ends.
	defer wg.Wait()
	var visit func(l *listing) error
	visit = func(l *listing) error {
		<-l.done
		if l.err != nil {
			return l.err
		}
		if e := b.budget.stopped.Load(); e != nil {
			return e // a bound passed in a listing not yet visited
		}
		if err := b.ctx.Err(); err != nil {
			return err // not a warning per directory that was not listed
		}
		for _, e := range l.entries {
			switch {
			case errors.Is(e.bad, errSkip):
			case e.bad != nil:
				refused(e.name, e.bad)
			case e.dir:
				<-e.sub.done
				if err := b.ctx.Err(); err != nil {
					return err
				}
				if e.sub.err != nil {
					var bound *boundError
					if errors.As(e.sub.err, &bound) {
						return bound
					}
					refused(e.name, e.sub.err)
					continue
				}
				if err := visit(e.sub); err != nil {
					return err
				}
			default:
				if err := fn(e.name, e.size); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return visit(top)
}

// stat is Dir.Stat for a bucket, for a name already checked.
func (b *bucket) stat(name string) (fs.FileInfo, error) {
	if name == "." {
		return objectInfo{name: ".", dir: true}, nil
	}
	b.mu.Lock()
	size, file := b.sizes[name]
	dir := b.dirs[name]
	known := b.knownMissing(name)
	b.mu.Unlock()
	switch {
	case dir:
		return objectInfo{name: path.Base(name), dir: true}, nil
	case file:
		return objectInfo{name: path.Base(name), size: size}, nil
	case known:
		// Its directory was listed whole: no request for what it lacks
		// (collect asks every run for files it may not have).
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	// A name the listing did not see: a config's file, or a payload's
	// read after a listing that did not run (a part's merge).
	var a *blob.Attributes
	err := b.do(func() error {
		var err error
		a, err = b.b.Attributes(b.ctx, b.prefix+name)
		return err
	})
	if err == nil {
		b.mu.Lock()
		b.sizes[name] = a.Size
		b.mu.Unlock()
		return objectInfo{name: path.Base(name), size: a.Size, mod: a.ModTime}, nil
	}
	if gcerrors.Code(err) != gcerrors.NotFound {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: bucketError(err)}
	}
	objs, err := b.probe(name, b.prefix+name+"/", "/")
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: bucketError(err)}
	}
	if len(objs) == 0 {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return objectInfo{name: path.Base(name), dir: true}, nil
}

// knownMissing reports whether the listings say name does not exist: a
// directory on its way was listed whole without the next element. It is
// called with mu held, for a name neither listed object nor directory.
func (b *bucket) knownMissing(name string) bool {
	cur, rest := ".", name
	for b.listed[cur] {
		elem, tail, more := strings.Cut(rest, "/")
		next := path.Join(cur, elem)
		if !more || !b.dirs[next] {
			return true
		}
		cur, rest = next, tail
	}
	return false
}

// open is Dir.Open for a bucket, for a name Stat found a regular file.
func (b *bucket) open(name string, fi fs.FileInfo) File {
	return &object{b: b, key: b.prefix + name, name: name, fi: fi}
}

// objectInfo describes an object, or a directory of keys.
type objectInfo struct {
	name string
	size int64
	dir  bool
	mod  time.Time
}

func (i objectInfo) Name() string       { return i.name }
func (i objectInfo) Size() int64        { return i.size }
func (i objectInfo) ModTime() time.Time { return i.mod }
func (i objectInfo) IsDir() bool        { return i.dir }
func (i objectInfo) Sys() any           { return nil }
func (i objectInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

// object is an open object: a File read by range requests, of the size
// it had when it was listed or stat'ed.
type object struct {
	b    *bucket
	key  string
	name string
	fi   fs.FileInfo

	pos int64  // of the next Read
	buf []byte // read ahead of pos by the last chunk
}

func (o *object) Stat() (fs.FileInfo, error) { return o.fi, nil }
func (o *object) Close() error               { return nil }

// ReadAt reads len(p) bytes at off with one range request.
func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: negative offset", o.name)
	}
	size := o.fi.Size()
	if off >= size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), size-off)
	var got int
	err := o.b.do(func() error {
		r, err := o.b.b.NewRangeReader(o.b.ctx, o.key, off, n, nil)
		if err != nil {
			return err
		}
		defer r.Close()
		got, err = io.ReadFull(r, p[:n])
		return err
	})
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return got, fmt.Errorf("%s: the object is shorter than its listed %d bytes: %w", o.name, size, err)
		}
		return got, &fs.PathError{Op: "read", Path: o.name, Err: bucketError(err)}
	}
	if int64(got) < int64(len(p)) {
		return got, io.EOF
	}
	return got, nil
}

// Read reads sequentially, a chunk of at most readChunk bytes per request.
func (o *object) Read(p []byte) (int, error) {
	if len(o.buf) == 0 {
		size := o.fi.Size()
		if o.pos >= size {
			return 0, io.EOF
		}
		n := min(size-o.pos, readChunk)
		if int64(cap(o.buf)) < n {
			o.buf = make([]byte, n)
		}
		o.buf = o.buf[:n]
		m, err := o.ReadAt(o.buf, o.pos)
		o.buf = o.buf[:m]
		if m == 0 && err != nil {
			return 0, err
		}
	}
	n := copy(p, o.buf)
	o.buf = o.buf[n:]
	o.pos += int64(n)
	return n, nil
}

func (o *object) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += o.pos
	case io.SeekEnd:
		offset += o.fi.Size()
	}
	if offset < 0 {
		return 0, fmt.Errorf("%s: seek before the start", o.name)
	}
	o.pos, o.buf = offset, o.buf[:0]
	return offset, nil
}

// OpenBucket opens the bucket of the URL p for a caller that writes
// objects in it (package outdir: a part of a sharded collection), by the
// rules of OpenURL: its cloud's driver compiled in, no credential in the
// URL, the account from the environment. It returns the bucket, the
// URL's prefix ("" or ending in "/") and the URL as Redact gives it.
// Unlike OpenURL it lists nothing: a prefix to be written may be empty.
func OpenBucket(ctx context.Context, p string) (b *blob.Bucket, prefix, display string, err error) {
	u, err := parseURL(p)
	if err != nil {
		return nil, "", "", err
	}
	s := schemes[u.scheme]
	if !blob.DefaultURLMux().ValidBucketScheme(s.gocloud) {
		return nil, "", "", fmt.Errorf("built without %s support: build with -tags %s", u.scheme, s.tag)
	}
	bkt, err := blob.OpenBucket(ctx, u.open)
	if err != nil {
		msg := BucketError(u.display, err).Error()
		if _, q, ok := strings.Cut(u.open, "?"); ok {
			msg = strings.ReplaceAll(msg, q, "...")
		}
		return nil, "", "", fmt.Errorf("%s: %s", u.display, msg)
	}
	configureGCS(bkt)
	return bkt, u.prefix, u.display, nil
}

// BucketError is the one-line form of an error of a request to the
// bucket of the URL url (access denied, no such bucket, an endpoint that
// cannot be reached), as OpenURL reports its own. An endpoint that cannot
// be reached is named with where it came from: the variable of url's
// cloud that set it, or that none did.
func BucketError(url string, err error) error {
	err = bucketError(err)
	var e *endpointError
	if errors.As(err, &e) {
		scheme, _, _ := strings.Cut(url, "://")
		e.source = endpointSource(strings.ToLower(scheme))
	}
	return err
}

// endpointError is a request that could not reach its endpoint: refused,
// unreachable, a name that does not resolve.
type endpointError struct {
	addr   string
	cause  error
	source string // where the endpoint came from, as endpointSource says
}

func (e *endpointError) Error() string {
	msg := "cannot connect to " + e.addr + ": " + e.cause.Error()
	if e.source != "" {
		msg += " (" + e.source + ")"
	}
	return msg
}

func (e *endpointError) Unwrap() error { return e.cause }

// endpointSource says which standard variable gave the endpoint of a
// cloud's requests, with its value when that holds no secret: a user who
// pointed the SDK at an emulator, or forgot to, sees where to look.
func endpointSource(scheme string) string {
	set := func(k string) (string, bool) { v := os.Getenv(k); return v, v != "" }
	switch scheme {
	case "s3":
		if v, ok := set("AWS_ENDPOINT_URL_S3"); ok {
			return "endpoint from AWS_ENDPOINT_URL_S3=" + v + ", unless the URL has endpoint="
		}
		if v, ok := set("AWS_ENDPOINT_URL"); ok {
			return "endpoint from AWS_ENDPOINT_URL=" + v + ", unless the URL has endpoint="
		}
		return "endpoint from the URL's endpoint=, AWS_ENDPOINT_URL or the region"
	case "gs":
		if v, ok := set("STORAGE_EMULATOR_HOST"); ok {
			return "endpoint from STORAGE_EMULATOR_HOST=" + v
		}
		return "Google's endpoint: STORAGE_EMULATOR_HOST is not set"
	case "az", "azblob":
		// A connection string holds the account's key: named, not shown.
		if _, ok := set("AZURE_STORAGE_CONNECTION_STRING"); ok {
			return "endpoint from AZURE_STORAGE_CONNECTION_STRING's BlobEndpoint"
		}
		if _, ok := set("AZURE_STORAGEBLOB_CONNECTIONSTRING"); ok {
			return "endpoint from AZURE_STORAGEBLOB_CONNECTIONSTRING's BlobEndpoint"
		}
		if v, ok := set("AZURE_STORAGE_DOMAIN"); ok {
			return "endpoint from AZURE_STORAGE_DOMAIN=" + v + " and AZURE_STORAGE_ACCOUNT"
		}
		return "endpoint from AZURE_STORAGE_ACCOUNT, AZURE_STORAGE_DOMAIN unset"
	}
	return ""
}
