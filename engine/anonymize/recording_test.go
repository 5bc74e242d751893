package anonymize_test

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/recorder"
)

// writeRecording writes a header and cycles as the recorder does.
func writeRecording(t *testing.T, cycles ...*recorder.Cycle) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := recorder.NewWriter(&buf, recorder.Header{KubernetesVersion: "v1.37.1", Created: time.Unix(1e9, 0).UTC(),
		Source: recorder.Source{Kind: "cluster", Name: "prod-eu-west-admin@acme"},
		Profiles: []recorder.Profile{{SchedulerName: "default-scheduler", ExtensionPoints: []recorder.ExtensionPoint{
			{Name: "Filter", Plugins: []recorder.PluginRef{{Name: "TaintToleration"}, {Name: "AcmeGuard"}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cycles {
		if err := w.WriteCycle(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteEnd(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A message that holds words no rule knows (an out-of-tree plugin's own,
// a taint key only a message names) has them redacted, each counted;
// names the records' fields hold are replaced where a message names them
// too; the output is a recording that reads back whole, deciding as the
// original did; no name of the original is left in its bytes.
func TestRecordingRedactsUnknownWords(t *testing.T) {
	nodes := &recorder.NodeSet{ID: 1, Names: []string{"prod-db-1", "prod-db-2"}, Info: []recorder.NodeInfo{
		{Labels: map[string]string{"kubernetes.io/hostname": "prod-db-1", "team": "payments"}, Allocatable: map[string]int64{"cpu": 4000}},
		{Labels: map[string]string{"kubernetes.io/hostname": "prod-db-2", "team": "payments", "tier": "gold_plus"}, Allocatable: map[string]int64{"cpu": 4000}},
	}}
	c := &recorder.Cycle{Seq: 1, Profile: "default-scheduler", Attempt: 1, Start: time.Unix(1e9, 0).UTC(), Nodes: nodes,
		Pod: recorder.PodRef{Namespace: "shop", Name: "checkout-7d9f8-abcde", UID: "0c5e1c9a-1f7b-4b8e-9d6a-3c2e1f0a9b8c",
			Owner: &recorder.Owner{Kind: "Deployment", Name: "checkout"}},
		Requests: map[string]int64{"cpu": 500},
		Filter: &recorder.FilterPhase{Plugins: []string{"TaintToleration", "AcmeGuard"}, Evaluated: 2, Rejected: []recorder.NodeStatus{
			{Node: 0, Plugin: 0, Code: recorder.CodeUnschedulable, Reasons: []string{"node(s) had untolerated taint {dedicated: payments}"}},
			{Node: 1, Plugin: 1, Code: recorder.CodeUnschedulable, Reasons: []string{"frobnicated: checkout-7d9f8-abcde may not run on prod-db-2 (tier gold_plus)"}},
		}},
		Outcome: recorder.Outcome{Result: recorder.ResultUnschedulable, Reason: "Unschedulable",
			Message: "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: payments}, 1 frobnicated."},
	}
	data := writeRecording(t, c)
	rw, err := anonymize.ReadRecording("incident.rec", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rw.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"prod-db", "payments", "gold", "plus", "tier", "shop", "checkout", "0c5e1c9a", "@acme", "frobnicated", "dedicated", "prod-eu-west"} {
		if bytes.Contains(bytes.ToLower(out.Bytes()), []byte(name)) {
			t.Errorf("the output still holds %q", name)
		}
	}
	if diff := cmp.Diff([]string{"dedicated", "frobnicated"}, rw.Text().Unknown()); diff != "" {
		t.Errorf("redacted words (-want +got):\n%s", diff)
	}
	if got := rw.Text().Redactions(); got != 4 {
		t.Errorf("%d words redacted, want 4 (dedicated twice, frobnicated twice)", got)
	}
	rec, err := recorder.Load(&out)
	if err != nil || len(rec.Problems) > 0 || len(rec.Cycles) != 1 {
		t.Fatalf("the output does not read back whole: %v, problems %v", err, rec.Problems)
	}
	g := rec.Cycles[0]
	want := map[string]string{
		"node":   "node-001 node-002",
		"pod":    "ns-001/deploy-001-7d9f8-abcde",
		"owner":  "Deployment/deploy-001",
		"reason": "node(s) had untolerated taint {" + anonymize.Redacted + ": value-002}",
		"other":  anonymize.Redacted + ": deploy-001-7d9f8-abcde may not run on node-002 (key-002 value-001)",
		"plugin": "TaintToleration AcmeGuard",
		"label":  "node-001 value-002",
	}
	got := map[string]string{
		"node":   strings.Join(g.Nodes.Names, " "),
		"pod":    g.Pod.Key(),
		"owner":  g.Pod.Owner.String(),
		"reason": g.Filter.Rejected[0].Reasons[0],
		"other":  g.Filter.Rejected[1].Reasons[0],
		"plugin": strings.Join(g.Filter.Plugins, " "),
		"label":  g.Nodes.Info[0].Labels["kubernetes.io/hostname"] + " " + g.Nodes.Info[0].Labels["key-001"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the anonymized cycle (-want +got):\n%s", diff)
	}
	if g.Outcome.Result != recorder.ResultUnschedulable || g.Requests["cpu"] != 500 || g.Filter.Rejected[1].Code != recorder.CodeUnschedulable {
		t.Errorf("a decision changed: %+v", g.Outcome)
	}
	if s := rec.Header.Source; s.Name != "anonymized" || s.Kind != "cluster" || !rec.Header.Anonymized {
		t.Errorf("source %+v (anonymized %t), want the cluster's context anonymized, and the header to say so", s, rec.Header.Anonymized)
	}
}

// A recording with a damaged record in the middle is refused in one
// line that says where; a torn last record too.
func TestRecordingRefusesDamage(t *testing.T) {
	c := func(seq int) *recorder.Cycle {
		return &recorder.Cycle{Seq: seq, Pod: recorder.PodRef{Namespace: "default", Name: "web"}, Outcome: recorder.Outcome{Result: recorder.ResultError}}
	}
	data := writeRecording(t, c(1), c(2), c(3))
	lines := bytes.SplitAfter(data, []byte("\n"))
	damaged := bytes.Join([][]byte{lines[0], bytes.Replace(lines[1], []byte(`"web"`), []byte(`"wep"`), 1), lines[2], lines[3], lines[4]}, nil)
	torn := data[:len(data)-5]
	for name, in := range map[string][]byte{"damaged": damaged, "torn": torn} {
		_, err := anonymize.ReadRecording("incident.rec", bytes.NewReader(in))
		if err == nil {
			t.Errorf("%s: read, want refused", name)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "incident.rec: ") || !strings.Contains(msg, "byte") {
			t.Errorf("%s: %q, want one line naming the file and where", name, msg)
		}
	}
}

// recordStringFields classifies every string a recording's records and
// header hold, by the struct field that holds it (a map's keys and
// values as {key} and {}):
//
//	name     recording.go maps it as a name of its class
//	kept     recording.go keeps it, and notes it kept for Text
//	text     left to Text: a code, a verdict, a message, a plugin's name
//	         the header's profiles keep (anything not in the vocabulary is
//	         redacted)
//	source   Map.header rewrites it (where the recording came from)
//	derived  filled by the reader from a cycle, never written
var recordStringFields = map[string]string{
	"BudgetState.Error": "text", "BudgetState.Name": "name", "BudgetState.Namespace": "name",
	"Candidate.Code": "text", "Candidate.Node": "name", "Candidate.Reasons": "text",
	"ClaimState.Name": "name", "ClaimState.Namespace": "name", "ClaimState.Phase": "text",
	"ClaimState.SelectedNode": "name", "ClaimState.StorageClass": "name", "ClaimState.Volume": "name",
	"Cycle.BatchHint": "text", "Cycle.NonZeroRequests{key}": "kept", "Cycle.Profile": "kept", "Cycle.Requests{key}": "kept",
	"CycleEntry.Node": "derived", "CycleEntry.NominatedNode": "derived", "CycleEntry.Plugins": "derived",
	"CycleEntry.Profile": "derived", "CycleEntry.Result": "derived",
	"DeviceShortfall.Claim": "name", "DeviceShortfall.Class": "name", "DeviceShortfall.Request": "kept",
	"DiagnosticCell.Code": "text", "DiagnosticCell.Reasons": "text", "DiagnosticFilter.Plugins": "text",
	"ExtensionPoint.Name": "kept",
	"FastPath.Code":       "text", "FastPath.Kind": "text", "FastPath.Node": "name", "FastPath.Reasons": "text",
	"FilterPhase.Plugins": "text", "FilterPhase.Skipped": "text",
	"GroupCondition.Message": "text", "GroupCondition.Reason": "text", "GroupCondition.Status": "text", "GroupCondition.Type": "text",
	"GroupMember.Code": "text", "GroupMember.Final": "text", "GroupMember.Message": "text", "GroupMember.Node": "name",
	"GroupMember.PodGroup": "name",
	"GroupOutcome.Message": "text", "GroupOutcome.Result": "text", "GroupStatus.Code": "text", "GroupStatus.Message": "text",
	"Header.Clock": "kept", "Header.FeatureGates{key}": "kept", "Header.Format": "kept", "Header.KubernetesVersion": "kept",
	"Header.SchedscopeVersion": "kept",
	"HierarchyGroup.Kind":      "kept", "HierarchyGroup.Name": "name", "HierarchyGroup.Parent": "name", "HierarchyGroup.Policy": "kept",
	"HierarchyGroup.Topology":   "name",
	"NodeInfo.Allocatable{key}": "kept", "NodeInfo.Labels{key}": "name", "NodeInfo.Labels{}": "name", "NodeSet.Names": "name",
	"NodeStatus.Code": "text", "NodeStatus.Reasons": "text", "NodeUse.NonZero{key}": "kept", "NodeUse.Requested{key}": "kept",
	"Observed.Message": "text", "Observed.Node": "name", "Observed.Nominated": "name", "Observed.Predicted": "name", "Observed.TieSet": "name",
	"Outcome.Message": "text", "Outcome.Node": "name", "Outcome.NominatedNode": "name", "Outcome.Reason": "text", "Outcome.Result": "text",
	"Owner.Kind": "kept", "Owner.Name": "name", "PhaseTiming.Phase": "text", "Placement.Node": "name", "Placement.Pod": "name",
	"PlacementCandidate.Code": "text", "PlacementCandidate.Domain": "name", "PlacementCandidate.Message": "text",
	"PlacementCandidate.Name": "name", "PlacementCandidate.Nodes": "name",
	"PlacementMember.Code": "text", "PlacementMember.Message": "text", "PlacementMember.Node": "name", "PlacementMember.Pod": "name",
	"PlacementPhase.Code": "text", "PlacementPhase.Generator": "kept", "PlacementPhase.Message": "text", "PlacementPhase.TopologyKey": "name",
	"PlacementPluginScore.Plugin": "kept", "PlacementVerdict.Code": "text", "PlacementVerdict.Message": "text",
	"PluginRef.Name": "kept", "PluginStatus.Code": "text", "PluginStatus.Plugin": "text", "PluginStatus.Reasons": "text",
	"PodGroupCycle.Policy": "kept", "PodGroupCycle.Profile": "kept", "PodGroupRef.Name": "name", "PodGroupRef.Namespace": "name",
	"PodRef.Name": "name", "PodRef.Namespace": "name", "PodRef.Node": "name", "PodRef.UID": "name",
	"PostFilterPhase.Code": "text", "PostFilterPhase.Message": "text", "PostFilterPhase.NominatedNode": "name",
	"PreFilterPhase.Code": "text", "PreFilterPhase.Message": "text", "PreFilterPhase.NodeSubset": "name", "PreFilterPhase.SubsetPlugins": "text",
	"Profile.SchedulerName": "kept",
	"QueueEvent.Event":      "text", "QueueEvent.Flush": "text", "QueueEvent.From": "text", "QueueEvent.GateReasons": "text",
	"QueueEvent.GatedBy": "text", "QueueEvent.Op": "text", "QueueEvent.To": "text",
	"QueueHint.Error": "text", "QueueHint.Event": "text", "QueueHint.Hint": "text", "QueueHint.Plugin": "text",
	"Record.Kind": "text", "ScorePlugin.Name": "text", "Selection.Node": "name", "Selection.Rule": "text",
	"Source.Arrival": "source", "Source.Config": "source", "Source.ConfigDigest": "source", "Source.Digest": "source",
	"Source.Kind": "kept", "Source.Name": "source",
	"Taint.Effect": "kept", "Taint.Key": "name", "Taint.Value": "name",
	"WorkloadPod.Name": "name", "WorkloadPod.Node": "name",
	"WorkloadState.Kind": "text", "WorkloadState.Name": "name", "WorkloadState.Namespace": "name",
}

// TestEveryRecordStringIsClassified fails when a recorder type gains a
// string field recordStringFields does not classify (or loses one it
// does): Text would redact a new field's words rather than leak them, but
// a name there would be redacted where it should be mapped, and the
// rewrite would no longer read as the original did. Classify the field,
// and map or keep it in recording.go.
func TestEveryRecordStringIsClassified(t *testing.T) {
	found := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, field string) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(typ.Elem(), field)
		case reflect.Map:
			walk(typ.Key(), field+"{key}")
			walk(typ.Elem(), field+"{}")
		case reflect.Struct:
			if seen[typ] {
				return
			}
			seen[typ] = true
			for i := range typ.NumField() {
				if f := typ.Field(i); f.IsExported() {
					walk(f.Type, typ.Name()+"."+f.Name)
				}
			}
		case reflect.String:
			found[field] = true
		}
	}
	walk(reflect.TypeOf(recorder.Record{}), "Record")
	walk(reflect.TypeOf(recorder.Header{}), "Header")
	if len(found) < 100 {
		t.Fatalf("only %d string fields found: the walk is broken", len(found))
	}
	for _, f := range slices.Sorted(maps.Keys(found)) {
		if _, ok := recordStringFields[f]; !ok {
			t.Errorf("%s is a string of a recording that recordStringFields does not classify: map or keep it in recording.go, then list it", f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(recordStringFields)) {
		if !found[f] {
			t.Errorf("%s is classified but no recorder type holds it any more", f)
		}
	}
}
