package otel

import (
	"fmt"
	"net/url"
	"strings"
)

// Protocols an endpoint is spoken to in, as OTEL_EXPORTER_OTLP_PROTOCOL
// spells them.
const (
	ProtocolGRPC = "grpc"
	ProtocolHTTP = "http/protobuf"
)

// A Target is where traces go: the URL the exporter sends to and the
// protocol it speaks.
type Target struct {
	URL      string
	Protocol string
	// From names where the URL came from (the flag or an environment
	// variable), for messages.
	From string
}

// The standard variables of the OpenTelemetry SDKs that Resolve reads; the
// exporters themselves read the rest (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT,
// _CERTIFICATE, _COMPRESSION, and their _TRACES_ forms).
const (
	envEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	envTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	envProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	envTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	envSDKDisabled    = "OTEL_SDK_DISABLED"
	envTracesExporter = "OTEL_TRACES_EXPORTER"
)

// Resolve says where to send traces: to endpoint (the flag named flag)
// if it is set, else to the standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
// OTEL_EXPORTER_OTLP_ENDPOINT; ok is false when none is, or when the
// environment turns tracing off (OTEL_SDK_DISABLED=true,
// OTEL_TRACES_EXPORTER=none) and no flag turns it back on. protocol (the
// --otlp-protocol flag) is grpc or http/protobuf; unset, it is the
// standard variables', else grpc for port 4317 (the OTLP/gRPC port) and
// http/protobuf otherwise. An HTTP endpoint without a path, and the base
// OTEL_EXPORTER_OTLP_ENDPOINT always, get /v1/traces as the specification
// says.
func Resolve(flag, endpoint, protocol string, getenv func(string) string) (t Target, ok bool, err error) {
	base := false
	switch {
	case endpoint != "":
		t.URL, t.From = endpoint, flag
	case getenv(envSDKDisabled) == "true" || getenv(envTracesExporter) == "none":
		return Target{}, false, nil
	case getenv(envTracesEndpoint) != "":
		t.URL, t.From = getenv(envTracesEndpoint), envTracesEndpoint
	case getenv(envEndpoint) != "":
		t.URL, t.From, base = getenv(envEndpoint), envEndpoint, true
	default:
		return Target{}, false, nil
	}
	u, err := url.Parse(t.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Target{}, false, fmt.Errorf("%s: %q is not an OTLP endpoint URL: want http://HOST:PORT or https://HOST:PORT", t.From, redacted(t.URL))
	}
	t.Protocol, err = resolveProtocol(protocol, u, getenv)
	if err != nil {
		return Target{}, false, err
	}
	if t.Protocol == ProtocolHTTP && (base || u.Path == "" || u.Path == "/") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
		t.URL = u.String()
	}
	return t, true, nil
}

// Shown is the target's URL as messages show it: its user information
// (a user name and password, a token) redacted.
func (t Target) Shown() string { return redacted(t.URL) }

// redacted is raw with the user information of the URL it is replaced by
// xxxxx, whether or not the rest of it parses.
func redacted(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		if u.User != nil {
			u.User = url.User("xxxxx")
		}
		return u.String()
	}
	rest := raw
	scheme, after, ok := strings.Cut(raw, "://")
	if ok {
		rest = after
	}
	host, path, _ := strings.Cut(rest, "/")
	at := strings.LastIndex(host, "@")
	if at < 0 {
		return raw
	}
	out := "xxxxx" + host[at:]
	if ok {
		out = scheme + "://" + out
	}
	if len(host) < len(rest) {
		out += "/" + path
	}
	return out
}

func resolveProtocol(flag string, u *url.URL, getenv func(string) string) (string, error) {
	p, from := flag, "--otlp-protocol"
	for _, v := range []string{envTracesProtocol, envProtocol} {
		if p == "" {
			p, from = getenv(v), v
		}
	}
	switch p {
	case ProtocolGRPC, ProtocolHTTP:
		return p, nil
	case "":
		if u.Port() == "4317" {
			return ProtocolGRPC, nil
		}
		return ProtocolHTTP, nil
	case "http/json":
		return "", fmt.Errorf("%s: http/json is not spoken by the OpenTelemetry Go exporters: use grpc or http/protobuf", from)
	}
	return "", fmt.Errorf("%s must be grpc or http/protobuf, not %q", from, p)
}
