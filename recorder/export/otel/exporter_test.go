package otel

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

// A backend that accepts connections and never answers holds nothing up:
// handing cycles over never blocks for long (Wait gives up), and Close
// returns within its Timeout, saying how much was dropped.
func TestSilentBackendIsGivenUpOn(t *testing.T) {
	url := otlptest.Silent(t) + "/v1/traces"
	const timeout = time.Second
	tests := []struct {
		name string
		wait bool
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{name: "dropping, Close with a deadline", ctx: func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), timeout)
		}},
		{name: "waiting, Close without one", wait: true, ctx: func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(context.Background(), Options{Target: Target{URL: url, Protocol: ProtocolHTTP}, Wait: tt.wait, Timeout: timeout, Queue: 64})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			e.Begin(header)
			const n = 2000 // 30 000 spans: more than the batch processor holds
			for range n {
				e.Cycle(unschedulable())
			}
			handed := time.Since(start)
			ctx, cancel := tt.ctx()
			defer cancel()
			sum := e.Close(ctx)
			took := time.Since(start)
			if limit := 3*timeout + 2*time.Second; took > limit {
				t.Errorf("handing over took %s and Close returned after %s; want both within %s", handed, took, limit)
			}
			if sum.GaveUp == nil || sum.Sent != 0 || sum.Dropped == 0 || sum.Cycles+sum.Dropped != n {
				t.Errorf("summary %+v: want given up, nothing sent, and %d cycles made or dropped", sum, n)
			}
			line := sum.String()
			counts := fmt.Sprintf("dropped %d spans and %d records", sum.Spans, sum.Dropped)
			if !strings.Contains(line, counts) || !strings.Contains(line, "gave up") || strings.Contains(line, "\n") {
				t.Errorf("summary line %q does not say, in one line, that it gave up and what it dropped", line)
			}
		})
	}
}
