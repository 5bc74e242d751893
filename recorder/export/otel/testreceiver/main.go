// Command testreceiver is an OTLP trace receiver for schedscope's tests and
// for trying the trace export by hand. It is the OpenTelemetry Collector's
// own OTLP receiver (go.opentelemetry.io/collector/receiver/otlpreceiver,
// gRPC and HTTP) feeding the Collector's in-memory consumer; nothing of the
// protocol is written here.
//
// It is a module of its own so that the Collector's dependencies (newer
// gRPC and OpenTelemetry releases than the Kubernetes tree pins) stay out of
// schedscope's build; tests build it with go build.
//
// On start it prints one JSON line on standard output:
//
//	{"grpc":"127.0.0.1:PORT","http":"http://127.0.0.1:PORT","traces":"http://127.0.0.1:PORT/traces","spans":…,"tree":…}
//
// grpc and http are the OTLP endpoints (give either to schedscope's
// --otlp-endpoint); GET traces returns every batch received so far as OTLP
// JSON, one batch a line; GET spans, every span as one flat JSON list
// (Span below), which tests read; GET tree prints each trace as an indented tree of
// span names with their attributes, for a person. It runs until killed or
// until its standard input closes.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/config/configoptional"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/receiver/receivertest"
)

func main() {
	grpcAddr := flag.String("grpc", "", "address of the OTLP/gRPC listener (default: a free port on 127.0.0.1)")
	httpAddr := flag.String("http", "", "address of the OTLP/HTTP listener (default: a free port on 127.0.0.1)")
	flag.Parse()
	if err := run(*grpcAddr, *httpAddr); err != nil {
		fmt.Fprintln(os.Stderr, "testreceiver:", err)
		os.Exit(1)
	}
}

func run(grpcAddr, httpAddr string) error {
	var err error
	for _, a := range []*string{&grpcAddr, &httpAddr} {
		if *a == "" {
			if *a, err = freeAddr(); err != nil {
				return err
			}
		}
	}
	factory := otlpreceiver.NewFactory()
	cfg := factory.CreateDefaultConfig().(*otlpreceiver.Config)
	g := cfg.Protocols.GRPC.GetOrInsertDefault()
	g.NetAddr.Endpoint = grpcAddr
	cfg.Protocols.GRPC = configoptional.Some(*g)
	h := cfg.Protocols.HTTP.GetOrInsertDefault()
	h.ServerConfig.NetAddr.Endpoint = httpAddr
	cfg.Protocols.HTTP = configoptional.Some(*h)

	sink := new(consumertest.TracesSink)
	ctx := context.Background()
	rcv, err := factory.CreateTraces(ctx, receivertest.NewNopSettings(factory.Type()), cfg, sink)
	if err != nil {
		return err
	}
	if err := rcv.Start(ctx, componenttest.NewNopHost()); err != nil {
		return err
	}
	defer rcv.Shutdown(context.Background())

	query, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /traces", func(w http.ResponseWriter, _ *http.Request) {
		var m ptrace.JSONMarshaler
		for _, td := range sink.AllTraces() {
			b, err := m.MarshalTraces(td)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Write(append(b, '\n'))
		}
	})
	mux.HandleFunc("GET /spans", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(flat(sink.AllTraces()))
	})
	mux.HandleFunc("GET /tree", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, tree(sink.AllTraces()))
	})
	go (&http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}).Serve(query)

	base := "http://" + query.Addr().String()
	line, _ := json.Marshal(map[string]string{"grpc": grpcAddr, "http": "http://" + httpAddr, "traces": base + "/traces", "spans": base + "/spans", "tree": base + "/tree"})
	fmt.Println(string(line))
	io.Copy(io.Discard, os.Stdin) // until standard input closes
	return nil
}

// freeAddr is a port on 127.0.0.1 nothing listens on now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Span is one span as GET spans lists it: IDs in hex, times in RFC 3339
// with nanoseconds, attribute values as strings (lists as JSON).
type Span struct {
	Trace    string            `json:"trace"`
	ID       string            `json:"id"`
	Parent   string            `json:"parent,omitempty"`
	Name     string            `json:"name"`
	Start    time.Time         `json:"start"`
	End      time.Time         `json:"end"`
	Attrs    map[string]string `json:"attrs"`
	Resource map[string]string `json:"resource"`
	Events   []Event           `json:"events,omitempty"`
	// DroppedEvents counts the events the sender left out (span limits).
	DroppedEvents uint32 `json:"droppedEvents,omitempty"`
}

// Event is a span event.
type Event struct {
	Name  string            `json:"name"`
	Time  time.Time         `json:"time"`
	Attrs map[string]string `json:"attrs"`
}

func attrs(m pcommon.Map) map[string]string {
	out := map[string]string{}
	for k, v := range m.All() {
		out[k] = v.AsString()
	}
	return out
}

func flat(all []ptrace.Traces) []Span {
	out := []Span{}
	for _, td := range all {
		for _, rs := range td.ResourceSpans().All() {
			res := attrs(rs.Resource().Attributes())
			for _, ss := range rs.ScopeSpans().All() {
				for _, s := range ss.Spans().All() {
					sp := Span{Trace: s.TraceID().String(), ID: s.SpanID().String(), Name: s.Name(),
						Start: s.StartTimestamp().AsTime(), End: s.EndTimestamp().AsTime(), Attrs: attrs(s.Attributes()), Resource: res,
						DroppedEvents: s.DroppedEventsCount()}
					if !s.ParentSpanID().IsEmpty() {
						sp.Parent = s.ParentSpanID().String()
					}
					for _, e := range s.Events().All() {
						sp.Events = append(sp.Events, Event{Name: e.Name(), Time: e.Timestamp().AsTime(), Attrs: attrs(e.Attributes())})
					}
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// tree prints every span received, each trace as an indented tree, children
// in start order, with the span's duration and attributes.
func tree(all []ptrace.Traces) string {
	type node struct {
		span     ptrace.Span
		children []*node
	}
	byID := map[pcommon.SpanID]*node{}
	var spans []ptrace.Span
	for _, td := range all {
		for _, rs := range td.ResourceSpans().All() {
			for _, ss := range rs.ScopeSpans().All() {
				for _, s := range ss.Spans().All() {
					spans = append(spans, s)
					byID[s.SpanID()] = &node{span: s}
				}
			}
		}
	}
	var roots []*node
	for _, s := range spans {
		n := byID[s.SpanID()]
		if p, ok := byID[s.ParentSpanID()]; ok && !s.ParentSpanID().IsEmpty() {
			p.children = append(p.children, n)
		} else {
			roots = append(roots, n)
		}
	}
	byStart := func(ns []*node) {
		sort.SliceStable(ns, func(i, j int) bool { return ns[i].span.StartTimestamp() < ns[j].span.StartTimestamp() })
	}
	var b bytes.Buffer
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		s := n.span
		d := s.EndTimestamp().AsTime().Sub(s.StartTimestamp().AsTime())
		var attrs []string
		for k, v := range s.Attributes().All() {
			attrs = append(attrs, k+"="+v.AsString())
		}
		sort.Strings(attrs)
		fmt.Fprintf(&b, "%s%s  %v  %s\n", strings.Repeat("  ", depth), s.Name(), d, strings.Join(attrs, " "))
		for _, e := range s.Events().All() {
			var ea []string
			for k, v := range e.Attributes().All() {
				ea = append(ea, k+"="+v.AsString())
			}
			sort.Strings(ea)
			fmt.Fprintf(&b, "%s· %s %s\n", strings.Repeat("  ", depth+1), e.Name(), strings.Join(ea, " "))
		}
		byStart(n.children)
		for _, c := range n.children {
			walk(c, depth+1)
		}
	}
	byStart(roots)
	for _, r := range roots {
		fmt.Fprintf(&b, "trace %s  %s\n", r.span.TraceID(), r.span.StartTimestamp().AsTime().UTC().Format(time.RFC3339Nano))
		walk(r, 1)
	}
	return b.String()
}
