package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A pod whose claim no node can allocate gets the numbers behind
// DynamicResources' "cannot allocate all claims" on each node: the devices
// its request asks for against those of the class the node publishes and
// those allocated already (node-b's two, to first's claim).
func TestDeviceShortfallsOfAClaimNoNodeCanAllocate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "dra-devices.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("dra-devices.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	res, cycles, _ := runEngineWith(t, fx, Options{}, false)
	if res.Bindings["default/first"] != "node-b" || res.Bindings["default/trainer"] != "" {
		t.Fatalf("bindings %v; want first on node-b and trainer nowhere", res.Bindings)
	}
	var trainer *recorder.Cycle
	for _, c := range cycles {
		if c.Pod.Name == "trainer" {
			trainer = c
		}
	}
	if trainer == nil {
		t.Fatal("trainer had no cycle")
	}
	got := map[string][]recorder.DeviceShortfall{}
	for i, list := range trainer.DeviceShortfalls {
		got[trainer.NodeName(i)] = list
	}
	req := func(published, allocated int64) []recorder.DeviceShortfall {
		return []recorder.DeviceShortfall{{Claim: "default/three-gpus", Request: "gpus", Class: "gpu", Asked: 3, Published: published, Allocated: allocated}}
	}
	want := map[string][]recorder.DeviceShortfall{"node-a": req(2, 0), "node-b": req(3, 2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trainer's device shortfalls by node (-want +got):\n%s", diff)
	}
	for _, c := range cycles {
		if c.Pod.Name == "first" && c.DeviceShortfalls != nil {
			t.Errorf("first, bound, has device shortfalls %v", c.DeviceShortfalls)
		}
	}
}
