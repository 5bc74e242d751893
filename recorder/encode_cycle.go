package recorder

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// A cycle record is most of what a recording writes, and encoding/json took
// most of the writer's time on it: it reflects on every field, and it scans
// again every byte an Ints returns from MarshalJSON (the node lists and the
// scores, most of a large cycle) to check and compact it. cycleEncoder
// writes the same bytes by hand, field by field, as encoding/json would
// write them with HTML escaping off (the writer's setting): the fields in
// declaration order, omitempty as encoding/json reads it, map keys sorted,
// nil slices and pointers as null. TestCycleRecordIsEncodingJSON checks it
// byte for byte against encoding/json on cycles with every field set, so a
// field added to a cycle type and not here fails that test. Every other
// record kind, and anything unusual inside a cycle (a string that needs
// escaping), goes through encoding/json.

// cycleEncoder appends JSON to b.
type cycleEncoder struct {
	b   []byte
	err error
	// std encodes what is not written by hand.
	std    *json.Encoder
	stdBuf bytes.Buffer
}

func newCycleEncoder() *cycleEncoder {
	e := &cycleEncoder{}
	e.std = json.NewEncoder(&e.stdBuf)
	e.std.SetEscapeHTML(false)
	return e
}

// appendRecord appends the envelope of a cycle record: kind, cycle,
// nodeSetAt and n, as envelope declares them.
func (e *cycleEncoder) appendRecord(c *Cycle, nodeSetAt, n int64) {
	e.b = append(e.b, `{"kind":"cycle"`...)
	if c != nil {
		e.b = append(e.b, `,"cycle":`...)
		e.cycle(c)
	}
	if nodeSetAt != 0 {
		e.b = append(e.b, `,"nodeSetAt":`...)
		e.b = strconv.AppendInt(e.b, nodeSetAt, 10)
	}
	if n != 0 {
		e.b = append(e.b, `,"n":`...)
		e.b = strconv.AppendInt(e.b, n, 10)
	}
	e.b = append(e.b, '}')
}

// viaStd appends v as encoding/json writes it.
func (e *cycleEncoder) viaStd(v any) {
	e.stdBuf.Reset()
	if err := e.std.Encode(v); err != nil {
		if e.err == nil {
			e.err = err
		}
		return
	}
	e.b = append(e.b, bytes.TrimSuffix(e.stdBuf.Bytes(), []byte("\n"))...)
}

// str appends s as a JSON string: as it is when it needs no escaping
// (printable ASCII without quote or backslash), else through encoding/json.
func (e *cycleEncoder) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7f || c == '"' || c == '\\' {
			e.viaStd(s)
			return
		}
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
}

// key appends a member's key, after a comma unless it is the object's first.
func (e *cycleEncoder) key(first *bool, k string) {
	if !*first {
		e.b = append(e.b, ',')
	}
	*first = false
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
}

func (e *cycleEncoder) int(v int64) { e.b = strconv.AppendInt(e.b, v, 10) }

func (e *cycleEncoder) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

func (e *cycleEncoder) strs(v []string) {
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, s := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(s)
	}
	e.b = append(e.b, ']')
}

// list appends v as an array, each element by each; nil as null.
func list[T any](e *cycleEncoder, v []T, each func(*T)) {
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		each(&v[i])
	}
	e.b = append(e.b, ']')
}

// ints appends a plain slice of integers (not an Ints).
func ints[T ~int | ~int64](e *cycleEncoder, v []T) {
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, x := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	}
	e.b = append(e.b, ']')
}

// counts appends a map of counts, keys sorted.
func (e *cycleEncoder) counts(m map[string]int64) {
	if m == nil {
		e.b = append(e.b, "null"...)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.b = append(e.b, '{')
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(k)
		e.b = append(e.b, ':')
		e.int(m[k])
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) time(t time.Time) {
	data, err := t.MarshalJSON()
	if err != nil {
		if e.err == nil {
			e.err = err
		}
		return
	}
	e.b = append(e.b, data...)
}

func (e *cycleEncoder) cycle(c *Cycle) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "seq")
	e.int(int64(c.Seq))
	e.key(&f, "pod")
	e.podRef(&c.Pod)
	e.key(&f, "profile")
	e.str(c.Profile)
	e.key(&f, "attempt")
	e.int(int64(c.Attempt))
	e.key(&f, "start")
	e.time(c.Start)
	e.key(&f, "ns")
	e.int(int64(c.Duration))
	e.key(&f, "nodeSet")
	e.int(int64(c.NodeSetID))
	if len(c.NodeUse) > 0 {
		e.key(&f, "nodeUse")
		list(e, c.NodeUse, e.nodeUse)
	}
	e.key(&f, "searchStart")
	e.int(int64(c.SearchStart))
	e.key(&f, "nodesToFind")
	e.int(int64(c.NodesToFind))
	if len(c.Requests) > 0 {
		e.key(&f, "requests")
		e.counts(c.Requests)
	}
	if len(c.NonZeroRequests) > 0 {
		e.key(&f, "nonZeroRequests")
		e.counts(c.NonZeroRequests)
	}
	if c.FastPath != nil {
		e.key(&f, "fastPath")
		e.viaStd(c.FastPath)
	}
	if c.BatchHint != "" {
		e.key(&f, "batchHint")
		e.str(c.BatchHint)
	}
	if c.PreFilter != nil {
		e.key(&f, "preFilter")
		e.preFilter(c.PreFilter)
	}
	if c.Filter != nil {
		e.key(&f, "filter")
		e.filter(c.Filter)
	}
	if c.Diagnostic != nil {
		e.key(&f, "diagnostic")
		e.viaStd(c.Diagnostic)
	}
	if len(c.DeviceShortfalls) > 0 {
		e.key(&f, "deviceShortfalls")
		e.viaStd(c.DeviceShortfalls)
	}
	if c.PostFilter != nil {
		e.key(&f, "postFilter")
		e.viaStd(c.PostFilter)
	}
	if c.Score != nil {
		e.key(&f, "score")
		e.score(c.Score)
	}
	if c.Selection != nil {
		e.key(&f, "selection")
		e.selection(c.Selection)
	}
	for _, ps := range []struct {
		k string
		v []PluginStatus
	}{{"reserve", c.Reserve}, {"unreserve", c.Unreserve}, {"permit", c.Permit}, {"preBind", c.PreBind}, {"bind", c.Bind}, {"postBind", c.PostBind}} {
		if len(ps.v) > 0 {
			e.key(&f, ps.k)
			list(e, ps.v, e.status)
		}
	}
	e.key(&f, "outcome")
	e.outcome(&c.Outcome)
	if len(c.Timings) > 0 {
		e.key(&f, "timings")
		list(e, c.Timings, e.timing)
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) podRef(p *PodRef) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "namespace")
	e.str(p.Namespace)
	e.key(&f, "name")
	e.str(p.Name)
	if p.UID != "" {
		e.key(&f, "uid")
		e.str(p.UID)
	}
	if p.Priority != 0 {
		e.key(&f, "priority")
		e.int(int64(p.Priority))
	}
	if p.Node != "" {
		e.key(&f, "node")
		e.str(p.Node)
	}
	if p.Owner != nil {
		e.key(&f, "owner")
		g := true
		e.b = append(e.b, '{')
		e.key(&g, "kind")
		e.str(p.Owner.Kind)
		e.key(&g, "name")
		e.str(p.Owner.Name)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) timing(t *PhaseTiming) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "phase")
	e.str(t.Phase)
	e.key(&f, "ns")
	e.int(int64(t.Duration))
	if t.At != 0 {
		e.key(&f, "at")
		e.int(int64(t.At))
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) nodeUse(u *NodeUse) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "n")
	e.int(int64(u.Node))
	e.key(&f, "g")
	e.int(u.Generation)
	if len(u.Requested) > 0 {
		e.key(&f, "req")
		e.counts(u.Requested)
	}
	if len(u.NonZero) > 0 {
		e.key(&f, "nz")
		e.counts(u.NonZero)
	}
	if len(u.Pods) > 0 {
		e.key(&f, "pods")
		list(e, u.Pods, e.podRef)
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) status(s *PluginStatus) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "plugin")
	e.str(s.Plugin)
	e.key(&f, "code")
	e.str(s.Code)
	if len(s.Reasons) > 0 {
		e.key(&f, "reasons")
		e.strs(s.Reasons)
	}
	if s.Duration != 0 {
		e.key(&f, "ns")
		e.int(int64(s.Duration))
	}
	if s.Timeout != 0 {
		e.key(&f, "timeoutNs")
		e.int(int64(s.Timeout))
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) preFilter(p *PreFilterPhase) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "plugins")
	list(e, p.Plugins, e.status)
	e.key(&f, "code")
	e.str(p.Code)
	if p.Message != "" {
		e.key(&f, "message")
		e.str(p.Message)
	}
	if len(p.NodeSubset) > 0 {
		e.key(&f, "nodeSubset")
		e.strs(p.NodeSubset)
	}
	if len(p.SubsetPlugins) > 0 {
		e.key(&f, "subsetPlugins")
		e.strs(p.SubsetPlugins)
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) filter(p *FilterPhase) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "plugins")
	e.strs(p.Plugins)
	if len(p.Skipped) > 0 {
		e.key(&f, "skipped")
		e.strs(p.Skipped)
	}
	e.key(&f, "feasible")
	e.b = p.Feasible.appendJSON(e.b)
	if len(p.Rejected) > 0 {
		e.key(&f, "rejected")
		list(e, p.Rejected, e.nodeStatus)
	}
	if len(p.Discarded) > 0 {
		e.key(&f, "discarded")
		e.b = p.Discarded.appendJSON(e.b)
	}
	e.key(&f, "evaluated")
	e.int(int64(p.Evaluated))
	if len(p.Durations) > 0 {
		e.key(&f, "ns")
		ints(e, p.Durations)
	}
	if len(p.Calls) > 0 {
		e.key(&f, "calls")
		ints(e, p.Calls)
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) nodeStatus(s *NodeStatus) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "n")
	e.int(int64(s.Node))
	e.key(&f, "p")
	e.int(int64(s.Plugin))
	e.key(&f, "c")
	e.str(s.Code)
	if len(s.Reasons) > 0 {
		e.key(&f, "r")
		e.strs(s.Reasons)
	}
	if len(s.Nominated) > 0 {
		e.key(&f, "nominated")
		list(e, s.Nominated, e.podRef)
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) score(s *ScorePhase) {
	f := true
	e.b = append(e.b, '{')
	if len(s.PreScore) > 0 {
		e.key(&f, "preScore")
		list(e, s.PreScore, e.status)
	}
	e.key(&f, "nodes")
	e.b = s.Nodes.appendJSON(e.b)
	e.key(&f, "plugins")
	list(e, s.Plugins, e.scorePlugin)
	e.key(&f, "totals")
	e.b = s.Totals.appendJSON(e.b)
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) scorePlugin(p *ScorePlugin) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "name")
	e.str(p.Name)
	e.key(&f, "weight")
	e.int(p.Weight)
	e.key(&f, "raw")
	e.b = p.Raw.appendJSON(e.b)
	if len(p.Normalized) > 0 {
		e.key(&f, "normalized")
		e.b = p.Normalized.appendJSON(e.b)
	}
	if p.Duration != 0 {
		e.key(&f, "ns")
		e.int(int64(p.Duration))
	}
	if p.NormalizeDuration != 0 {
		e.key(&f, "normalizeNs")
		e.int(int64(p.NormalizeDuration))
	}
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) selection(s *Selection) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "node")
	e.str(s.Node)
	if len(s.Top) > 0 {
		e.key(&f, "top")
		e.b = s.Top.appendJSON(e.b)
	}
	if s.Best != 0 {
		e.key(&f, "best")
		e.int(s.Best)
	}
	e.key(&f, "rule")
	e.str(s.Rule)
	e.b = append(e.b, '}')
}

func (e *cycleEncoder) outcome(o *Outcome) {
	f := true
	e.b = append(e.b, '{')
	e.key(&f, "result")
	e.str(o.Result)
	if o.Node != "" {
		e.key(&f, "node")
		e.str(o.Node)
	}
	if o.Message != "" {
		e.key(&f, "message")
		e.str(o.Message)
	}
	if o.Reason != "" {
		e.key(&f, "reason")
		e.str(o.Reason)
	}
	if o.NominatedNode != "" {
		e.key(&f, "nominatedNode")
		e.str(o.NominatedNode)
	}
	e.b = append(e.b, '}')
}
