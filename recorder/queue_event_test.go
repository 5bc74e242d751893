package recorder

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// withQueueRecords appends a queue record, an empty one and one without
// a pod to a recording: fuzzing seeds.
func withQueueRecords(data []byte) []byte {
	for _, body := range []string{
		`{"kind":"queue","queue":{"seq":1,"time":"2026-01-01T00:00:00Z","pod":{"namespace":"d","name":"p"},"operation":"Move","toQueue":"Backoff","event":"NodeAdd","hints":[{"plugin":"NodeResourcesFit","hint":"Queue"}],"backoff":"1s"}}`,
		`{"kind":"queue"}`,
		`{"kind":"queue","queue":{"operation":"Add"}}`,
	} {
		data = append(data, checksumLine([]byte(body))...)
	}
	return data
}

// TestReadVersion1 reads a recording written by schedscope before queue
// records existed (schema version 1, testdata/v1/preemption.rec: the
// preemption fixture's two cycles), with each reader.
func TestReadVersion1(t *testing.T) {
	data, err := os.ReadFile("testdata/v1/preemption.rec")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if rec.Header.SchemaVersion != 1 {
		t.Fatalf("header schemaVersion %d, want the stored file's 1", rec.Header.SchemaVersion)
	}
	var got []string
	for _, c := range rec.Cycles {
		got = append(got, c.Pod.Key()+" "+c.Outcome.Result+" "+c.Outcome.Node+c.Outcome.NominatedNode)
	}
	want := []string{"default/urgent Unschedulable node-1", "default/urgent Bound node-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	if len(rec.Problems) != 0 || len(rec.Queue) != 0 {
		t.Errorf("problems %v, %d queue events; want none", rec.Problems, len(rec.Queue))
	}
	ix, err := NewIndexReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("NewIndexReader: %v", err)
	}
	entries := 0
	for r, err := range ix.All() {
		if err != nil {
			t.Fatalf("index: %v", err)
		}
		if r.Entry != nil {
			entries++
		}
	}
	if entries != 2 {
		t.Errorf("index read %d cycle entries, want 2", entries)
	}
}

func TestQueueRecordsRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	events := []*QueueEvent{
		{Seq: 1, Time: at, Pod: PodRef{Namespace: "default", Name: "web", UID: "u1"}, Op: QueueAdd, To: QueueActive, Event: "UnscheduledPodAdd"},
		{Seq: 2, Time: at.Add(time.Second), Pod: PodRef{Namespace: "default", Name: "web", UID: "u1"}, Op: QueueMove, To: QueueBackoff, Event: "NodeAdd",
			Hints: []QueueHint{{Plugin: "NodeResourcesFit", Event: "NodeAdd", Hint: HintQueue}}, Attempts: 2, Backoff: Duration(2 * time.Second), BackoffUntil: at.Add(3 * time.Second)},
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{KubernetesVersion: "v1.37.1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if err := w.WriteQueue(ev); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(events, rec.Queue); diff != "" {
		t.Errorf("queue events (-want +got):\n%s", diff)
	}
	ix, err := NewIndexReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var skimmed []*QueueEvent
	for r, err := range ix.All() {
		if err != nil {
			t.Fatalf("index: %v", err)
		}
		if r.Queue != nil {
			skimmed = append(skimmed, r.Queue)
		}
	}
	if diff := cmp.Diff(events, skimmed); diff != "" {
		t.Errorf("index reader's queue events (-want +got):\n%s", diff)
	}
}

func TestQueueRecordChecked(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"no body", `{"kind":"queue"}`, "queue record without body"},
		{"no pod", `{"kind":"queue","queue":{"seq":3,"operation":"Move"}}`, "queue event 3: pod.name is empty"},
		{"no op", `{"kind":"queue","queue":{"seq":4,"pod":{"namespace":"d","name":"p"}}}`, "queue event 4: operation is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := append(writeRecording(t), []byte(checksumLine([]byte(tt.body)))...)
			rec, err := Load(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Error(), tt.want) {
				t.Fatalf("problems %v, want one saying %q", rec.Problems, tt.want)
			}
		})
	}
}
