//go:build !gcs

package logfs

import "gocloud.dev/blob"

// configureGCS sets a Cloud Storage bucket's retries (driver_gcs.go), in a
// build without that driver: there is nothing to set.
func configureGCS(*blob.Bucket) {}
