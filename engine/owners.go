package engine

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
