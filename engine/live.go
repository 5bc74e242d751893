package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/schedscope/schedscope/recorder"
)

// Live mode mirrors a real cluster into the engine's in-memory API server and
// lets the embedded scheduler run a cycle for each pending pod, on the state the
// cluster was in when the pod arrived. The real cluster is only ever read: the
// mirror's client refuses every request that is not a GET (list, watch, get,
// discovery), so nothing the engine does can reach the cluster.
//
// What is mirrored is exactly what the scheduler reads: after the scheduler is
// built, the informers it asked its (in-memory) informer factory for name the
// resource types, and each is listed and watched on the real cluster.
//
// When the cluster's own scheduler binds a pod schedscope ran a cycle for, the
// binding is reported as an Observed record next to the prediction, and the
// mirror takes the real placement.

var liveWatchBuffer sync.Once

// LiveOptions configures a live session.
type LiveOptions struct {
	Options
	// Config is the cluster's REST config. The engine wraps its transport so
	// that only reads can be sent.
	REST *rest.Config
	// Context names the cluster in the recording header.
	Context string
	// Namespace limits which pending pods get cycles; "" means all namespaces.
	// Pods of every namespace are mirrored once they run, since they use nodes.
	Namespace string
	// OnObserved receives each binding the cluster's own scheduler made.
	OnObserved func(*recorder.Observed)
	// OnConnection reports losing (err != nil) and regaining the API server.
	OnConnection func(err error)
	// DecisionTimeout bounds how long a real binding waits for the engine to
	// finish its own cycle for the pod (time paused at the Gate does not count).
	DecisionTimeout time.Duration
	// SyncTimeout bounds the initial listing of the cluster.
	SyncTimeout time.Duration
	// CallExtenders sends pending pods to the filter and prioritize verbs of
	// the scheduler extenders in Config. Off, no extender is called; on or
	// off, their bind and preempt verbs never are.
	CallExtenders bool
}

// Live is a running live session.
type Live struct {
	*Engine
	opts   LiveOptions
	client kubernetes.Interface

	mu sync.Mutex
	// mirrored holds pods added to the engine while pending, with when.
	mirrored map[types.UID]time.Time
	// withheld holds pending pods not given to the engine (another namespace,
	// or the cluster found them unschedulable and schedscope had bound them).
	withheld map[types.UID]bool
	// reportedUnsched holds pods whose Unschedulable verdict was reported.
	reportedUnsched map[types.UID]bool
	// Resources lists what is mirrored, for messages and the ClusterRole check.
	resources []schema.GroupVersionResource
	skipped   []string
	// notes say how the configuration was made safe for a real cluster.
	notes  []string
	connMu sync.Mutex // orders connection reports; guards lost
	lost   bool
	// running is set once the scheduler runs; before, nothing can be decided
	// and a binding is not held for a decision.
	running atomic.Bool
}

// ReadOnlyTransport refuses every request but GET, so a client built on it
// cannot change the cluster.
type ReadOnlyTransport struct{ Next http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t ReadOnlyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return nil, fmt.Errorf("schedscope is read-only: refused %s %s", req.Method, req.URL.Path)
	}
	return t.Next.RoundTrip(req)
}

// readOnlyConfig copies cfg with a transport that only lets reads through.
func readOnlyConfig(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return ReadOnlyTransport{Next: rt} })
	c.UserAgent = "schedscope (read-only)"
	return c
}

// NewLive lists the cluster, builds the engine over it and starts mirroring.
// Nothing is scheduled until Run.
func NewLive(ctx context.Context, opts LiveOptions) (*Live, error) {
	if opts.REST == nil {
		return nil, errors.New("live mode needs a cluster connection")
	}
	if opts.DecisionTimeout == 0 {
		opts.DecisionTimeout = 30 * time.Second
	}
	if opts.SyncTimeout == 0 {
		opts.SyncTimeout = 60 * time.Second
	}
	liveWatchBuffer.Do(func() {
		// Events from the cluster arrive in bursts (a scale-up creates
		// hundreds of pods); the in-memory API server's watches panic when
		// their buffer overflows. Set once, before any watch exists.
		watch.DefaultChanSize = 1 << 16
	})
	client, err := kubernetes.NewForConfig(readOnlyConfig(opts.REST))
	if err != nil {
		return nil, err
	}
	name := "cluster"
	if opts.Context != "" {
		name = opts.Context
	}
	// Extenders are paths out of the process: none is called unless asked,
	// and their bind and preempt verbs never are.
	eopts := opts.Options
	var notes []string
	eopts.Config, notes = liveExtenders(eopts.Config, opts.CallExtenders)
	e, err := build(ctx, &Fixture{Name: name}, eopts)
	if err != nil {
		return nil, err
	}
	e.header.Source = recorder.Source{Kind: "cluster", Name: name, Config: opts.ConfigPath}
	// The engine's preemption must not remove mirrored pods: they still run
	// in the cluster until the cluster itself evicts them, and the mirror
	// removes them then.
	e.client.PrependReactor("delete", "pods", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, nil
	})
	l := &Live{Engine: e, opts: opts, client: client, notes: notes,
		mirrored: map[types.UID]time.Time{}, withheld: map[types.UID]bool{}, reportedUnsched: map[types.UID]bool{}}

	types, err := e.readTypes()
	if err != nil {
		return nil, err
	}
	if err := l.checkAccess(ctx, types); err != nil {
		return nil, err
	}
	if err := l.startMirror(ctx); err != nil {
		return nil, err
	}
	if err := e.start(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// Resources lists the resources mirrored from the cluster.
func (l *Live) Resources() []schema.GroupVersionResource { return l.resources }

// Notes say what live mode changed in the scheduler configuration to stay
// read-only (extenders not called, bind and preempt verbs removed).
func (l *Live) Notes() []string { return l.notes }

// Skipped lists resources the scheduler reads that the cluster does not serve.
func (l *Live) Skipped() []string { return l.skipped }

// readTypes returns the object types the scheduler's informers watch.
func (e *Engine) readTypes() ([]runtime.Object, error) { return informerTypes(e.informers) }

func gvrOf(obj runtime.Object) (schema.GroupVersionResource, error) {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return schema.GroupVersionResource{}, fmt.Errorf("unknown type %T", obj)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	return gvr, nil
}

// checkAccess makes sure every resource the scheduler reads can be listed and
// watched, and drops those the cluster does not serve. It sends only reads.
func (l *Live) checkAccess(ctx context.Context, objs []runtime.Object) error {
	served := map[schema.GroupVersionResource]bool{}
	_, lists, err := l.client.Discovery().ServerGroupsAndResources()
	if err != nil && len(lists) == 0 {
		return fmt.Errorf("cannot reach the cluster's API server: %w", err)
	}
	for _, list := range lists {
		gv, perr := schema.ParseGroupVersion(list.GroupVersion)
		if perr != nil {
			continue
		}
		for _, r := range list.APIResources {
			served[gv.WithResource(r.Name)] = true
		}
	}
	if n := podGroupNote(served); n != "" {
		l.notes = append(l.notes, n)
	}
	var problems []string
	for _, obj := range objs {
		gvr, err := gvrOf(obj)
		if err != nil {
			return err
		}
		if !served[gvr] {
			l.skipped = append(l.skipped, gvr.Resource+"."+gvr.Group)
			continue
		}
		res := l.client.CoreV1().RESTClient().Get().AbsPath(apiPath(gvr)).Param("limit", "1").Do(ctx)
		if err := res.Error(); err != nil {
			if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
				problems = append(problems, fmt.Sprintf("cannot list %s: %s (schedscope needs get, list and watch on it)", resourceName(gvr), reasonOf(err)))
				continue
			}
			return fmt.Errorf("listing %s: %w", resourceName(gvr), err)
		}
		l.resources = append(l.resources, gvr)
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return errors.New(strings.Join(problems, "; "))
	}
	sort.Slice(l.resources, func(i, j int) bool { return resourceName(l.resources[i]) < resourceName(l.resources[j]) })
	sort.Strings(l.skipped)
	return nil
}

func reasonOf(err error) string {
	var st apierrors.APIStatus
	if errors.As(err, &st) && st.Status().Reason != "" {
		return strings.ToLower(string(st.Status().Reason))
	}
	return err.Error()
}

func resourceName(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource
	}
	return gvr.Resource + "." + gvr.Group
}

func apiPath(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return "/api/" + gvr.Version + "/" + gvr.Resource
	}
	return "/apis/" + gvr.Group + "/" + gvr.Version + "/" + gvr.Resource
}

// startMirror lists and watches every resource, copies the current state into
// the engine, and keeps applying changes.
func (l *Live) startMirror(ctx context.Context) error {
	strip := informers.WithTransform(stripManagedFields)
	factory := informers.NewSharedInformerFactoryWithOptions(l.client, time.Minute, strip)
	// Succeeded and Failed pods use nothing; the scheduler does not watch them either.
	podFactory := informers.NewSharedInformerFactoryWithOptions(l.client, time.Minute, strip,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = "status.phase!=" + string(v1.PodSucceeded) + ",status.phase!=" + string(v1.PodFailed)
		}))
	var synced []cache.InformerSynced
	for _, gvr := range l.resources {
		f := factory
		if gvr == v1.SchemeGroupVersion.WithResource("pods") {
			f = podFactory
		}
		gi, err := f.ForResource(gvr)
		if err != nil {
			return fmt.Errorf("watching %s: %w", resourceName(gvr), err)
		}
		inf := gi.Informer()
		if err := inf.SetWatchErrorHandlerWithContext(l.watchError(gvr)); err != nil {
			return err
		}
		reg, err := inf.AddEventHandler(l.handlerFor(ctx, gvr))
		if err != nil {
			return err
		}
		// The handler's sync, not the informer's: the mirror must have
		// copied the whole first list before the scheduler starts.
		synced = append(synced, reg.HasSynced)
	}
	factory.Start(ctx.Done())
	podFactory.Start(ctx.Done())
	sctx, cancel := context.WithTimeout(ctx, l.opts.SyncTimeout)
	defer cancel()
	if !cache.WaitForCacheSync(sctx.Done(), synced...) {
		return fmt.Errorf("listing the cluster did not finish within %v", l.opts.SyncTimeout)
	}
	return nil
}

// watchError reports a failed list or watch; the informer retries by itself
// and relists when its watch expired.
func (l *Live) watchError(gvr schema.GroupVersionResource) cache.WatchErrorHandlerWithContext {
	return func(ctx context.Context, r *cache.Reflector, err error) {
		l.connection(fmt.Errorf("watching %s: %w", resourceName(gvr), err))
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}
}

// connection reports a change of the connection state: err != nil when it is
// lost, nil when it is back.
func (l *Live) connection(err error) {
	l.connMu.Lock()
	defer l.connMu.Unlock()
	was := l.lost
	l.lost = err != nil
	if was != (err != nil) && l.opts.OnConnection != nil {
		l.opts.OnConnection(err)
	}
}

// heartbeat asks the API server for its version every interval: informers
// retry a refused or dropped connection silently, so this is how a lost API
// server is noticed, and how its return is.
func (l *Live) heartbeat(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		hctx, cancel := context.WithTimeout(ctx, interval)
		err := l.client.Discovery().RESTClient().Get().AbsPath("/version").Do(hctx).Error()
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			l.connection(fmt.Errorf("API server unreachable: %w", err))
		} else {
			l.connection(nil)
		}
	}
}

func (l *Live) handlerFor(ctx context.Context, gvr schema.GroupVersionResource) cache.ResourceEventHandler {
	isPods := gvr == v1.SchemeGroupVersion.WithResource("pods")
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if isPods {
				l.podChanged(ctx, nil, obj.(*v1.Pod))
				return
			}
			l.upsert(gvr, obj.(runtime.Object))
		},
		UpdateFunc: func(old, obj interface{}) {
			if isPods {
				l.podChanged(ctx, old.(*v1.Pod), obj.(*v1.Pod))
				return
			}
			l.upsert(gvr, obj.(runtime.Object))
		},
		DeleteFunc: func(obj interface{}) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if m, err := meta.Accessor(obj); err == nil {
				l.remove(gvr, m.GetNamespace(), m.GetName())
				if isPods {
					l.forget(m.GetUID())
				}
			}
		},
	}
}

// upsert writes obj into the engine's API server unless it is already there
// unchanged (a resync delivers every object again).
func (l *Live) upsert(gvr schema.GroupVersionResource, obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	tr := l.Engine.client.Tracker()
	if cur, err := tr.Get(gvr, m.GetNamespace(), m.GetName()); err == nil {
		if cm, err := meta.Accessor(cur); err == nil && cm.GetResourceVersion() == m.GetResourceVersion() && cm.GetUID() == m.GetUID() {
			return
		}
		_ = tr.Update(gvr, obj, m.GetNamespace())
		return
	}
	_ = tr.Create(gvr, obj, m.GetNamespace())
}

func (l *Live) remove(gvr schema.GroupVersionResource, ns, name string) {
	_ = l.Engine.client.Tracker().Delete(gvr, ns, name)
}

func (l *Live) forget(uid types.UID) {
	l.mu.Lock()
	delete(l.mirrored, uid)
	delete(l.withheld, uid)
	delete(l.reportedUnsched, uid)
	l.mu.Unlock()
	l.Engine.mu.Lock()
	delete(l.Engine.decided, uid)
	l.Engine.mu.Unlock()
}

// ours reports whether one of the engine's profiles schedules pod.
func (l *Live) ours(pod *v1.Pod) bool {
	_, ok := l.sched.Profiles[pod.Spec.SchedulerName]
	return ok
}

var podsGVR = v1.SchemeGroupVersion.WithResource("pods")

// fakePod returns the engine's copy of a pod, or nil.
func (l *Live) fakePod(ns, name string) *v1.Pod {
	obj, err := l.Engine.client.Tracker().Get(podsGVR, ns, name)
	if err != nil {
		return nil
	}
	p, _ := obj.(*v1.Pod)
	return p
}

// place makes the engine's copy of pod match the cluster's: a pod never moves
// between nodes by an update (the scheduler cache refuses that), so a pod the
// engine bound elsewhere is deleted and created again.
func (l *Live) place(pod *v1.Pod) {
	l.Engine.trackerMu.Lock()
	defer l.Engine.trackerMu.Unlock()
	cur := l.fakePod(pod.Namespace, pod.Name)
	if cur != nil && (cur.UID != pod.UID || cur.Spec.NodeName != pod.Spec.NodeName) {
		l.remove(podsGVR, pod.Namespace, pod.Name)
		cur = nil
	}
	if cur != nil && cur.ResourceVersion == pod.ResourceVersion {
		return
	}
	if cur != nil {
		_ = l.Engine.client.Tracker().Update(podsGVR, pod, pod.Namespace)
		return
	}
	_ = l.Engine.client.Tracker().Create(podsGVR, pod, pod.Namespace)
}

func (l *Live) inScope(pod *v1.Pod) bool {
	return l.opts.Namespace == "" || pod.Namespace == l.opts.Namespace
}

// podChanged applies a pod event from the cluster.
func (l *Live) podChanged(ctx context.Context, old, pod *v1.Pod) {
	if pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
		l.remove(podsGVR, pod.Namespace, pod.Name)
		l.forget(pod.UID)
		return
	}
	if pod.Spec.NodeName != "" {
		l.mu.Lock()
		since, mirrored := l.mirrored[pod.UID]
		delete(l.mirrored, pod.UID)
		withheld := l.withheld[pod.UID]
		delete(l.withheld, pod.UID)
		l.mu.Unlock()
		if mirrored || withheld {
			// The cluster's scheduler bound a pod we saw pending.
			l.observe(ctx, pod, since, mirrored)
		}
		l.place(pod)
		return
	}
	// Pending in the cluster.
	if !l.ours(pod) {
		// Another scheduler's pod: mirrored once it is bound, never predicted.
		return
	}
	l.mu.Lock()
	_, mirrored := l.mirrored[pod.UID]
	withheld := l.withheld[pod.UID]
	l.mu.Unlock()
	if unschedulable(pod) && mirrored {
		l.cannotPlace(ctx, pod)
		return
	}
	if withheld {
		return
	}
	if !l.inScope(pod) {
		l.mu.Lock()
		l.withheld[pod.UID] = true
		l.mu.Unlock()
		return
	}
	l.Engine.trackerMu.Lock()
	defer l.Engine.trackerMu.Unlock()
	if cur := l.fakePod(pod.Namespace, pod.Name); cur != nil {
		if cur.UID == pod.UID {
			if cur.Spec.NodeName != "" {
				// The engine bound it; keep that until the cluster decides.
				return
			}
			if cur.ResourceVersion != pod.ResourceVersion {
				_ = l.Engine.client.Tracker().Update(podsGVR, pod, pod.Namespace)
			}
			return
		}
		// A new pod under an old name (seen after a relist): the old one is gone.
		l.remove(podsGVR, cur.Namespace, cur.Name)
		l.forget(cur.UID)
	}
	l.mu.Lock()
	l.mirrored[pod.UID] = time.Now()
	l.mu.Unlock()
	_ = l.Engine.client.Tracker().Create(podsGVR, pod, pod.Namespace)
}

// unschedulable reports whether the cluster's scheduler marked pod Unschedulable.
func unschedulable(pod *v1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
			return true
		}
	}
	return false
}

// cannotPlace handles the cluster's scheduler reporting a pod unschedulable:
// the verdict is reported once, and if schedscope had bound the pod it is taken
// out of the mirror, since in the cluster it uses no node.
func (l *Live) cannotPlace(ctx context.Context, pod *v1.Pod) {
	l.mu.Lock()
	since := l.mirrored[pod.UID]
	reported := l.reportedUnsched[pod.UID]
	l.reportedUnsched[pod.UID] = true
	l.mu.Unlock()
	if !reported {
		l.observe(ctx, pod, since, true)
	}
	l.Engine.trackerMu.Lock()
	defer l.Engine.trackerMu.Unlock()
	cur := l.fakePod(pod.Namespace, pod.Name)
	switch {
	case cur != nil && cur.Spec.NodeName != "":
		l.remove(podsGVR, pod.Namespace, pod.Name)
		l.mu.Lock()
		delete(l.mirrored, pod.UID)
		l.withheld[pod.UID] = true
		l.mu.Unlock()
	case cur != nil && cur.UID == pod.UID && cur.ResourceVersion != pod.ResourceVersion:
		// Still pending on both sides: keep the engine's copy current
		// (tolerations added, gates removed, a nomination).
		_ = l.Engine.client.Tracker().Update(podsGVR, pod, pod.Namespace)
	}
}

// observe waits (bounded) for the engine's own decision on pod, then reports
// what the cluster did next to it.
func (l *Live) observe(ctx context.Context, pod *v1.Pod, since time.Time, mirrored bool) {
	var c *recorder.Cycle
	if mirrored {
		c = l.waitDecision(ctx, pod.UID, since)
		// A cycle that preempted is held back until its victims are known;
		// the cluster has decided, so hand it over first: an observation
		// never comes before the cycle it refers to.
		l.Engine.flushPending(pod.UID)
	}
	o := &recorder.Observed{Pod: podRef(pod), Node: pod.Spec.NodeName, Time: time.Now()}
	o.Pod.Node = ""
	if o.Node == "" {
		for _, cond := range pod.Status.Conditions {
			if cond.Type == v1.PodScheduled {
				o.Message = cond.Message
			}
		}
	}
	if c != nil {
		o.Seq = c.Seq
		o.Predicted = c.Outcome.Node
		o.Nominated = c.Outcome.NominatedNode
		if c.Outcome.Result == recorder.ResultBound && c.Selection != nil && len(c.Selection.Top) > 1 {
			for _, i := range c.Selection.Top {
				o.TieSet = append(o.TieSet, c.NodeName(i))
			}
			slices.Sort(o.TieSet)
		}
	}
	if l.opts.OnObserved != nil {
		l.opts.OnObserved(o)
	}
}

// waitDecision returns the engine's last cycle for uid that started after
// since, waiting up to the decision timeout (not counting time paused).
func (l *Live) waitDecision(ctx context.Context, uid types.UID, since time.Time) *recorder.Cycle {
	if !l.running.Load() {
		l.Engine.mu.Lock()
		defer l.Engine.mu.Unlock()
		return l.Engine.decided[uid]
	}
	deadline := time.Now().Add(l.opts.DecisionTimeout)
	for {
		l.Engine.mu.Lock()
		c := l.Engine.decided[uid]
		ch := l.Engine.decision
		l.Engine.mu.Unlock()
		if c != nil && !c.Start.Before(since) {
			return c
		}
		if l.Engine.gated.Load() {
			deadline = time.Now().Add(l.opts.DecisionTimeout)
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return c
		}
		t := time.NewTimer(min(wait, 200*time.Millisecond))
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return c
		}
		t.Stop()
	}
}

// Run schedules pending pods as they arrive until ctx is done.
func (l *Live) Run(ctx context.Context) error {
	l.running.Store(true)
	done := make(chan struct{})
	go func() {
		l.sched.Run(ctx)
		close(done)
	}()
	go l.heartbeat(ctx, 2*time.Second)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			<-done
			return nil
		case <-tick.C:
			// Preempting cycles wait for their victims' events; let them go.
			l.flushPending("")
		}
	}
}

// stripManagedFields drops managed fields, which the scheduler never reads, to
// keep the mirror small.
func stripManagedFields(obj interface{}) (interface{}, error) {
	if m, err := meta.Accessor(obj); err == nil && m.GetManagedFields() != nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// ReadResources lists the resources a scheduler with cfg reads from the API
// server (nil cfg: the default profile), sorted. A ClusterRole granting get,
// list and watch on them is all live mode needs.
func ReadResources(ctx context.Context, cfg *Options) ([]schema.GroupVersionResource, error) {
	opts := Options{}
	if cfg != nil {
		opts = *cfg
	}
	e, err := build(ctx, &Fixture{Name: "rbac"}, opts)
	if err != nil {
		return nil, err
	}
	objs, err := e.readTypes()
	if err != nil {
		return nil, err
	}
	var out []schema.GroupVersionResource
	for _, obj := range objs {
		gvr, err := gvrOf(obj)
		if err != nil {
			return nil, err
		}
		out = append(out, gvr)
	}
	sort.Slice(out, func(i, j int) bool { return resourceName(out[i]) < resourceName(out[j]) })
	return out, nil
}
