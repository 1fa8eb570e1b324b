//go:build azure

package logfs

// The Azure Blob Storage driver, compiled in with -tags azure: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.
import _ "gocloud.dev/blob/azureblob"
