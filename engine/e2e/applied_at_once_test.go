package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/engine/fixture"
)

// appliedRuns is how many times the real cluster is given each file.
const appliedRuns = 3

// applySpacing is how far apart the documents are created: kubectl apply
// -f sends one request per document, one after the other, each a few
// milliseconds on a local API server.
const applySpacing = 5 * time.Millisecond

// TestAppliedAtOnceMatchesRealCluster creates each file of
// testdata/applied-at-once the way kubectl apply -f does, on a control
// plane whose kube-scheduler and kube-controller-manager already run: the
// nodes and namespaces first (the cluster there is), then every workload in
// document order, applySpacing apart, so that the controllers start on
// each as it appears. It does so appliedRuns times, and compares
// schedscope's run of the same file, owner by owner, with the outcome the
// real cluster gave in most runs. An owner whose outcome the real cluster
// does not repeat in most runs is named and left out: the real cluster is
// not stable there.
func TestAppliedAtOnceMatchesRealCluster(t *testing.T) {
	klog.SetOutput(discardWriter{})
	klog.LogToStderr(false)
	paths, err := filepath.Glob("testdata/applied-at-once/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no files under testdata/applied-at-once: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var reals []clusterOutcome
			for run := range appliedRuns {
				// A subtest each: a control plane's parts stop with the
				// test that started them (kube-controller-manager's
				// configuration is registered once per process).
				t.Run(fmt.Sprintf("real-%d", run+1), func(t *testing.T) {
					objs, err := fixture.DecodeManifest(path, data)
					if err != nil {
						t.Fatal(err)
					}
					real := appliedAtOnce(t, objs)
					reals = append(reals, real)
					t.Logf("real cluster, run %d: %s", run+1, describe(real))
				})
			}
			if len(reals) < appliedRuns {
				t.Fatalf("%d of %d runs on the real cluster ended", len(reals), appliedRuns)
			}
			fx, err := fixture.Load(path, data)
			if err != nil {
				t.Fatal(err)
			}
			ours := engineOutcome(t, fx)
			t.Logf("schedscope: %s", describe(ours))
			compared := 0
			for owner, st := range ours.Owners {
				usual, ok := usualOutcome(reals, owner)
				if !ok {
					t.Logf("%s: the real cluster gave no outcome in most runs (not stable run to run); left out", owner)
					continue
				}
				compared++
				if !reflect.DeepEqual(usual, st) {
					t.Errorf("%s: the real cluster's usual outcome %+v, schedscope %+v", owner, usual, st)
				}
			}
			for owner := range reals[0].Owners {
				if _, ok := ours.Owners[owner]; !ok {
					t.Errorf("%s: in the real cluster, not in schedscope's run", owner)
				}
			}
			if compared == 0 {
				t.Fatalf("the real cluster was stable for no owner: nothing was compared")
			}
		})
	}
}

// usualOutcome is the state of owner that most of runs agree on.
func usualOutcome(runs []clusterOutcome, owner string) (ownerState, bool) {
	for i, r := range runs {
		same := 0
		for _, o := range runs {
			if reflect.DeepEqual(r.Owners[owner], o.Owners[owner]) {
				same++
			}
		}
		if same*2 > len(runs) {
			return runs[i].Owners[owner], true
		}
	}
	return ownerState{}, false
}

// appliedAtOnce creates objs on a new control plane as kubectl apply -f
// would, with the scheduler and the controllers running, and returns the
// outcome once it has settled.
func appliedAtOnce(t *testing.T, objs []runtime.Object) clusterOutcome {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cp := startControlPlane(t)
	var cluster, workloads []runtime.Object
	for _, o := range objs {
		switch o.(type) {
		case *v1.Node, *v1.Namespace, *storagev1.StorageClass:
			cluster = append(cluster, o)
		default:
			workloads = append(workloads, o)
		}
	}
	if pending := applyObjects(t, ctx, cp, cluster); len(pending) > 0 {
		t.Fatalf("a pending pod among the cluster's objects")
	}
	cp.startScheduler(t, ctx)
	cp.startControllerManager(t, ctx)
	controllersReady(t, ctx, cp)
	for _, o := range workloads {
		if pending := applyObjects(t, ctx, cp, []runtime.Object{o}); len(pending) > 0 {
			t.Fatalf("%s: a bare pending pod; this test applies workloads", pending[0].Name)
		}
		time.Sleep(applySpacing)
	}
	return waitClusterSettled(t, ctx, cp)
}

// controllersReady waits until kube-controller-manager's Deployment and
// ReplicaSet controllers act on what is created: a file applied to a
// running cluster meets controllers that have long synced, not ones still
// listing. A Deployment of no replicas in kube-system is created, and its
// ReplicaSet's status observed.
func controllersReady(t *testing.T, ctx context.Context, cp *controlPlane) {
	t.Helper()
	zero := int32(0)
	labels := map[string]string{"app": "warm-up"}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "warm-up", Namespace: "kube-system"},
		Spec: appsv1.DeploymentSpec{Replicas: &zero, Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "pause"}}}}}}
	if _, err := cp.client.AppsV1().Deployments("kube-system").Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		rss, err := cp.client.AppsV1().ReplicaSets("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "app=warm-up"})
		if err == nil && len(rss.Items) == 1 && rss.Items[0].Status.ObservedGeneration > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("kube-controller-manager's Deployment and ReplicaSet controllers did not act on a Deployment within a minute")
}
