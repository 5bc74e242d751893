package commands

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The probes live --health-addr serves: live at once, ready once the
// mirror is, not ready while the API server is lost.
func TestHealthProbes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := serveHealth(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get("http://" + h.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	if code, _ := get("/livez"); code != http.StatusOK {
		t.Errorf("livez %d while starting", code)
	}
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || body != "mirroring the cluster" {
		t.Errorf("readyz while mirroring: %d %q", code, body)
	}
	h.setReady()
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Errorf("readyz once ready: %d", code)
	}
	h.connection(errors.New("connection refused"))
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable || body != "connection refused" {
		t.Errorf("readyz with the API server lost: %d %q", code, body)
	}
	h.connection(nil)
	if code, _ := get("/readyz"); code != http.StatusOK {
		t.Errorf("readyz once the API server is back: %d", code)
	}
	if _, err := serveHealth(ctx, h.addr); err == nil || !strings.Contains(err.Error(), "--health-addr") {
		t.Errorf("a second server on the same address: %v", err)
	}
}

// A kept-alive connection that sends no further request is closed after
// the idle time, so that probes' idle connections do not pile up.
func TestHealthClosesIdleConnections(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &healthServer{idle: 100 * time.Millisecond}
	if err := h.listen(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /livez HTTP/1.1\r\nHost: probe\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("livez: %d, close %v; want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	start := time.Now()
	conn.SetReadDeadline(start.Add(5 * time.Second))
	if n, err := br.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("reading the idle connection: %d bytes, %v; want it closed by the server (io.EOF)", n, err)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Errorf("idle connection closed after %v, want about 100ms", waited)
	}
}

// deploy's bad flags are one-line errors naming the flag.
func TestDeployBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--namespace", "Not_A_Name"}, "--namespace"},
		{[]string{"--storage", "lots"}, "--storage"},
		{[]string{"--otlp-endpoint", "collector:4317"}, "--otlp-endpoint"},
		{[]string{"--config", "/does/not/exist.yaml"}, "/does/not/exist.yaml"},
		{[]string{"--max-size", "0"}, "--max-size"},
		{[]string{"--otlp-protocol", "grpc"}, "--otlp-protocol needs --otlp-endpoint"},
		{[]string{"--otlp-endpoint", "http://c:4317", "--otlp-protocol", "thrift"}, "--otlp-protocol must be grpc or http/protobuf"},
	} {
		out, errOut, code := run(t, append([]string{"deploy"}, tt.args...)...)
		if code == 0 || out != "" || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("deploy %v: exit %d, stdout %d bytes, stderr %q; want one line naming %s", tt.args, code, len(out), errOut, tt.want)
		}
	}
}
