package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/features"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// TestCapacityPodGroup: on gang.yaml's two nodes of 2 cpu, train (minCount
// 2, two members of 500m) binds and leaves 3 cpu, room for three more
// copies of it: the search runs 1, 2 and 4 copies, and in the last three
// bind and the fourth fails for cpu, its members each asking 500m where
// the nodes had none free. infer, which does not bind as it is, gets no
// copies and its own message.
func TestCapacityPodGroup(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	data, err := os.ReadFile(filepath.Join("testdata", "gang.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.Load("gang.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := CapacityPodGroup(ctx, fx, recorder.PodGroupRef{Namespace: "default", Name: "train"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Bound         bool
		More          int
		Copies        []string
		Runs          []int
		StoppedGroup  string
		Short         []string
		Policy        string
		MinCount      int32
		Members       int
		MemberStopped bool
	}
	var short []string
	for _, s := range res.Short {
		short = append(short, s.Resource)
	}
	want := got{Bound: true, More: 3, Copies: []string{"train-copy-1", "train-copy-2", "train-copy-3"}, Runs: []int{0, 1, 2, 4},
		StoppedGroup: "train-copy-4", Short: []string{"cpu"}, Policy: recorder.PolicyGang, MinCount: 2, Members: 2, MemberStopped: true}
	if diff := cmp.Diff(want, got{res.Bound, res.More, res.Copies, res.Runs, res.StoppedGroup, short, res.Policy, res.MinCount, res.Members,
		strings.HasPrefix(res.Member, "train-") && strings.Contains(res.MemberMessage, "Insufficient cpu")}); diff != "" {
		t.Errorf("capacity of train (-want +got):\n%s\nstopped: %q; member %s: %q", diff, res.Stopped, res.Member, res.MemberMessage)
	}
	if !strings.Contains(res.Stopped, "minCount (2) cannot be satisfied") {
		t.Errorf("stopped %q, want the gang's minCount message", res.Stopped)
	}

	res, err = CapacityPodGroup(ctx, fx, recorder.PodGroupRef{Namespace: "default", Name: "infer"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bound || res.More != 0 || len(res.Runs) != 1 || !strings.Contains(res.Stopped, "minCount (3) cannot be satisfied") || res.Member != "infer-2" {
		t.Errorf("infer: %+v, want unbound after one run, stopped by its minCount, infer-2 fitting nowhere", res)
	}

	for _, tt := range []struct{ group, want string }{
		{"batch", "has 1 member(s), fewer than its minCount 2"},
		{"nope", "no PodGroup default/nope"},
	} {
		_, err := CapacityPodGroup(ctx, fx, recorder.PodGroupRef{Namespace: "default", Name: tt.group}, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line saying %q", tt.group, err, tt.want)
		}
	}
}

// TestCapacityPodGroupBasic: a copy of a Basic group counts when every
// member bound: on one node of 2 cpu, three members of 300m leave room for
// one more copy (the second copy's first member finds 200m); three of
// 800m do not all bind, so the group itself does not fit whole.
func TestCapacityPodGroupBasic(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.GenericWorkload, true)
	basic := func(cpu string) *fixture.Fixture {
		data := "apiVersion: v1\nkind: Node\nmetadata: {name: s1}\nstatus: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"110\"}}\n" +
			"---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: web}\nspec:\n  schedulingPolicy: {basic: {}}\n"
		for _, n := range []string{"web-0", "web-1", "web-2"} {
			data += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + n + "}\nspec:\n  schedulingGroup: {podGroupName: web}\n  containers: [{name: c, image: pause, resources: {requests: {cpu: " + cpu + "}}}]\n"
		}
		fx, err := fixture.Load("basic.yaml", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return fx
	}
	web := recorder.PodGroupRef{Namespace: "default", Name: "web"}
	res, err := CapacityPodGroup(context.Background(), basic("300m"), web, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Bound || res.More != 1 || res.Policy != recorder.PolicyBasic || res.StoppedGroup != "web-copy-2" || len(res.Short) != 1 || res.Short[0].Free != 200 {
		t.Errorf("300m: %+v, want the group bound, one more copy, web-copy-2 stopped with 200m free", res)
	}
	res, err = CapacityPodGroup(context.Background(), basic("800m"), web, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bound || res.More != 0 || res.Member != "web-2" {
		t.Errorf("800m: %+v, want the group not bound whole (web-2 fits nowhere) and no copy", res)
	}
}
