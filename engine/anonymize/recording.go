package anonymize

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// A Rewrite is a recording read whole, its names collected by the same
// rules a fixture's are (Map), ready to be written anonymized. Names in
// the records' structured fields (pods, namespaces, nodes, owners, label
// keys and values, taints, claims, volumes, classes, pod groups, UIDs)
// are mapped by their class; then every string of every record, mapped or
// not, goes through Text: a field this file does not name is free text, so
// a field added to the records later is redacted rather than leaked.
type Rewrite struct {
	m       *Map
	text    *Text
	header  recorder.Header
	records []recorder.Record
	dropped map[int64]*recorder.Dropped
	done    bool
}

// ReadRecording reads a recording whole and collects its names; name is
// used in errors. A damaged recording (a torn or corrupt record, a cycle
// without its node set, a record out of place) is refused in one line that
// says where: a record left out could hold a name the map never saw.
func ReadRecording(name string, r io.Reader) (*Rewrite, error) {
	rd, err := recorder.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rw := &Rewrite{header: rd.Header(), dropped: map[int64]*recorder.Dropped{},
		m: &Map{seen: map[string]map[string]bool{}, to: map[string]map[string]string{},
			owners: map[string]ownerName{}, ephemeral: map[string][2]string{}, dropped: map[string]int{}, kept: map[string]bool{}, composites: map[string]bool{}}}
	if rw.header.Unreadable {
		return nil, fmt.Errorf("%s: its header record is damaged: not anonymized", name)
	}
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var dropped *recorder.ErrDropped
		if errors.As(err, &dropped) {
			// Not damage: a note that a live session dropped records.
			d := dropped.Dropped
			rw.dropped[int64(len(rw.records))] = &d
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w: not anonymized (a record left out could hold a name the rewrite never saw)", name, err)
		}
		if rec.Kind == recorder.KindNodeSet {
			continue // written again before the first cycle that uses it
		}
		rw.records = append(rw.records, rec)
	}
	if n := rd.Skipped(); len(n) > 0 {
		kinds := slices.Sorted(func(yield func(string) bool) {
			for k := range n {
				if !yield(k) {
					return
				}
			}
		})
		return nil, fmt.Errorf("%s: records of kinds this build does not know (%s): not anonymized", name, strings.Join(kinds, ", "))
	}
	m := rw.m
	for i := range rw.records {
		m.indexRecord(&rw.records[i])
	}
	m.collecting = true
	m.header(&rw.header)
	for i := range rw.records {
		m.record(&rw.records[i])
	}
	m.assign()
	m.collecting = false
	rw.text = newText(m)
	return rw, nil
}

// Names counts the distinct names the rewrite maps.
func (rw *Rewrite) Names() int {
	n := 0
	for _, to := range rw.m.to {
		n += len(to)
	}
	return n
}

// Text is the free-text cleaner of this recording's names, for what goes
// with it (the marks' notes).
func (rw *Rewrite) Text() *Text { return rw.text }

// Write writes the recording anonymized, record by record, through the
// recorder's Writer. It can be called once: it rewrites the records read.
func (rw *Rewrite) Write(w io.Writer) error {
	if rw.done {
		return errors.New("anonymize: a rewrite is written once")
	}
	rw.done = true
	m := rw.m
	h := rw.header
	m.header(&h)
	rw.text.walk(reflect.ValueOf(&h).Elem())
	wr, err := recorder.NewWriter(w, h)
	if err != nil {
		return err
	}
	sets := map[int]*recorder.NodeSet{}
	for i := range rw.records {
		if d, ok := rw.dropped[int64(i)]; ok {
			if err := wr.WriteDropped(d); err != nil {
				return err
			}
		}
		rec := &rw.records[i]
		if c := rec.Cycle; c != nil && c.Nodes != nil {
			ns, ok := sets[c.Nodes.ID]
			if !ok {
				ns = cloneNodeSet(c.Nodes)
				m.nodeSet(ns)
				rw.text.walk(reflect.ValueOf(ns).Elem())
				sets[c.Nodes.ID] = ns
			}
			c.Nodes = nil
			m.record(rec)
			rw.text.walk(reflect.ValueOf(c).Elem())
			c.Nodes = ns
		} else {
			m.record(rec)
			for _, v := range []any{rec.Cycle, rec.Observed, rec.Queue, rec.Cluster, rec.PodGroup} {
				if rv := reflect.ValueOf(v); !rv.IsNil() {
					rw.text.walk(rv.Elem())
				}
			}
		}
		if err := writeRecord(wr, rec); err != nil {
			return err
		}
	}
	if d, ok := rw.dropped[int64(len(rw.records))]; ok {
		if err := wr.WriteDropped(d); err != nil {
			return err
		}
	}
	return wr.Flush()
}

func writeRecord(wr *recorder.Writer, rec *recorder.Record) error {
	switch rec.Kind {
	case recorder.KindCycle:
		return wr.WriteCycle(rec.Cycle)
	case recorder.KindObserved:
		return wr.WriteObserved(rec.Observed)
	case recorder.KindQueue:
		return wr.WriteQueue(rec.Queue)
	case recorder.KindCluster:
		return wr.WriteCluster(rec.Cluster)
	case recorder.KindPodGroup:
		return wr.WritePodGroup(rec.PodGroup)
	case recorder.KindEnd:
		return wr.WriteEnd()
	}
	return fmt.Errorf("anonymize: a %s record cannot be written", rec.Kind)
}

func cloneNodeSet(ns *recorder.NodeSet) *recorder.NodeSet {
	out := &recorder.NodeSet{ID: ns.ID, Names: slices.Clone(ns.Names)}
	for _, info := range ns.Info {
		c := info
		c.Labels = nil
		if info.Labels != nil {
			c.Labels = make(map[string]string, len(info.Labels))
			for k, v := range info.Labels {
				c.Labels[k] = v
			}
		}
		c.Taints = slices.Clone(info.Taints)
		out.Info = append(out.Info, c)
	}
	return out
}

// indexRecord notes the names controllers made (a pod named after its
// workload) from the cycles' owners, as Map.index does from owner
// references, and which groups are CompositePodGroups (their pod-group
// cycles' hierarchies say; a queue event names a group without its kind).
func (m *Map) indexRecord(rec *recorder.Record) {
	if g := rec.PodGroup; g != nil {
		for _, h := range g.Hierarchy {
			if h.Kind == recorder.KindCompositePodGroup {
				m.composites[g.Group.Namespace+"/"+h.Name] = true
			}
		}
	}
	if c := rec.Cycle; c != nil && c.Pod.Owner != nil {
		o := c.Pod.Owner
		if o.Name != "" && strings.HasPrefix(c.Pod.Name, o.Name+"-") {
			m.owners["Pod/"+c.Pod.Namespace+"/"+c.Pod.Name] = ownerName{o.Kind, o.Name, c.Pod.Name[len(o.Name):]}
		}
	}
}

// header maps what a recording's header says of its source: the fixture's
// path or the cluster's context, the configuration's path, and the
// digests that would tell the original files. Profiles, plugins, feature
// gates and versions are the scheduler's, kept.
func (m *Map) header(h *recorder.Header) {
	m.keep(h.Format, h.SchedscopeVersion, h.KubernetesVersion, h.Clock, h.Source.Kind)
	for g := range h.FeatureGates {
		m.keep(g)
	}
	for _, p := range h.Profiles {
		m.keep(p.SchedulerName)
		for _, e := range p.ExtensionPoints {
			m.keep(e.Name)
			for _, pl := range e.Plugins {
				m.keep(pl.Name)
			}
		}
	}
	if m.collecting {
		return
	}
	h.Anonymized = true
	h.Source.Name = "anonymized"
	if h.Source.Config != "" {
		h.Source.Config = "anonymized"
	}
	h.Source.Digest, h.Source.ConfigDigest = "", ""
}

// nodeSet maps a node set's names, labels and taints; allocatable
// resources are kept.
func (m *Map) nodeSet(ns *recorder.NodeSet) {
	for i := range ns.Names {
		m.ref("Node", "", &ns.Names[i])
	}
	for i := range ns.Info {
		info := &ns.Info[i]
		for k, v := range info.Labels {
			m.keepLabel(k, v)
		}
		info.Labels = m.labels(info.Labels)
		for j := range info.Taints {
			t := &info.Taints[j]
			m.keepLabel(t.Key, t.Value)
			m.keep(t.Effect)
			m.value(t.Key, &t.Value)
			m.key(&t.Key)
		}
		for r := range info.Allocatable {
			m.keep(r)
		}
	}
}

func (m *Map) node(p *string) { m.ref("Node", "", p) }

// keep notes strings a rule keeps as they are (a plugin's name, a
// resource's, Kubernetes' own label keys): free text may hold them.
func (m *Map) keep(ss ...string) {
	for _, s := range ss {
		if s != "" {
			m.kept[s] = true
		}
	}
}

// keepLabel notes what of a label (or taint) the rules keep.
func (m *Map) keepLabel(k, v string) {
	if keepKey(k) {
		m.keep(k)
	}
	if valueClass(k, v) == "" || valueClass(k, v) == classNamespace && keepNamespace(v) {
		m.keep(v)
	}
}

func (m *Map) nodes(ps []string) {
	for i := range ps {
		m.node(&ps[i])
	}
}

// pod maps a pod reference: its name (as its owner's, when its owner made
// it), namespace, UID, node and owner.
func (m *Map) pod(p *recorder.PodRef) {
	ns := p.Namespace
	m.ref("Pod", ns, &p.Name)
	m.namespace(&p.Namespace)
	m.str(classUID, &p.UID)
	m.node(&p.Node)
	if o := p.Owner; o != nil {
		m.keep(o.Kind)
		m.ref(o.Kind, ns, &o.Name)
	}
}

func (m *Map) pods(ps []recorder.PodRef) {
	for i := range ps {
		m.pod(&ps[i])
	}
}

// record maps the structured fields of one record. While collecting it
// changes nothing.
func (m *Map) record(rec *recorder.Record) {
	if c := rec.Cycle; c != nil {
		if m.collecting && c.Nodes != nil {
			m.nodeSet(c.Nodes)
		}
		m.cycle(c)
	}
	if o := rec.Observed; o != nil {
		m.pod(&o.Pod)
		m.node(&o.Node)
		m.node(&o.Predicted)
		m.nodes(o.TieSet)
		m.node(&o.Nominated)
	}
	if q := rec.Queue; q != nil {
		if g := q.PodGroup; g != nil {
			// The queue moved a group, which Pod names too.
			kind := m.groupKind(g.Namespace, g.Name)
			if q.Pod.Namespace == g.Namespace && q.Pod.Name == g.Name {
				m.ref(kind, q.Pod.Namespace, &q.Pod.Name)
				m.namespace(&q.Pod.Namespace)
				m.str(classUID, &q.Pod.UID)
			} else {
				m.pod(&q.Pod)
			}
			m.ref(kind, g.Namespace, &g.Name)
			m.namespace(&g.Namespace)
		} else {
			m.pod(&q.Pod)
		}
		for _, r := range q.GateReasons {
			m.gates(r)
		}
	}
	if s := rec.Cluster; s != nil {
		for i := range s.Workloads {
			w := &s.Workloads[i]
			for j := range w.Pods {
				m.ref("Pod", w.Namespace, &w.Pods[j].Name)
				m.node(&w.Pods[j].Node)
			}
			m.ref(w.Kind, w.Namespace, &w.Name)
			m.namespace(&w.Namespace)
		}
		for i := range s.Budgets {
			b := &s.Budgets[i]
			m.ref("PodDisruptionBudget", b.Namespace, &b.Name)
			m.namespace(&b.Namespace)
		}
		for i := range s.Claims {
			c := &s.Claims[i]
			m.ref("PersistentVolumeClaim", c.Namespace, &c.Name)
			m.ref("PersistentVolume", "", &c.Volume)
			m.ref("StorageClass", "", &c.StorageClass)
			m.node(&c.SelectedNode)
			m.namespace(&c.Namespace)
		}
	}
	if g := rec.PodGroup; g != nil {
		m.podGroupCycle(g)
	}
}

// podGroupCycle maps a pod-group cycle's groups (its own, a PodGroup or,
// with a hierarchy, a CompositePodGroup; each level of the hierarchy and
// its parent; each member's), pods and nodes, and its placement
// candidates: a candidate's name and domain are values of the topology
// key, mapped as node labels' values are. Plugins, policies and counts
// are kept.
func (m *Map) podGroupCycle(g *recorder.PodGroupCycle) {
	ns := g.Group.Namespace
	root := recorder.KindPodGroupKind
	if g.Composite() {
		root = recorder.KindCompositePodGroup
	}
	m.keep(g.Profile, g.Policy)
	m.ref(root, ns, &g.Group.Name)
	m.namespace(&g.Group.Namespace)
	for i := range g.Members {
		mb := &g.Members[i]
		m.pod(&mb.Pod)
		m.ref(recorder.KindPodGroupKind, ns, &mb.PodGroup)
		m.node(&mb.Node)
		for j := range mb.Assumed {
			m.ref("Pod", ns, &mb.Assumed[j].Pod)
			m.node(&mb.Assumed[j].Node)
		}
	}
	for i := range g.Hierarchy {
		h := &g.Hierarchy[i]
		m.keep(h.Kind, h.Policy)
		m.ref(h.Kind, ns, &h.Name)
		m.ref(recorder.KindCompositePodGroup, ns, &h.Parent)
		m.topologyKey(&h.Topology)
	}
	if p := g.Placements; p != nil {
		m.keep(p.Generator)
		for i := range p.Candidates {
			c := &p.Candidates[i]
			m.value(p.TopologyKey, &c.Name)
			m.value(p.TopologyKey, &c.Domain)
			m.nodes(c.Nodes)
			for j := range c.Members {
				m.ref("Pod", ns, &c.Members[j].Pod)
				m.node(&c.Members[j].Node)
			}
			for j := range c.Scores {
				m.keep(c.Scores[j].Plugin)
			}
		}
		m.topologyKey(&p.TopologyKey)
	}
}

// groupKind is the kind of the group a queue event names: a
// CompositePodGroup when a pod-group cycle's hierarchy held one of that
// name, else a PodGroup.
func (m *Map) groupKind(ns, name string) string {
	if m.composites[ns+"/"+name] {
		return recorder.KindCompositePodGroup
	}
	return recorder.KindPodGroupKind
}

// topologyKey maps a pod group's topology key as a label key (Kubernetes'
// own kept).
func (m *Map) topologyKey(p *string) {
	m.keepLabel(*p, "")
	m.key(p)
}

// cycle maps a cycle's pods, nodes and the claims its DRA shortfalls
// name; codes, plugins, phases and resources are kept, and reasons and
// messages are free text (Text).
func (m *Map) cycle(c *recorder.Cycle) {
	ns := c.Pod.Namespace
	m.pod(&c.Pod)
	m.keep(c.Profile)
	for _, r := range []map[string]int64{c.Requests, c.NonZeroRequests} {
		for k := range r {
			m.keep(k)
		}
	}
	for i := range c.NodeUse {
		m.pods(c.NodeUse[i].Pods)
		for _, r := range []map[string]int64{c.NodeUse[i].Requested, c.NodeUse[i].NonZero} {
			for k := range r {
				m.keep(k)
			}
		}
	}
	if f := c.FastPath; f != nil {
		m.node(&f.Node)
	}
	if p := c.PreFilter; p != nil {
		m.nodes(p.NodeSubset)
	}
	if f := c.Filter; f != nil {
		for i := range f.Rejected {
			m.pods(f.Rejected[i].Nominated)
		}
	}
	for _, list := range c.DeviceShortfalls {
		for i := range list {
			m.keep(list[i].Request) // a claim's request names are kept, as in a fixture
			m.ref("ResourceClaim", ns, &list[i].Claim)
			m.ref("DeviceClass", "", &list[i].Class)
		}
	}
	if p := c.PostFilter; p != nil {
		m.node(&p.NominatedNode)
		for _, cs := range [][]recorder.Candidate{p.Candidates, p.Rejected} {
			for i := range cs {
				m.node(&cs[i].Node)
				m.pods(cs[i].Victims)
			}
		}
		m.pods(p.Victims)
	}
	if s := c.Selection; s != nil {
		m.node(&s.Node)
	}
	m.node(&c.Outcome.Node)
	m.node(&c.Outcome.NominatedNode)
	m.gates(c.Outcome.Message)
}

// gatesMessage is how upstream's SchedulingGates plugin names a pod's
// gates (schedulinggates.go, "waiting for scheduling gates: %v"): the
// only place a recording holds them.
var gatesMessage = regexp.MustCompile(`waiting for scheduling gates: \[([^\]]*)\]`)

// gates collects the scheduling gates message s names, mapped as a
// fixture's are (Text then replaces them).
func (m *Map) gates(s string) {
	if !m.collecting {
		return
	}
	for _, g := range gatesMessage.FindAllStringSubmatch(s, -1) {
		for _, name := range strings.Fields(g[1]) {
			m.str(classGate, &name)
		}
	}
}
