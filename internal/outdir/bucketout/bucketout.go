// Package bucketout writes a sharded collection's part under a bucket
// prefix. It is apart from outdir, which render imports, so that the
// pages depend on no cloud SDK.
package bucketout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/logfs"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Bucket is an output prefix in a bucket (s3://bucket/prefix, gs://...,
// az://...) that holds a few named objects: a part of a sharded
// collection. A bucket has no folder to fill aside and rename into
// place, so the writer, not the storage, makes the output whole: the
// caller deletes its completion marker first and writes it last, and a
// reader refuses a prefix without it.
type Bucket struct {
	b      *blob.Bucket
	prefix string // ends in "/"
	url    string // without query: what messages name
}

// ErrRefused is what errors.Is finds in an error of Open that
// refuses the output (a user's mistake), rather than failing to reach it.
var ErrRefused = errors.New("output refused")

// refusal is an error that is ErrRefused, with its own message.
type refusal string

func (r refusal) Error() string      { return string(r) }
func (refusal) Is(target error) bool { return target == ErrRefused }

// maxForeign bounds the listing that checks the prefix: the first object
// that is not ours refuses it, so a page is enough.
const maxForeign = 1000

// Open opens the prefix of the bucket URL out for writing the
// objects names, and refuses a prefix that the output must not be
// written into: the top of a bucket, or a prefix holding any object other
// than names (the bucket's form of a folder holding files trainreport did
// not write; a rerun finds only its own objects and overwrites them).
// The URL follows the rules of log directories (logfs.OpenURL):
// credentials come from the environment, and its query is never named.
func Open(ctx context.Context, out string, names []string) (*Bucket, error) {
	b, prefix, display, err := logfs.OpenBucket(ctx, out)
	if err != nil {
		return nil, fmt.Errorf("-o %w", err)
	}
	if prefix == "" {
		b.Close()
		return nil, refusal(fmt.Sprintf("-o %s is the top of a bucket: give a prefix (s3://bucket/parts/part-0)", display))
	}
	// logfs's options: keys a response could not carry otherwise are
	// listed (and refused as foreign), and the requests are bounded.
	objs, _, err := b.ListPage(ctx, blob.FirstPageToken, maxForeign, logfs.ListOptions(prefix, ""))
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("-o %s: %w", display, logfs.BucketError(display, err))
	}
	for _, o := range objs {
		if !slices.Contains(names, strings.TrimPrefix(o.Key, prefix)) {
			b.Close()
			return nil, refusal(fmt.Sprintf("-o %s holds %s, which trainreport did not write; remove it or choose another prefix",
				display, strconv.Quote(strings.TrimPrefix(o.Key, prefix))))
		}
	}
	return &Bucket{b: b, prefix: prefix, url: display}, nil
}

// URL returns the output's URL without query.
func (b *Bucket) URL() string { return b.url }

// WriteFile writes the object name below the prefix, replacing it. An
// upload that fails leaves the object as it was: object stores show an
// object only once its upload completed.
func (b *Bucket) WriteFile(ctx context.Context, name string, data []byte) error {
	opts := &blob.WriterOptions{ContentType: "application/octet-stream"}
	if err := b.b.WriteAll(ctx, b.prefix+name, data, opts); err != nil {
		return fmt.Errorf("writing %s/%s: %w", b.url, name, logfs.BucketError(b.url, err))
	}
	return nil
}

// Upload is an object being written by one upload (Create): its bytes
// are streamed to the store as they are written, and the object appears,
// replacing an earlier one, only when Commit succeeds.
type Upload struct {
	w      *blob.Writer
	cancel context.CancelFunc
	name   string // what messages name: the URL without query and the name
}

// Create starts the upload of the object name below the prefix, for a
// file too big to hold whole (a part's model.bin, written as it is
// collected). Commit ends it, and only then does the object change;
// Abort, or a cancelled ctx, drops it and leaves the object as it was.
func (b *Bucket) Create(ctx context.Context, name string) (*Upload, error) {
	ctx, cancel := context.WithCancel(ctx)
	w, err := b.b.NewWriter(ctx, b.prefix+name, &blob.WriterOptions{ContentType: "application/octet-stream"})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("writing %s/%s: %w", b.url, name, logfs.BucketError(b.url, err))
	}
	return &Upload{w: w, cancel: cancel, name: b.url + "/" + name}, nil
}

// Write streams p to the upload.
func (u *Upload) Write(p []byte) (int, error) {
	n, err := u.w.Write(p)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", u.name, logfs.BucketError(u.name, err))
	}
	return n, err
}

// Commit completes the upload: the object is then the bytes written.
func (u *Upload) Commit() error {
	defer u.cancel()
	if err := u.w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", u.name, logfs.BucketError(u.name, err))
	}
	return nil
}

// Abort drops the upload: the object stays as it was. Cancelling the
// writer's context before closing it is gocloud's way to abort.
func (u *Upload) Abort() {
	u.cancel()
	u.w.Close()
}

// Remove deletes the object name below the prefix, if it exists.
func (b *Bucket) Remove(ctx context.Context, name string) error {
	err := b.b.Delete(ctx, b.prefix+name)
	if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("removing %s/%s: %w", b.url, name, logfs.BucketError(b.url, err))
	}
	return nil
}

// Close releases the bucket.
func (b *Bucket) Close() error { return b.b.Close() }
