//go:build !s3

package logfs

// beforeList prepares a listing's request for its driver, in a build
// without the S3 driver: the others need nothing (GCS lists in JSON,
// which escapes any character; Azure's SDK decodes the names its service
// encodes), nor show their requests' continuation tokens (listings check
// those a ListPage returns).
func beforeList(as func(any) bool) (token string, shown bool, err error) { return "", false, nil }
