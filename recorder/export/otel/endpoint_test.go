package otel

import (
	"errors"
	"strings"
	"testing"
)

// The endpoint's user information (a password, a token) is never shown:
// not in the summary, not in an error about the URL.
func TestEndpointPasswordIsNotShown(t *testing.T) {
	const secret = "SENTINEL-pw"
	tests := []struct {
		name, url, want string
	}{
		{"user and password", "http://alice:" + secret + "@collector:4318/v1/traces", "http://xxxxx@collector:4318/v1/traces"},
		{"a token as user", "https://" + secret + "@collector", "https://xxxxx@collector"},
		{"none", "http://collector:4318/v1/traces", "http://collector:4318/v1/traces"},
		{"not a URL", "http://alice:" + secret + "@coll ector:x/%zz", "http://xxxxx@coll ector:x/%zz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Target{URL: tt.url}).Shown(); got != tt.want {
				t.Errorf("Shown = %q, want %q", got, tt.want)
			}
		})
	}
	s := Summary{Target: Target{URL: "http://alice:" + secret + "@collector:4318/v1/traces"}, Cycles: 2, Spans: 9, Sent: 3, Err: errors.New("refused")}
	if got := s.String(); strings.Contains(got, secret) || !strings.Contains(got, "xxxxx@collector") {
		t.Errorf("the summary shows %q", got)
	}
	_, _, err := Resolve("--otlp-endpoint", "ftp://alice:"+secret+"@collector", "", func(string) string { return "" })
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("Resolve: %v", err)
	}
}
