//go:build gcs

package logfs

// The Google Cloud Storage driver, compiled in with -tags gcs: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.

import (
	"errors"
	"net"

	"cloud.google.com/go/storage"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/gcsblob"
)

// configureGCS sets the retries of a Cloud Storage bucket's client: the
// client's own, but a connection that cannot be made is not retried. The
// client retries a refused or timed-out connection until the context
// ends, with no bound on attempts: a mistyped STORAGE_EMULATOR_HOST, or
// an emulator not started, would hang the build instead of failing it
// with a message naming the variable. Other buckets are left as they are.
func configureGCS(b *blob.Bucket) {
	var c *storage.Client
	if !b.As(&c) {
		return
	}
	c.SetRetry(storage.WithErrorFunc(func(err error) bool {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return false
		}
		var dns *net.DNSError
		if errors.As(err, &dns) {
			return false
		}
		return storage.ShouldRetry(err)
	}))
}
