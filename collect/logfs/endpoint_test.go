package logfs

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
	"testing"
)

// TestBucketErrorNamesEndpointVariable: a connection the SDK could not
// make, however it wrapped it, is said in one line naming the address and
// the variable of the URL's cloud that set the endpoint, with its value
// unless it holds a secret (a connection string's key).
func TestBucketErrorNamesEndpointVariable(t *testing.T) {
	const secret = "AccountKey=c2VjcmV0"
	t.Setenv("STORAGE_EMULATOR_HOST", "127.0.0.1:9")
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;"+secret+";BlobEndpoint=http://127.0.0.1:9/a;")
	dial := &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}, Err: syscall.ECONNREFUSED}
	// As the SDKs return it: an *url.Error inside their own wrapping.
	wrapped := fmt.Errorf("retry failed after 1 attempts; last error: %w", &url.Error{Op: "Get", URL: "http://127.0.0.1:9/x", Err: dial})
	for _, c := range []struct{ url, want string }{
		{"gs://logs/run", "STORAGE_EMULATOR_HOST=127.0.0.1:9"},
		{"s3://logs/run", "AWS_ENDPOINT_URL=http://127.0.0.1:9"},
		{"az://logs/run", "AZURE_STORAGE_CONNECTION_STRING"},
	} {
		msg := BucketError(c.url, wrapped).Error()
		if !strings.Contains(msg, "cannot connect to 127.0.0.1:9") || !strings.Contains(msg, c.want) || strings.Contains(msg, secret) || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one line naming 127.0.0.1:9 and %s, not the key", c.url, msg, c.want)
		}
		if !errors.Is(BucketError(c.url, wrapped), syscall.ECONNREFUSED) {
			t.Errorf("%s: the error does not wrap its cause", c.url)
		}
	}
	dns := &net.DNSError{Err: "no such host", Name: "emulator.invalid", IsNotFound: true}
	if msg := BucketError("gs://logs", dns).Error(); !strings.Contains(msg, "emulator.invalid") || !strings.Contains(msg, "STORAGE_EMULATOR_HOST") {
		t.Errorf("a name that does not resolve: %q", msg)
	}
	// Not a connection: said as before, no variable named.
	if msg := BucketError("gs://logs", errors.New("boom")).Error(); msg != "boom" {
		t.Errorf("another error: %q", msg)
	}
}
