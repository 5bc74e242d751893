package commands

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/otel/otlptest"
)

// bySeq maps each cycle's number to its SchedulePod span.
func bySeq(t *testing.T, spans []otlptest.Span) map[int]otlptest.Span {
	t.Helper()
	out := map[int]otlptest.Span{}
	for _, r := range otlptest.Roots(spans) {
		if r.Name != "SchedulePod" {
			t.Errorf("a trace's root is %q, want SchedulePod", r.Name)
		}
		seq, err := strconv.Atoi(r.Attrs["schedscope.cycle.seq"])
		if err != nil {
			t.Fatalf("root without a cycle number: %v", r.Attrs)
		}
		out[seq] = r
	}
	return out
}

// checkTree checks every span's place: the KEP's names under the parents
// they belong under.
func checkTree(t *testing.T, spans []otlptest.Span) {
	t.Helper()
	byID := map[string]otlptest.Span{}
	for _, s := range spans {
		byID[s.Trace+"/"+s.ID] = s
	}
	phases := []string{"preFilter", "batchHint", "filter", "postFilter", "preScore", "score", "reserve", "permit", "waitOnPermit", "preBind", "bind", "postBind"}
	for _, s := range spans {
		if s.Resource["service.name"] != "schedscope" {
			t.Errorf("%s: resource %v", s.Name, s.Resource)
		}
		if s.Parent == "" {
			continue
		}
		p, ok := byID[s.Trace+"/"+s.Parent]
		if !ok {
			t.Errorf("%s: parent %s is not in its trace", s.Name, s.Parent)
			continue
		}
		var want []string
		switch {
		case s.Name == "schedulingCycle" || s.Name == "bindingCycle":
			want = []string{"SchedulePod"}
		case slices.Contains(phases, s.Name):
			want = []string{"schedulingCycle", "bindingCycle"}
			if s.Attrs["scheduler.phase"] == "" {
				t.Errorf("%s has no scheduler.phase", s.Name)
			}
		case strings.HasPrefix(s.Name, "plugin: "):
			want = phases
			if s.Attrs["scheduler.plugin.name"] != strings.TrimPrefix(s.Name, "plugin: ") || s.Attrs["scheduler.plugin.extension_point"] != p.Attrs["scheduler.phase"] {
				t.Errorf("%s under %s: attributes %v", s.Name, p.Name, s.Attrs)
			}
		default:
			t.Errorf("unexpected span %q", s.Name)
			continue
		}
		if !slices.Contains(want, p.Name) {
			t.Errorf("%s is under %s, want one of %v", s.Name, p.Name, want)
		}
	}
}

// recordWith runs record with args and loads what it wrote, from path.
func recordWith(t *testing.T, args ...string) (rec *recorder.Recording, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "run.ssr")
	_, errOut, code := run(t, append([]string{"record", "-o", path}, args...)...)
	if code != 0 {
		t.Fatalf("record %v: exit %d: %s", args, code, errOut)
	}
	if !strings.Contains(errOut, "otlp: sent ") {
		t.Errorf("record did not say what it sent: %s", errOut)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec, path
}

// The default fixture's cycles, sent over HTTP while recording: a trace per
// cycle, at the cycle's own times, shaped as KEP-5927 names it.
func TestRecordSendsATracePerCycle(t *testing.T) {
	rcv := otlptest.Start(t)
	rec, _ := recordWith(t, "--otlp-endpoint", rcv.HTTP)
	spans := rcv.Spans(t, len(rec.Cycles))
	seqs := bySeq(t, spans)
	if len(seqs) != len(rec.Cycles) || len(otlptest.Roots(spans)) != len(rec.Cycles) {
		t.Fatalf("%d traces (%d cycle numbers) for %d cycles", len(otlptest.Roots(spans)), len(seqs), len(rec.Cycles))
	}
	checkTree(t, spans)
	for _, c := range rec.Cycles {
		r := seqs[c.Seq]
		if !r.Start.Equal(c.Start) {
			t.Errorf("cycle %d: SchedulePod starts %v, the cycle %v", c.Seq, r.Start, c.Start)
		}
		if r.Attrs["k8s.pod.name"] != c.Pod.Name || r.Attrs["k8s.pod.namespace"] != c.Pod.Namespace || r.Attrs["k8s.pod.uid"] != c.Pod.UID {
			t.Errorf("cycle %d of %s: pod attributes %v", c.Seq, c.Pod.Key(), r.Attrs)
		}
		if c.Outcome.Result == recorder.ResultBound && r.Attrs["scheduler.selected_node"] != c.Outcome.Node {
			t.Errorf("cycle %d bound to %s: selected_node %q", c.Seq, c.Outcome.Node, r.Attrs["scheduler.selected_node"])
		}
	}
}

// The preemption fixture, sent over gRPC, then its recording exported again
// over HTTP to another receiver: the preempting cycle's attributes, the
// pod's queue story, and the same traces at the same times both ways.
func TestPreemptionTraceAndExportedRecording(t *testing.T) {
	live := otlptest.Start(t)
	_, path := recordWith(t, "-f", "preemption", "--otlp-endpoint", "http://"+live.GRPC, "--otlp-protocol", "grpc")
	spans := live.Spans(t, 2)
	checkTree(t, spans)
	seqs := bySeq(t, spans)
	first, second := seqs[1], seqs[2]
	for k, want := range map[string]string{"scheduler.result": "unschedulable", "schedscope.nominated_node": "node-1",
		"schedscope.victims": `["default/filler-1"]`, "scheduler.profile": "default-scheduler"} {
		if first.Attrs[k] != want {
			t.Errorf("preempting cycle: %s = %q, want %q", k, first.Attrs[k], want)
		}
	}
	if !strings.HasPrefix(first.Attrs["schedscope.message"], "0/2 nodes are available: 2 Insufficient cpu.") {
		t.Errorf("message %q", first.Attrs["schedscope.message"])
	}
	var rejections int
	var story []string
	for _, s := range spans {
		if s.Trace == first.Trace && s.Attrs["scheduler.plugin.name"] == "NodeResourcesFit" && s.Attrs["scheduler.plugin.extension_point"] == "Filter" {
			rejections = len(s.Events)
		}
	}
	if rejections != 2 {
		t.Errorf("NodeResourcesFit's Filter span has %d rejection events, want one per node (2)", rejections)
	}
	for _, e := range second.Events {
		story = append(story, e.Name+" "+e.Attrs["schedscope.queue.event"]+" "+e.Attrs["schedscope.queue.hints"])
	}
	if !slices.Contains(story, `queue: Move AssignedPodDelete ["NodeResourcesFit: Queue"]`) {
		t.Errorf("the second attempt's queue story %q does not tell that the victim's deletion requeued the pod", story)
	}
	if second.Attrs["scheduler.result"] != "scheduled" || second.Attrs["scheduler.selected_node"] != "node-1" {
		t.Errorf("second cycle %v", second.Attrs)
	}
	var binders int
	for _, s := range spans {
		if s.Trace == second.Trace && s.Name == "plugin: DefaultBinder" {
			binders++
		}
	}
	if binders != 1 {
		t.Errorf("%d DefaultBinder spans in the binding cycle, want 1", binders)
	}

	// The recording, exported later, gives the same traces at the same times.
	later := otlptest.Start(t)
	out, errOut, code := run(t, "export", "--otlp", later.HTTP, path)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "otlp: sent 2 cycles as traces") {
		t.Errorf("export said %q", out)
	}
	again := later.Spans(t, 2)
	key := func(s otlptest.Span) string {
		return s.Trace + "/" + s.ID + " " + s.Name + " " + s.Start.Format(time.RFC3339Nano) + " " + s.End.Format(time.RFC3339Nano)
	}
	var a, b []string
	for _, s := range spans {
		a = append(a, key(s))
	}
	for _, s := range again {
		b = append(b, key(s))
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("the exported recording's %d spans differ from the %d sent while recording", len(b), len(a))
	}
}

// An endpoint that refuses: the recording is still written, and the
// command says what did not reach it.
func TestUnreachableEndpointIsSaidNotFatal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.ssr")
	_, errOut, code := run(t, "record", "-f", "preemption", "-o", path, "--otlp-endpoint", "http://127.0.0.1:1")
	if code != 0 {
		t.Fatalf("record failed with the endpoint down: %s", errOut)
	}
	if !strings.Contains(errOut, "0 reached http://127.0.0.1:1/v1/traces") || !strings.Contains(errOut, "connection refused") {
		t.Errorf("stderr %q does not say the traces did not arrive and why", errOut)
	}
	if _, err := recorder.LoadFile(path); err != nil {
		t.Errorf("the recording: %v", err)
	}
	_, errOut, code = run(t, "export", "--otlp", "http://127.0.0.1:1", path)
	if code == 0 || !strings.Contains(errOut, "not every trace reached the backend") {
		t.Errorf("export to a closed port: exit %d, %q", code, errOut)
	}
}

// Endpoint flags and variables as the OpenTelemetry SDKs read them.
func TestOTLPFlagsAndVariables(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
	}{
		{name: "not a URL", args: []string{"--otlp-endpoint", "localhost:4317"}, wantErr: `--otlp-endpoint: "localhost:4317" is not an OTLP endpoint URL`},
		{name: "unknown protocol", args: []string{"--otlp-endpoint", "http://x:4318", "--otlp-protocol", "thrift"}, wantErr: "--otlp-protocol must be grpc or http/protobuf"},
		{name: "http/json", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, args: []string{"--otlp-endpoint", "http://x:4318"}, wantErr: "OTEL_EXPORTER_OTLP_PROTOCOL: http/json is not spoken"},
		{name: "protocol alone", args: []string{"--otlp-protocol", "grpc"}, wantErr: "--otlp-protocol needs --otlp-endpoint"},
		{name: "bad variable", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "::"}, wantErr: "OTEL_EXPORTER_OTLP_ENDPOINT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			_, errOut, code := run(t, append([]string{"record", "-f", "preemption", "-o", filepath.Join(t.TempDir(), "r.ssr")}, tt.args...)...)
			if code == 0 || !strings.Contains(errOut, tt.wantErr) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want one line with %q", code, errOut, tt.wantErr)
			}
		})
	}

	// The standard variable alone turns the export on, with /v1/traces
	// added to its base URL; OTEL_SDK_DISABLED turns it off.
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.HTTP)
	path := filepath.Join(t.TempDir(), "r.ssr")
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 || !strings.Contains(errOut, "otlp: sent 2 cycles as traces") || !strings.Contains(errOut, rcv.HTTP+"/v1/traces") {
		t.Errorf("with OTEL_EXPORTER_OTLP_ENDPOINT: exit %d, %q", code, errOut)
	}
	rcv.Spans(t, 2)
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 || strings.Contains(errOut, "otlp") {
		t.Errorf("with OTEL_SDK_DISABLED=true: exit %d, %q", code, errOut)
	}
}

// A what-if's cycle, traced, says which change made it.
func TestWhatIfTraceNamesTheChange(t *testing.T) {
	rcv := otlptest.Start(t)
	out, errOut, code := run(t, "whatif", "-f", "unschedulable", "--pod", "stuck", "--patch-node", `cordoned={"spec":{"unschedulable":false}}`,
		"-o", "json", "--otlp-endpoint", rcv.HTTP)
	if code != 0 || !strings.Contains(errOut, "otlp: sent 1 cycle as traces") {
		t.Fatalf("whatif: exit %d: %s", code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Errorf("whatif -o json with --otlp-endpoint printed more than the document: %v", err)
	}
	root := otlptest.Roots(rcv.Spans(t, 1))[0]
	if got := root.Attrs["schedscope.whatif"]; got != "patch node cordoned at spec.unschedulable" {
		t.Errorf("schedscope.whatif = %q", got)
	}
	if root.Attrs["scheduler.selected_node"] != "cordoned" {
		t.Errorf("the what-if's cycle %v", root.Attrs)
	}
}

// What a user writes in a what-if (a patch's values, a label's key) is not
// sent: the trace names the fields the changes touch.
func TestWhatIfTraceSendsNoValue(t *testing.T) {
	const secret, key = "SENTINEL-s3cr3t", "SENTINEL-KEY"
	rcv := otlptest.Start(t)
	_, errOut, code := run(t, "whatif", "-f", "unschedulable", "--pod", "stuck", "-o", "json", "--otlp-endpoint", rcv.HTTP,
		"--patch-pod", `{"spec":{"nodeSelector":null,"containers":[{"name":"c","env":[{"name":"DB_PASSWORD","value":"`+secret+`"}]}]}}`,
		"--patch-node", `too-small={"metadata":{"labels":{"`+key+`":"`+secret+`"}}}`)
	if code != 0 {
		t.Fatalf("whatif: exit %d: %s", code, errOut)
	}
	spans := rcv.Spans(t, 1)
	for _, s := range spans {
		data, _ := json.Marshal(s)
		for _, v := range []string{secret, key, "DB_PASSWORD"} {
			if strings.Contains(string(data), v) {
				t.Errorf("span %s carries %q: %s", s.Name, v, data)
			}
		}
	}
	want := "patch node too-small at metadata.labels; patch the pod at spec.containers[0].env, spec.containers[0].name, spec.nodeSelector"
	if got := otlptest.Roots(spans)[0].Attrs["schedscope.whatif"]; got != want {
		t.Errorf("schedscope.whatif = %q, want %q", got, want)
	}
}
