//go:build s3

package logfs

// The S3 driver (Amazon S3 and S3-compatible servers: MinIO, Ceph, moto),
// compiled in with -tags s3: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.
import _ "gocloud.dev/blob/s3blob"
