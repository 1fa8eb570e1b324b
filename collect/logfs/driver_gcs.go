//go:build gcs

package logfs

// The Google Cloud Storage driver, compiled in with -tags gcs: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.
import _ "gocloud.dev/blob/gcsblob"
