package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	clienttesting "k8s.io/client-go/testing"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
)

// bindReactor does what the API server does for a pods/binding create.
func (e *Engine) bindReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	if action.GetSubresource() != "binding" {
		return false, nil, nil
	}
	b, ok := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
	if !ok {
		return true, nil, errors.New("binding: unexpected object")
	}
	e.trackerMu.Lock()
	defer e.trackerMu.Unlock()
	obj, err := e.store.stored(v1.SchemeGroupVersion.WithResource("pods"), b.Namespace, b.Name)
	if err != nil {
		return true, nil, err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %s/%s is already assigned to node %q", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = b.Target.Name
	podutil.UpdatePodCondition(&pod.Status, &v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.Now()})
	undo := e.events.writing("pods")
	if err := e.versions.write(&pod.ObjectMeta, nil, func() error {
		return e.store.Update(v1.SchemeGroupVersion.WithResource("pods"), pod, pod.Namespace)
	}); err != nil {
		undo()
		return true, nil, err
	}
	return true, b, nil
}

// versions gives written objects their resourceVersions. In a fixture run
// (global) they count writes to the whole API server, as etcd's revision
// does, and events go out in that order: the controllers compare the
// version they wrote with the one their informer has read (client-go's
// consistency store). In live mode an object's version moves on from the
// cluster's.
type versions struct {
	mu     sync.Mutex
	global bool
	n      int64
}

// newVersions starts a fixture run's count after the versions its objects carry.
func newVersions(global bool, objs []runtime.Object) *versions {
	v := &versions{global: global, n: 1}
	for _, o := range objs {
		if m, err := metaOf(o); err == nil {
			if n, err := strconv.ParseInt(m.ResourceVersion, 10, 64); err == nil && n > v.n {
				v.n = n
			}
		}
	}
	return v
}

// staleWrite is the API server's words for an update of an old version.
const staleWrite = "the object has been modified; please apply your changes to the latest version and try again"

// write gives m its new version and makes the write that stores it. check,
// if set, may refuse the write first, with the versions locked.
func (v *versions) write(m *metav1.ObjectMeta, check, store func() error) error {
	if !v.global {
		bumpVersion(m)
		return store()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	sent := m.ResourceVersion
	m.ResourceVersion = strconv.FormatInt(v.n+1, 10)
	if err := store(); err != nil {
		m.ResourceVersion = sent
		return err
	}
	v.n++
	return nil
}

// versioningTracker gives each created, updated or patched object a new
// resourceVersion, and shows each updated or patched object to written.
type versioningTracker struct {
	clienttesting.ObjectTracker
	versions *versions
	written  func(runtime.Object)
}

func (t versioningTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	m, err := metaOf(obj)
	if err != nil || !t.versions.global {
		return t.ObjectTracker.Create(gvr, obj, ns, opts...)
	}
	return t.versions.write(m, nil, func() error { return t.ObjectTracker.Create(gvr, obj, ns, opts...) })
}

func (t versioningTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	store := func() error { return t.ObjectTracker.Update(gvr, obj, ns, opts...) }
	m, err := metaOf(obj)
	if err != nil {
		return store()
	}
	var check func() error
	if m.ResourceVersion != "" {
		// As the API server does, refuse an update of a version that is no
		// longer the stored one: a controller working from its cache
		// retries on the object as it now is.
		check = func() error {
			cur, err := t.ObjectTracker.Get(gvr, ns, m.Name)
			if err != nil {
				return err
			}
			if cm, err := metaOf(cur); err == nil && cm.ResourceVersion != m.ResourceVersion {
				return apierrors.NewConflict(gvr.GroupResource(), m.Name, errors.New(staleWrite))
			}
			return nil
		}
	}
	if err := t.versions.write(m, check, store); err != nil {
		return err
	}
	t.written(obj)
	return nil
}

func (t versioningTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	store := func() error { return t.ObjectTracker.Patch(gvr, obj, ns, opts...) }
	m, err := metaOf(obj)
	if err != nil {
		return store()
	}
	if err := t.versions.write(m, nil, store); err != nil {
		return err
	}
	t.written(obj)
	return nil
}

// nominations remembers the nodes pods were nominated to, as their status
// patches are written.
type nominations struct {
	mu      sync.Mutex
	nodes   map[string]bool
	changed chan struct{} // closed and replaced on every new nomination
}

func newNominations() *nominations {
	return &nominations{nodes: map[string]bool{}, changed: make(chan struct{})}
}

func (n *nominations) saw(obj runtime.Object) {
	p, ok := obj.(*v1.Pod)
	if !ok || p.Status.NominatedNodeName == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.nodes[p.Status.NominatedNodeName] {
		n.nodes[p.Status.NominatedNodeName] = true
		close(n.changed)
		n.changed = make(chan struct{})
	}
}

// waitFor waits, at most d, until a pod was nominated to node.
func (n *nominations) waitFor(node string, d time.Duration) {
	deadline := time.After(d)
	for {
		n.mu.Lock()
		ok, ch := n.nodes[node], n.changed
		n.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		}
	}
}

// schedulerClient is the client the scheduler and its informers are given:
// the in-memory API server's, except for two calls on pods.
//
// Deleting a preemption victim first waits until the preemptor's nomination
// to the victim's node is written, and in a fixture run starts the victim's
// graceful termination (see terminate). In a cluster a victim leaves only
// after its graceful termination, long after the preemptor's status patch;
// the in-memory API server deletes at once, and the preemptor could be
// retried before its queued copy carried the nomination, missing the
// nominated-node fast path. Preemption deletes on its own goroutine, so the
// wait holds no scheduling cycle; it is bounded in case no nomination comes.
//
// A list of pods hands over the list the store makes. The fake clientset
// copies every item of it once more to filter by labels, even with no
// selector: at 40 000 pods that copy was a quarter of the time before the
// scheduler's cache began to fill, paid again by every fork. A list with a
// label selector takes the fake's own path.
type schedulerClient struct {
	*fake.Clientset
	e *Engine
}

func (c schedulerClient) CoreV1() corev1client.CoreV1Interface {
	return schedulerCoreV1{c.Clientset.CoreV1(), c.e}
}

type schedulerCoreV1 struct {
	corev1client.CoreV1Interface
	e *Engine
}

func (c schedulerCoreV1) Pods(namespace string) corev1client.PodInterface {
	return schedulerPods{c.CoreV1Interface.Pods(namespace), namespace, c.e}
}

type schedulerPods struct {
	corev1client.PodInterface
	namespace string
	e         *Engine
}

func (p schedulerPods) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	obj, err := p.e.store.stored(v1.SchemeGroupVersion.WithResource("pods"), p.namespace, name)
	if pod, ok := obj.(*v1.Pod); err == nil && ok && pod.Spec.NodeName != "" && preempted(pod) {
		p.e.nominations.waitFor(pod.Spec.NodeName, 5*time.Second)
		// The "Preempted" event that names the preemptor comes after the
		// deletion, possibly after the preemptor's cycle was handed on:
		// record the victim now, on the cycle that nominated its node.
		if c := p.e.preemptorOn(pod.Spec.NodeName); c != nil {
			c.addVictim(podRef(pod))
		}
		if p.e.clock != nil {
			if graceful, err := p.e.terminate(ctx, p.namespace, name, opts); graceful || err != nil {
				return err
			}
		}
	}
	return p.PodInterface.Delete(ctx, name, opts)
}

func (p schedulerPods) List(ctx context.Context, opts metav1.ListOptions) (*v1.PodList, error) {
	if opts.LabelSelector != "" {
		return p.PodInterface.List(ctx, opts)
	}
	obj, err := p.e.store.List(v1.SchemeGroupVersion.WithResource("pods"), v1.SchemeGroupVersion.WithKind("Pod"), p.namespace, opts)
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*v1.PodList)
	if !ok {
		return nil, fmt.Errorf("listing pods: the store made a %T", obj)
	}
	return list, nil
}

// preemptorOn returns the latest cycle, held or still running, whose
// preemption nominated node.
func (e *Engine) preemptorOn(node string) *cycleTrace {
	e.mu.Lock()
	cands := slices.Clone(e.pending)
	e.mu.Unlock()
	e.trace.mu.Lock()
	for _, c := range e.trace.byUID {
		cands = append(cands, c)
	}
	e.trace.mu.Unlock()
	var best *cycleTrace
	for _, c := range cands {
		c.mu.Lock()
		ok := c.c.PostFilter != nil && c.c.PostFilter.NominatedNode == node
		c.mu.Unlock()
		if ok && (best == nil || c.c.Seq > best.c.Seq) {
			best = c
		}
	}
	return best
}

// preempted reports whether the scheduler marked p as a preemption victim.
func preempted(p *v1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.DisruptionTarget && c.Reason == v1.PodReasonPreemptionByScheduler {
			return true
		}
	}
	return false
}

func bumpVersion(m *metav1.ObjectMeta) {
	n, _ := strconv.Atoi(m.ResourceVersion)
	m.ResourceVersion = strconv.Itoa(n + 1)
}
