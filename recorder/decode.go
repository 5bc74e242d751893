package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Decoding a record is shared by the sequential Reader and the random-access
// File: decodeLine checks a line's frame and checksum and parses its JSON,
// leaving the run-length lists of a cycle unexpanded; decodeRecord then
// checks the record and expands those lists against the node set the cycle
// refers to, within a budget, so that a few bytes of runs cannot claim
// gigabytes.

// Bounds on expanding runs-form lists.
const (
	// maxRecordInts bounds the values all runs-form lists of one record expand to.
	maxRecordInts = 1 << 22
	// maxIntsUnknownSet bounds one list when the cycle's node set is unknown;
	// otherwise a list holds at most one value per node.
	maxIntsUnknownSet = 1 << 16
)

// wireEnvelope is envelope as it is decoded.
type wireEnvelope struct {
	Kind      string         `json:"kind"`
	Header    *Header        `json:"header,omitempty"`
	NodeSet   *NodeSet       `json:"nodeSet,omitempty"`
	Cycle     *wireCycle     `json:"cycle,omitempty"`
	Observed  *Observed      `json:"observed,omitempty"`
	Queue     *QueueEvent    `json:"queue,omitempty"`
	Dropped   *Dropped       `json:"dropped,omitempty"`
	Cluster   *ClusterState  `json:"cluster,omitempty"`
	PodGroup  *PodGroupCycle `json:"podGroup,omitempty"`
	NodeSetAt int64          `json:"nodeSetAt,omitempty"`
	N         int64          `json:"n,omitempty"`
}

// wireCycle decodes a Cycle with its Ints lists left as written. The fields
// declared here shadow the embedded Cycle's fields of the same JSON name.
type wireCycle struct {
	*Cycle
	Filter    *wireFilter    `json:"filter,omitempty"`
	Score     *wireScore     `json:"score,omitempty"`
	Selection *wireSelection `json:"selection,omitempty"`
}

type wireFilter struct {
	*FilterPhase
	Feasible  wireInts `json:"feasible"`
	Discarded wireInts `json:"discarded,omitempty"`
}

type wireScore struct {
	*ScorePhase
	Nodes   wireInts          `json:"nodes"`
	Plugins []wireScorePlugin `json:"plugins"`
	Totals  wireInts          `json:"totals"`
}

type wireScorePlugin struct {
	*ScorePlugin
	Raw        wireInts `json:"raw"`
	Normalized wireInts `json:"normalized,omitempty"`
}

type wireSelection struct {
	*Selection
	Top wireInts `json:"top,omitempty"`
}

// wireInts is an Ints list as written: plain values, or runs not yet expanded.
type wireInts struct {
	plain []int64
	runs  [][3]int64
	isRun bool
}

func (w *wireInts) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	*w = wireInts{}
	switch {
	case bytes.Equal(data, []byte("null")):
		return nil
	case len(data) > 0 && data[0] == '{':
		var r intsRuns
		if err := json.Unmarshal(data, &r); err != nil {
			return err
		}
		for _, run := range r.Runs {
			if run[2] < 0 || run[2] > maxInts {
				return fmt.Errorf("run length %d out of range", run[2])
			}
		}
		w.runs, w.isRun = r.Runs, true
		if w.runs == nil {
			w.runs = [][3]int64{}
		}
		return nil
	}
	return json.Unmarshal(data, &w.plain)
}

// budget is what expanding one record's lists may still allocate.
type budget struct {
	perList int64
	left    int64
	// nodes says perList is the size of the cycle's node set.
	nodes bool
}

// newBudget bounds each list by the size of the node set, or by
// maxIntsUnknownSet when the set is unknown, and all lists by total.
func newBudget(nodes *NodeSet, total int64) *budget {
	b := &budget{perList: min(maxIntsUnknownSet, total), left: total}
	if nodes != nil {
		b.perList, b.nodes = int64(len(nodes.Names)), true
	}
	return b
}

func expandInts[T ~int | ~int64](w wireInts, b *budget, what string) (Ints[T], error) {
	if !w.isRun {
		if w.plain == nil {
			return nil, nil
		}
		out := make(Ints[T], len(w.plain))
		for i, v := range w.plain {
			out[i] = T(v)
		}
		return out, nil
	}
	var total int64
	for _, run := range w.runs {
		total += run[2] // each run[2] ≤ maxInts, and so are the partial sums checked below
		if total > b.perList {
			if b.nodes {
				return nil, fmt.Errorf("%s: runs expand to more than %d values, one per node of the cycle's node set", what, b.perList)
			}
			return nil, fmt.Errorf("%s: runs expand to more than %d values, too many for a cycle whose node set is unknown", what, b.perList)
		}
	}
	if total > b.left {
		return nil, fmt.Errorf("%s: runs expand to %d values, more than the %d this record may still hold", what, total, b.left)
	}
	b.left -= total
	out := make(Ints[T], 0, total)
	for _, run := range w.runs {
		for k := int64(0); k < run[2]; k++ {
			out = append(out, T(run[0]+k*run[1]))
		}
	}
	return out, nil
}

// build turns the decoded cycle into a Cycle whose lists are expanded within
// a budget derived from nodes (nil when the node set is unknown).
func (w *wireCycle) build(nodes *NodeSet, total int64) (*Cycle, error) {
	c := w.Cycle
	if c == nil {
		c = &Cycle{}
	}
	b := newBudget(nodes, total)
	var err error
	if w.Filter != nil {
		f := w.Filter.FilterPhase
		if f == nil {
			f = &FilterPhase{}
		}
		if f.Feasible, err = expandInts[int](w.Filter.Feasible, b, "filter.feasible"); err != nil {
			return nil, err
		}
		if f.Discarded, err = expandInts[int](w.Filter.Discarded, b, "filter.discarded"); err != nil {
			return nil, err
		}
		c.Filter = f
	}
	if w.Score != nil {
		s := w.Score.ScorePhase
		if s == nil {
			s = &ScorePhase{}
		}
		if s.Nodes, err = expandInts[int](w.Score.Nodes, b, "score.nodes"); err != nil {
			return nil, err
		}
		if s.Totals, err = expandInts[int64](w.Score.Totals, b, "score.totals"); err != nil {
			return nil, err
		}
		s.Plugins = nil
		if w.Score.Plugins != nil {
			s.Plugins = make([]ScorePlugin, len(w.Score.Plugins))
		}
		for i, wp := range w.Score.Plugins {
			if wp.ScorePlugin != nil {
				s.Plugins[i] = *wp.ScorePlugin
			}
			p := &s.Plugins[i]
			if p.Raw, err = expandInts[int64](wp.Raw, b, "score.plugins.raw"); err != nil {
				return nil, err
			}
			if p.Normalized, err = expandInts[int64](wp.Normalized, b, "score.plugins.normalized"); err != nil {
				return nil, err
			}
		}
		c.Score = s
	}
	if w.Selection != nil {
		s := w.Selection.Selection
		if s == nil {
			s = &Selection{}
		}
		if s.Top, err = expandInts[int](w.Selection.Top, b, "selection.top"); err != nil {
			return nil, err
		}
		c.Selection = s
	}
	c.Nodes = nodes
	return c, nil
}

// decodeLine checks one record line (without its newline) against its
// checksum and decodes it; on failure it returns nil and the reason.
func decodeLine(line []byte) (*wireEnvelope, string) {
	body, fault := openFrame(line)
	if fault != frameOK {
		return nil, fault.String()
	}
	var e wireEnvelope
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, err.Error()
	}
	if e.Cycle != nil && e.Cycle.Cycle == nil {
		e.Cycle.Cycle = &Cycle{} // "cycle":{} sets no field of the embedded Cycle
	}
	return &e, ""
}

// decodeRecord checks a decoded record and builds it. nodeSet returns the
// node set a cycle refers to, or a reason it is missing. A record that
// cannot be used is a *ErrCorrupt; a cycle whose node set is missing is
// returned with an *ErrMissingNodeSet. A record of an unknown kind (or a
// header, as a flight recorder's next file starts with) is returned with an
// empty Kind.
func decodeRecord(e *wireEnvelope, off int64, line int, lim limits, nodeSet func(id int, at int64) (*NodeSet, string)) (Record, error) {
	corrupt := func(reason string) (Record, error) {
		return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: line, Reason: reason}
	}
	switch e.Kind {
	case KindNodeSet:
		if e.NodeSet == nil {
			return corrupt("nodeSet record without body")
		}
		if err := checkNodeSet(e.NodeSet); err != nil {
			return corrupt(fmt.Sprintf("node set %d: %v", e.NodeSet.ID, err))
		}
		return Record{Kind: KindNodeSet, NodeSet: e.NodeSet, Offset: off}, nil
	case KindCycle:
		if e.Cycle == nil {
			return corrupt("cycle record without body")
		}
		id := 0
		if e.Cycle.Cycle != nil {
			id = e.Cycle.NodeSetID
		}
		var nodes *NodeSet
		var missing error
		if id != 0 || e.NodeSetAt != 0 {
			var reason string
			nodes, reason = nodeSet(id, e.NodeSetAt)
			if nodes == nil {
				missing = &ErrMissingNodeSet{Offset: off, ID: id, Reason: reason}
			}
		}
		c, err := e.Cycle.build(nodes, lim.ints)
		if err != nil {
			return corrupt(err.Error())
		}
		if err := checkCycle(c); err != nil {
			return corrupt(fmt.Sprintf("cycle %d: %v", c.Seq, err))
		}
		if m, ok := missing.(*ErrMissingNodeSet); ok {
			m.Seq = c.Seq
		}
		return Record{Kind: KindCycle, Cycle: c, Offset: off}, missing
	case KindObserved:
		if e.Observed == nil {
			return corrupt("observed record without body")
		}
		return Record{Kind: KindObserved, Observed: e.Observed, Offset: off}, nil
	case KindDropped:
		if e.Dropped == nil {
			return corrupt("dropped record without body")
		}
		return Record{Kind: KindDropped, Offset: off}, &ErrDropped{Offset: off, Dropped: *e.Dropped}
	case KindQueue:
		if e.Queue == nil {
			return corrupt("queue record without body")
		}
		if err := checkQueueEvent(e.Queue); err != nil {
			return corrupt(err.Error())
		}
		return Record{Kind: KindQueue, Queue: e.Queue, Offset: off}, nil
	case KindCluster:
		if e.Cluster == nil {
			return corrupt("cluster record without body")
		}
		return Record{Kind: KindCluster, Cluster: e.Cluster, Offset: off}, nil
	case KindPodGroup:
		if e.PodGroup == nil {
			return corrupt("podGroup record without body")
		}
		if reason := checkPodGroupCycle(e.PodGroup); reason != "" {
			return corrupt(reason)
		}
		return Record{Kind: KindPodGroup, PodGroup: e.PodGroup, Offset: off}, nil
	case KindEnd:
		return Record{Kind: KindEnd, Offset: off}, nil
	}
	return Record{Offset: off}, nil
}
