//go:build s3

package logfs

// The S3 driver (Amazon S3 and S3-compatible servers: MinIO, Ceph, moto),
// compiled in with -tags s3: the default binary has no
// cloud SDK, and an URL of its scheme says how to build one that has.

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go/middleware"
	_ "gocloud.dev/blob/s3blob"
)

// beforeList prepares a listing's request for its driver. For S3's
// ListObjectsV2 it asks for the keys URL-encoded (encoding-type=url): a
// key may hold any character, and one XML 1.0 cannot carry (ESC, any
// control character but tab and line ends) in the response would make
// the SDK's XML decoder refuse the whole page, so one key would make the
// log directory unreadable. The SDK does not decode them (aws-sdk-go-v2
// leaves that to the caller, unlike the v1 SDK and botocore), so
// decodeListedKeys, added to this request's middleware, does, before
// gocloud unescapes them; the key is then refused as one key, by name. It
// returns the request's continuation token: S3 shows it.
//
// Other drivers' requests (with -tags "s3 gcs azure") are left as they
// are, and so is gocloud's legacy ListObjects (never chosen by a URL).
func beforeList(as func(any) bool) (token string, shown bool, err error) {
	var in *s3.ListObjectsV2Input
	var opts *[]func(*s3.Options)
	if !as(&in) || !as(&opts) {
		return "", false, nil
	}
	in.EncodingType = types.EncodingTypeUrl
	*opts = append(*opts, func(o *s3.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("trainreport.decodeListedKeys", decodeListedKeys), middleware.Before)
		})
	})
	return aws.ToString(in.ContinuationToken), true, nil
}

// decodeListedKeys is a middleware of ListObjectsV2: once the response is
// decoded, it URL-decodes its keys and prefixes if the server says it
// encoded them (a server that ignores encoding-type=url, as gofakes3
// does, sends them as they are and says nothing). A key that is not a
// valid encoding fails the page: the server is not speaking S3.
func decodeListedKeys(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleInitialize(ctx, in)
	o, ok := out.Result.(*s3.ListObjectsV2Output)
	if err != nil || !ok || o.EncodingType != types.EncodingTypeUrl {
		return out, md, err
	}
	decode := func(p *string) error {
		if p == nil {
			return nil
		}
		// Query rules: S3 writes a space as "+" (botocore decodes with
		// unquote_plus); moto writes "%20", which this decodes too.
		k, err := url.QueryUnescape(*p)
		if err != nil {
			return fmt.Errorf("the listing says its keys are URL-encoded, but %s is not: %w", strconv.Quote(*p), err)
		}
		*p = k
		return nil
	}
	for i := range o.Contents {
		if err := decode(o.Contents[i].Key); err != nil {
			return out, md, err
		}
	}
	for i := range o.CommonPrefixes {
		if err := decode(o.CommonPrefixes[i].Prefix); err != nil {
			return out, md, err
		}
	}
	for _, p := range []*string{o.Prefix, o.Delimiter, o.StartAfter} {
		if err := decode(p); err != nil {
			return out, md, err
		}
	}
	return out, md, nil
}
