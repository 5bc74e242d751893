package engine

import (
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/schedscope/schedscope/engine/controllers"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// withOwner gives ref the workload p belongs to: its controller, and that
// controller's own controller when the run's informers hold it (a
// ReplicaSet's Deployment, in a fixture run whose controllers read
// ReplicaSets). In live mode the first controller is named.
func (e *Engine) withOwner(ref recorder.PodRef, p *v1.Pod) recorder.PodRef {
	c := metav1.GetControllerOf(p)
	if c == nil {
		return ref
	}
	owner := &recorder.Owner{Kind: c.Kind, Name: c.Name}
	if c.Kind == "ReplicaSet" && e.ctrls != nil {
		if rs, err := e.informers.Apps().V1().ReplicaSets().Lister().ReplicaSets(p.Namespace).Get(c.Name); err == nil {
			if d := metav1.GetControllerOf(rs); d != nil {
				owner = &recorder.Owner{Kind: d.Kind, Name: d.Name}
			}
		}
	} else if h := p.Labels[appsv1.DefaultDeploymentUniqueLabelKey]; c.Kind == "ReplicaSet" && h != "" && strings.HasSuffix(c.Name, "-"+h) {
		// Live mode reads no ReplicaSets: the Deployment controller names
		// its ReplicaSets <deployment>-<pod-template-hash>.
		owner = &recorder.Owner{Kind: "Deployment", Name: strings.TrimSuffix(c.Name, "-"+h)}
	}
	ref.Owner = owner
	return ref
}

// ownersOutside lists the owners fx's objects name but do not hold (by
// controllers.OwnerKey, with the UID the reference carries), and reports
// whether there is anything for a garbage collector to do: a workload,
// whose controller makes owned objects, or an object that names an owner.
func ownersOutside(fx *fixture.Fixture) (map[string]types.UID, bool) {
	all := slices.Clone(fx.Objects)
	for _, p := range fx.Pending {
		all = append(all, p)
	}
	for _, s := range fx.Steps {
		all = append(all, s.Object)
	}
	held := map[string]bool{}
	owned := false
	for _, o := range all {
		m, err := metaOf(o)
		if err != nil {
			continue
		}
		kind := fixture.KindName(o)
		held[controllers.OwnerKey(kind, m.Namespace, m.Name)] = true
		owned = owned || fixture.IsWorkload(kind) || len(m.OwnerReferences) > 0
	}
	mapper := testrestmapper.TestOnlyStaticRESTMapper(legacyscheme.Scheme)
	outside := map[string]types.UID{}
	for _, o := range all {
		m, err := metaOf(o)
		if err != nil {
			continue
		}
		for _, ref := range m.OwnerReferences {
			ns := m.Namespace
			gv, err := schema.ParseGroupVersion(ref.APIVersion)
			if err != nil {
				continue
			}
			if mapping, err := mapper.RESTMapping(gv.WithKind(ref.Kind).GroupKind(), gv.Version); err == nil && mapping.Scope.Name() != meta.RESTScopeNameNamespace {
				ns = ""
			}
			if key := controllers.OwnerKey(ref.Kind, ns, ref.Name); !held[key] {
				outside[key] = ref.UID
			}
		}
	}
	return outside, owned
}

// deletes reports whether fx's timeline deletes an object.
// fixtureKinds lists the kinds of the fixture's objects, at the start and in
// its timeline (pending pods are pods: no workload controller syncs them).
func fixtureKinds(fx *fixture.Fixture) map[string]bool {
	kinds := map[string]bool{}
	for _, o := range fx.Objects {
		kinds[fixture.KindName(o)] = true
	}
	for _, s := range fx.Steps {
		kinds[fixture.KindName(s.Object)] = true
	}
	return kinds
}

func deletes(fx *fixture.Fixture) bool {
	for _, s := range fx.Steps {
		if s.Op == fixture.StepDelete {
			return true
		}
	}
	return false
}
