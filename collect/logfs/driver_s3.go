//go:build s3

package logfs

// The S3 driver (Amazon S3 and S3-compatible servers: MinIO, Ceph, moto),
// compiled in with -tags s3: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	_ "gocloud.dev/blob/s3blob"
)

// beforeList prepares a listing's request for its driver. It returns the
// continuation token of S3's ListObjectsV2 request: S3 shows it, so a
// token given twice is caught at the request that would repeat it.
func beforeList(as func(any) bool) (token string, shown bool, err error) {
	var in *s3.ListObjectsV2Input
	if !as(&in) {
		return "", false, nil
	}
	return aws.ToString(in.ContinuationToken), true, nil
}
