package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/scrub"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// With returns a copy of the fork with the changes applied in order; the fork
// itself is not changed. Every change is checked as the API server (or
// kube-scheduler, for configuration) would check it, and fails with one
// line naming what is wrong.
func (f *Fork) With(changes ...recorder.Change) (*Fork, error) {
	var g *Fork
	if recorder.PodOnly(changes) {
		g = f.withPod()
	} else {
		g = f.clone()
	}
	for _, c := range changes {
		if err := g.apply(c); err != nil {
			return nil, fmt.Errorf("%s: %w", narrate.Change(c), err)
		}
		g.Changes = append(g.Changes, narrate.Change(c))
	}
	return g, nil
}

// apply makes one change to f.
func (f *Fork) apply(c recorder.Change) error {
	switch c := c.(type) {
	case recorder.PatchPod:
		if c.Pod != "" && !matchesPod(f.Pod, c.Pod) {
			return fmt.Errorf("names pod %q: a cycle's re-run patches its own pod (a pod group's member is patched with --pod-group)", input.Quote(c.Pod))
		}
		return f.patchPod([]byte(c.Patch))
	case recorder.ReplacePod:
		return f.replacePod(c.Manifest, c.Source)
	case recorder.EditPod:
		return f.editPod(c.Shown, c.Edited, c.Source)
	case recorder.PatchNode:
		return f.patchNode(c.Node, []byte(c.Patch))
	case recorder.EditNode:
		return f.editNode(c.Node, c.Shown, c.Edited, c.Source)
	case recorder.RemoveNode:
		return f.removeNode(c.Node)
	case recorder.AddNode:
		return f.addNodeManifest(c.Manifest, c.Source)
	case recorder.CopyNode:
		return f.copyNode(c.From, c.Node)
	case recorder.Evict:
		for _, p := range c.Pods {
			if err := f.evict(p); err != nil {
				return err
			}
		}
		if len(c.Pods) == 0 {
			return fmt.Errorf("no pod named")
		}
		return nil
	case recorder.UseConfig:
		return f.useConfig(c.Data, c.Path)
	case recorder.SetWeight:
		return f.setWeight(c.Plugin, c.Weight)
	case recorder.Disable:
		return f.disable(c.Plugin, c.Point)
	case recorder.Enable:
		return f.enable(c.Plugin, c.Point)
	case recorder.SetPercentage:
		return f.setPercentage(c.Percent)
	case recorder.SetMinCount:
		return fmt.Errorf("a pod group's minCount is changed in a re-run of the whole fixture (--pod-group), not of one cycle")
	case nil:
		return fmt.Errorf("no change given")
	}
	return fmt.Errorf("the engine cannot make a %s change", c.Kind())
}

// patchJSON turns a patch written as JSON or YAML into JSON.
func patchJSON(patch []byte) ([]byte, error) {
	if len(strings.TrimSpace(string(patch))) == 0 {
		return nil, fmt.Errorf("the patch is empty")
	}
	js, err := yaml.YAMLToJSON(patch)
	if err != nil {
		return nil, fmt.Errorf("the patch is neither JSON nor YAML: %v", oneLine(err))
	}
	if !strings.HasPrefix(strings.TrimSpace(string(js)), "{") {
		return nil, fmt.Errorf("the patch must be an object, as kubectl patch takes (e.g. {\"spec\":{...}})")
	}
	return js, nil
}

// strategicMerge applies a strategic-merge patch (the form kubectl patch
// takes by default) to obj and decodes the result strictly into out, so a
// misspelt field is an error rather than silently dropped.
func strategicMerge(obj any, patch []byte, out any) error {
	js, err := patchJSON(patch)
	if err != nil {
		return err
	}
	return mergeStrict(obj, js, out, "patch", "patched")
}

// mergeStrict applies the JSON strategic-merge patch js to obj and decodes
// the result strictly into out; what ("patch", "edit") and done
// ("patched", "edited") word the errors.
func mergeStrict(obj any, js []byte, out any, what, done string) error {
	orig, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	merged, err := strategicpatch.StrategicMergePatch(orig, js, out)
	if err != nil {
		return fmt.Errorf("cannot apply the %s: %v", what, oneLine(err))
	}
	strict, err := sigsjson.UnmarshalStrict(merged, out)
	if err != nil {
		return fmt.Errorf("the %s object does not decode: %v", done, oneLine(err))
	}
	if len(strict) > 0 {
		return fmt.Errorf("%v", oneLine(strict[0]))
	}
	return nil
}

// patchPod changes the pod with a strategic-merge patch (JSON or YAML).
func (f *Fork) patchPod(patch []byte) error {
	var p v1.Pod
	if err := strategicMerge(f.Pod, patch, &p); err != nil {
		return err
	}
	if p.Name != f.Pod.Name || p.Namespace != f.Pod.Namespace {
		return fmt.Errorf("the patch renames the pod; patch its spec, or give a whole manifest instead")
	}
	if p.Spec.NodeName != "" {
		return fmt.Errorf("spec.nodeName is set: the scheduler would never see the pod")
	}
	if p.Spec.PriorityClassName != f.Pod.Spec.PriorityClassName {
		p.Spec.Priority, p.Spec.PreemptionPolicy = nil, nil
	}
	admitted, err := f.admitPod(&p)
	if err != nil {
		return err
	}
	f.Pod = admitted
	return nil
}

// replacePod replaces the pod with a whole Pod manifest (YAML or JSON),
// admitted as the fixture's pods are. source names it in errors.
func (f *Fork) replacePod(manifest []byte, source string) error {
	p, err := f.podManifest(manifest, source)
	if err != nil {
		return err
	}
	p.UID = f.Pod.UID
	p.Status.NominatedNodeName = f.Pod.Status.NominatedNodeName
	admitted, err := f.admitPod(p)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	f.Pod = admitted
	return nil
}

// podManifest decodes a manifest of the fork's pod (source names it): one
// Pod, of the pod's name and namespace (the namespace may be left out),
// that the scheduler would see (no spec.nodeName).
func (f *Fork) podManifest(manifest []byte, source string) (*v1.Pod, error) {
	p, err := decodeOne[*v1.Pod](source, manifest, "Pod")
	if err != nil {
		return nil, err
	}
	if p.Spec.NodeName != "" {
		return nil, fmt.Errorf("%s: spec.nodeName is set: the scheduler would never see the pod", source)
	}
	if p.Namespace == "" {
		p.Namespace = f.Pod.Namespace
	}
	if p.Name != f.Pod.Name || p.Namespace != f.Pod.Namespace {
		return nil, fmt.Errorf("%s: names pod %s/%s, not %s/%s", source, p.Namespace, p.Name, f.Pod.Namespace, f.Pod.Name)
	}
	return p, nil
}

// admitPod runs a changed pod through the fixture's admission and the API
// server's validation, in the namespaces, classes and limit ranges of the
// fork, keeping its nomination.
func (f *Fork) admitPod(p *v1.Pod) (*v1.Pod, error) {
	nominated := f.Pod.Status.NominatedNodeName
	var objs []runtime.Object
	for _, o := range f.Others {
		switch o.(type) {
		case *v1.Namespace, *v1.LimitRange:
			objs = append(objs, o.DeepCopyObject())
		default:
			if k := fixture.KindName(o); k == "PriorityClass" || k == "RuntimeClass" {
				objs = append(objs, o.DeepCopyObject())
			}
		}
	}
	q := p.DeepCopy()
	q.ResourceVersion = ""
	objs = append(objs, q)
	fx, err := fixture.New(f.Name, objs)
	if err != nil {
		return nil, trimDocPrefix(err, f.Name)
	}
	if len(fx.Pending) != 1 {
		return nil, fmt.Errorf("the pod was not admitted as a pending pod")
	}
	out := fx.Pending[0]
	out.Status.NominatedNodeName = nominated
	return out, nil
}

// trimDocPrefix drops "name: document N: " that fixture.New puts before an
// error in an object it was handed, which says nothing to a what-if user.
func trimDocPrefix(err error, name string) error {
	s := strings.TrimPrefix(err.Error(), name+": ")
	if strings.HasPrefix(s, "document ") {
		if i := strings.Index(s, ": "); i >= 0 {
			s = s[i+2:]
		}
	}
	return fmt.Errorf("%s", s)
}

// patchNode changes a node with a strategic-merge patch: labels, taints,
// allocatable, spec.unschedulable.
func (f *Fork) patchNode(name string, patch []byte) error {
	i, err := f.nodeIndex(name)
	if err != nil {
		return err
	}
	var n v1.Node
	if err := strategicMerge(f.Nodes[i], patch, &n); err != nil {
		return err
	}
	if n.Name != name {
		return fmt.Errorf("the patch renames the node; add a node instead")
	}
	legacyscheme.Scheme.Default(&n)
	if err := fixture.ValidateCreate(&n); err != nil {
		return err
	}
	f.Nodes[i] = &n
	return nil
}

// removeNode deletes a node and, as the garbage collector would, the pods on it.
func (f *Fork) removeNode(name string) error {
	i, err := f.nodeIndex(name)
	if err != nil {
		return err
	}
	if len(f.Nodes) == 1 {
		return fmt.Errorf("it is the only node")
	}
	f.Nodes = slices.Delete(f.Nodes, i, i+1)
	f.Placed = slices.DeleteFunc(f.Placed, func(p *v1.Pod) bool { return p.Spec.NodeName == name })
	for i, p := range f.Nominated {
		if p.Status.NominatedNodeName == name {
			// Forks share their objects: the nomination is dropped on a copy.
			q := p.DeepCopy()
			q.Status.NominatedNodeName = ""
			f.Nominated[i] = q
		}
	}
	if f.Pod.Status.NominatedNodeName == name {
		f.Pod.Status.NominatedNodeName = ""
	}
	return nil
}

// addNodeManifest adds a node from a Node manifest, after the others (the node tree
// appends it to its zone). source names the manifest in errors.
func (f *Fork) addNodeManifest(manifest []byte, source string) error {
	n, err := decodeOne[*v1.Node](source, manifest, "Node")
	if err != nil {
		return err
	}
	return f.addNode(n)
}

// copyNode adds a node like an existing one (labels, taints, capacity, with
// its hostname label renamed), with no pods on it: "one more node like X".
func (f *Fork) copyNode(from, name string) error {
	i, err := f.nodeIndex(from)
	if err != nil {
		return err
	}
	n := f.Nodes[i].DeepCopy()
	n.Name, n.UID, n.ResourceVersion = name, "", ""
	if _, ok := n.Labels[v1.LabelHostname]; ok {
		n.Labels[v1.LabelHostname] = name
	}
	return f.addNode(n)
}

func (f *Fork) addNode(n *v1.Node) error {
	if _, err := f.nodeIndex(n.Name); err == nil {
		return fmt.Errorf("node %q already exists", input.Quote(n.Name))
	}
	n.UID = ""
	fx, err := fixture.New(f.Name, []runtime.Object{n})
	if err != nil {
		return trimDocPrefix(err, f.Name)
	}
	for _, o := range fx.Objects {
		if a, ok := o.(*v1.Node); ok {
			a.UID = types.UID("node-" + a.Name)
			f.Nodes = append(f.Nodes, a)
			return nil
		}
	}
	return fmt.Errorf("node %q was not admitted", input.Quote(n.Name))
}

// evict deletes a pod (namespace/name, or a name) before the cycle.
func (f *Fork) evict(key string) error {
	match := func(p *v1.Pod) bool { return matchesPod(p, key) }
	var found []string
	for _, p := range append(slices.Clone(f.Placed), f.Nominated...) {
		if match(p) {
			found = append(found, p.Namespace+"/"+p.Name)
		}
	}
	switch {
	case len(found) == 0:
		if matchesPod(f.Pod, key) {
			return fmt.Errorf("it is the pod being scheduled")
		}
		return fmt.Errorf("no pod %q is placed or nominated at this cycle", input.Quote(key))
	case len(found) > 1:
		return fmt.Errorf("%q names %d pods (%s); give namespace/name", input.Quote(key), len(found), strings.Join(found, ", "))
	}
	f.Placed = slices.DeleteFunc(f.Placed, match)
	f.Nominated = slices.DeleteFunc(f.Nominated, match)
	return nil
}

func (f *Fork) nodeIndex(name string) (int, error) {
	if i := slices.IndexFunc(f.Nodes, func(n *v1.Node) bool { return n.Name == name }); i >= 0 {
		return i, nil
	}
	var names []string
	for i, n := range f.Nodes {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(f.Nodes)-10))
			break
		}
		names = append(names, n.Name)
	}
	return -1, fmt.Errorf("no node %q at this cycle (its nodes: %s)", input.Quote(name), strings.Join(names, ", "))
}

// useConfig replaces the scheduler's configuration (data, read from path,
// loaded as LoadConfigFile loads one).
// The pod keeps its schedulerName, so the configuration must have that profile.
func (f *Fork) useConfig(data []byte, path string) error {
	g, err := LoadConfig(path, data)
	if err != nil {
		return err
	}
	if profileOf(g, f.Profile) == nil {
		var names []string
		for _, p := range g.Profiles {
			names = append(names, p.SchedulerName)
		}
		return fmt.Errorf("%s has no profile %q, which the pod asks for (its profiles: %s)", path, f.Profile, strings.Join(names, ", "))
	}
	f.Config = g
	f.changedConfig = true
	return nil
}

func profileOf(cfg *config.KubeSchedulerConfiguration, name string) *config.KubeSchedulerProfile {
	for i := range cfg.Profiles {
		if cfg.Profiles[i].SchedulerName == name {
			return &cfg.Profiles[i]
		}
	}
	return nil
}

// extensionPoints maps the names a user may give (any case) to the plugin
// sets of a profile.
func extensionPoints(p *config.Plugins) map[string]*config.PluginSet {
	return map[string]*config.PluginSet{
		"preenqueue": &p.PreEnqueue, "queuesort": &p.QueueSort, "prefilter": &p.PreFilter,
		"filter": &p.Filter, "postfilter": &p.PostFilter, "prescore": &p.PreScore,
		"score": &p.Score, "reserve": &p.Reserve, "permit": &p.Permit,
		"prebind": &p.PreBind, "bind": &p.Bind, "postbind": &p.PostBind,
	}
}

// editProfile applies edit to the pod's profile and validates the result as
// kube-scheduler validates its configuration.
func (f *Fork) editProfile(plugin string, edit func(p *config.KubeSchedulerProfile) error) error {
	if !hasPlugin(plugin) {
		return fmt.Errorf("no plugin named %q (plugin names are spelt as upstream spells them, e.g. NodeResourcesFit)", input.Quote(plugin))
	}
	p := profileOf(f.Config, f.Profile)
	if p == nil {
		return fmt.Errorf("the configuration has no profile %q", f.Profile)
	}
	if p.Plugins == nil {
		p.Plugins = &config.Plugins{}
	}
	if err := edit(p); err != nil {
		return err
	}
	if err := validation.ValidateKubeSchedulerConfiguration(f.Config); err != nil {
		return fmt.Errorf("the configuration is no longer valid: %v", oneLine(err))
	}
	f.changedConfig = true
	return nil
}

// enabled reports whether plugin runs at the named extension point of the
// fork's recorded scheduler ("" for any point).
func (f *Fork) enabled(plugin, point string) bool {
	prof := f.Header.Profile(f.Profile)
	if prof == nil {
		return false
	}
	for _, ep := range prof.ExtensionPoints {
		if point != "" && !strings.EqualFold(ep.Name, point) {
			continue
		}
		if slices.ContainsFunc(ep.Plugins, func(r recorder.PluginRef) bool { return r.Name == plugin }) {
			return true
		}
	}
	return false
}

// setWeight changes a score plugin's weight in the pod's profile.
func (f *Fork) setWeight(plugin string, weight int32) error {
	return f.editProfile(plugin, func(p *config.KubeSchedulerProfile) error {
		if !f.enabled(plugin, "Score") {
			return fmt.Errorf("%s is not a Score plugin of profile %s", plugin, f.Profile)
		}
		if weight < 0 {
			return fmt.Errorf("a weight cannot be negative")
		}
		if weight == 0 {
			return fmt.Errorf("a weight of 0 means the default weight to kube-scheduler; disable %s at score to drop it", plugin)
		}
		p.Plugins.Score.Enabled = slices.DeleteFunc(p.Plugins.Score.Enabled, func(x config.Plugin) bool { return x.Name == plugin })
		p.Plugins.Score.Enabled = append(p.Plugins.Score.Enabled, config.Plugin{Name: plugin, Weight: weight})
		return nil
	})
}

// disable disables a plugin at one extension point ("filter", "score",
// ...), or at every point when point is empty.
func (f *Fork) disable(plugin, point string) error {
	return f.editProfile(plugin, func(p *config.KubeSchedulerProfile) error {
		if !f.enabled(plugin, point) {
			return fmt.Errorf("%s is not enabled%s in profile %s", plugin, atLower(point), f.Profile)
		}
		points := extensionPoints(p.Plugins)
		drop := func(s *config.PluginSet) {
			s.Enabled = slices.DeleteFunc(s.Enabled, func(x config.Plugin) bool { return x.Name == plugin })
			s.Disabled = append(s.Disabled, config.Plugin{Name: plugin})
		}
		if point == "" {
			for _, s := range points {
				s.Enabled = slices.DeleteFunc(s.Enabled, func(x config.Plugin) bool { return x.Name == plugin })
			}
			drop(&p.Plugins.MultiPoint)
			return nil
		}
		s, ok := points[strings.ToLower(point)]
		if !ok {
			return fmt.Errorf("no extension point %q (use filter, score, prefilter, ...)", input.Quote(point))
		}
		drop(s)
		return nil
	})
}

// enable enables an in-tree plugin at one extension point.
func (f *Fork) enable(plugin, point string) error {
	return f.editProfile(plugin, func(p *config.KubeSchedulerProfile) error {
		if point == "" {
			return fmt.Errorf("name the extension point, e.g. %s:score", plugin)
		}
		s, ok := extensionPoints(p.Plugins)[strings.ToLower(point)]
		if !ok {
			return fmt.Errorf("no extension point %q (use filter, score, prefilter, ...)", input.Quote(point))
		}
		if f.enabled(plugin, point) {
			return fmt.Errorf("%s is already enabled at %s in profile %s", plugin, point, f.Profile)
		}
		s.Disabled = slices.DeleteFunc(s.Disabled, func(x config.Plugin) bool { return x.Name == plugin })
		s.Enabled = append(s.Enabled, config.Plugin{Name: plugin})
		return nil
	})
}

func pluginAt(plugin, point string) string {
	if point == "" {
		return plugin
	}
	return plugin + ":" + point
}

func atLower(point string) string {
	if point == "" {
		return ""
	}
	return " at " + point
}

// setPercentage changes the pod's profile's percentageOfNodesToScore.
func (f *Fork) setPercentage(pct int32) error {
	p := profileOf(f.Config, f.Profile)
	if p == nil {
		return fmt.Errorf("the configuration has no profile %q", f.Profile)
	}
	p.PercentageOfNodesToScore = &pct
	if err := validation.ValidateKubeSchedulerConfiguration(f.Config); err != nil {
		return fmt.Errorf("%v", oneLine(err))
	}
	f.changedConfig = true
	return nil
}

// podEdit is a change to the pod made in code (by suggest), expressed as
// the strategic-merge patch that makes it, so the user can apply it with
// kubectl patch or --patch-pod. what says it in words.
func podEdit(pod *v1.Pod, what string, edit func(p *v1.Pod)) (recorder.Change, error) {
	changed := pod.DeepCopy()
	edit(changed)
	before, err := json.Marshal(pod)
	if err != nil {
		return nil, err
	}
	after, err := json.Marshal(changed)
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(before, after, &v1.Pod{})
	if err != nil {
		return nil, err
	}
	return recorder.PatchPod{Patch: compact(patch), Why: what}, nil
}

// compact shows a patch on one line.
func compact(patch []byte) string {
	js, err := yaml.YAMLToJSON(patch)
	if err != nil {
		return strings.Join(strings.Fields(string(patch)), " ")
	}
	return string(js)
}

// editNode applies an edit of node name's manifest as shown (NodeYAML's): what the
// edit changed is applied to the whole node (see applyEdit), which is then
// validated as the API server would. source names the edit in errors.
func (f *Fork) editNode(name string, shown, manifest []byte, source string) error {
	i, err := f.nodeIndex(name)
	if err != nil {
		return err
	}
	edited, err := decodeOne[*v1.Node](source, manifest, "Node")
	if err != nil {
		return err
	}
	if edited.Name != name {
		return fmt.Errorf("%s: names node %q, not %q; add a node instead", source, input.Quote(edited.Name), name)
	}
	view, err := shownAs(shown, nodeView(f.Nodes[i]), source)
	if err != nil {
		return err
	}
	var n v1.Node
	if err := applyEdit(f.Nodes[i], view, edited, &n); err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	legacyscheme.Scheme.Default(&n)
	if err := fixture.ValidateCreate(&n); err != nil {
		return err
	}
	f.Nodes[i] = &n
	return nil
}

// editPod applies an edit of the pod's manifest as shown (PodYAML's): what the edit
// changed is applied to the whole pod (see applyEdit), so what the manifest
// left out (environment, commands, annotations, secret volumes) is kept;
// the pod is then admitted as replacePod admits one. source names the edit
// in errors.
func (f *Fork) editPod(shown, manifest []byte, source string) error {
	edited, err := f.podManifest(manifest, source)
	if err != nil {
		return err
	}
	view, err := shownAs(shown, podView(f.Pod), source)
	if err != nil {
		return err
	}
	var p v1.Pod
	if err := applyEdit(f.Pod, view, edited, &p); err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	p.UID = f.Pod.UID
	if p.Spec.PriorityClassName != f.Pod.Spec.PriorityClassName {
		// Admission computes them from the new class.
		p.Spec.Priority, p.Spec.PreemptionPolicy = nil, nil
	}
	admitted, err := f.admitPod(&p)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	f.Pod = admitted
	return nil
}

// shownAs is the manifest an edit started from, decoded as its object:
// shown, or, when the edit does not carry it, view, what PodYAML and
// NodeYAML show.
func shownAs[T runtime.Object](shown []byte, view T, source string) (T, error) {
	if len(shown) == 0 {
		return view, nil
	}
	return decodeOne[T](source+" (as shown)", shown, view.GetObjectKind().GroupVersionKind().Kind)
}

// applyEdit applies to full the edit that turned view (the part of full a
// user was shown) into edited, and decodes the result into out: the
// strategic-merge patch from view to edited, applied to full, as kubectl
// edit applies an edit. What view left out is kept; what the user deleted
// from view is deleted. An unchanged edit leaves full as it was.
func applyEdit(full, view, edited, out runtime.Object) error {
	// Both sides without apiVersion and kind: the patch is about the object.
	strip := func(o runtime.Object) ([]byte, error) {
		o = o.DeepCopyObject()
		o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		return json.Marshal(o)
	}
	before, err := strip(view)
	if err != nil {
		return err
	}
	after, err := strip(edited)
	if err != nil {
		return err
	}
	patch, err := strategicpatch.CreateTwoWayMergePatch(before, after, out)
	if err != nil {
		return fmt.Errorf("cannot compute the edit: %v", oneLine(err))
	}
	return mergeStrict(full, patch, out, "edit", "edited")
}

// PodYAML is the pod as the scheduler saw it at the fork, as a manifest to
// edit and give back as a recorder.EditPod. It holds what the scheduler reads, by the
// allow-list a snapshot keeps (scrub.Pod): environment, commands, probes,
// annotations and secret names are not in it, so they never reach an
// editor's file.
func (f *Fork) PodYAML() ([]byte, error) {
	return yaml.Marshal(podView(f.Pod))
}

// NodeYAML is a node as the scheduler saw it at the fork, to edit and give
// back as a recorder.EditNode; like PodYAML, what the scheduler reads only (scrub.Node).
func (f *Fork) NodeYAML(name string) ([]byte, error) {
	i, err := f.nodeIndex(name)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(nodeView(f.Nodes[i]))
}

// podView is the part of p that PodYAML shows.
func podView(p *v1.Pod) *v1.Pod {
	v := scrub.Pod(p)
	v.APIVersion, v.Kind = "v1", "Pod"
	return v
}

// nodeView is the part of n that NodeYAML shows.
func nodeView(n *v1.Node) *v1.Node {
	v := scrub.Node(n)
	v.APIVersion, v.Kind = "v1", "Node"
	return v
}

// decodeOne decodes a manifest that must hold exactly one object of type T
// (a kind named kind, for errors).
func decodeOne[T runtime.Object](source string, manifest []byte, kind string) (T, error) {
	var zero T
	objs, err := fixture.DecodeManifest(source, manifest)
	if err != nil {
		return zero, err
	}
	if len(objs) != 1 {
		return zero, fmt.Errorf("%s: holds %d objects; give one %s", source, len(objs), kind)
	}
	o, ok := objs[0].(T)
	if !ok {
		return zero, fmt.Errorf("%s: is a %s, not a %s", source, fixture.KindName(objs[0]), kind)
	}
	return o, nil
}
