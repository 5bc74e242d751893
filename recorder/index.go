package recorder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"
)

// CycleEntry is what an index keeps of one cycle: enough to list it, filter
// the list and open the cycle again by its offset (File.CycleAt), a few
// hundred bytes however many nodes the cycle evaluated.
type CycleEntry struct {
	// Offset is the byte offset of the cycle's record in its file; Segment
	// counts the files before it when a followed recording rotated.
	Offset  int64
	Segment int

	Seq      int
	Pod      PodRef // namespace, name and owner only
	Profile  string
	Attempt  int
	Start    time.Time
	Duration time.Duration
	// Result, Node and NominatedNode are the cycle's Outcome.
	Result        string
	Node          string
	NominatedNode string
	// Plugins names the plugins that did not let the pod through: those that
	// rejected a node in Filter, a PreFilter or binding-cycle plugin that did
	// not return Success (or Skip), and the PostFilter plugins.
	Plugins []string
}

// EntryOf returns c's entry, as an index skimming c's record would build it.
func EntryOf(c *Cycle) CycleEntry {
	e := CycleEntry{
		Seq: c.Seq, Pod: PodRef{Namespace: c.Pod.Namespace, Name: c.Pod.Name, Owner: c.Pod.Owner}, Profile: c.Profile,
		Attempt: c.Attempt, Start: c.Start, Duration: c.Duration,
		Result: c.Outcome.Result, Node: c.Outcome.Node, NominatedNode: c.Outcome.NominatedNode,
	}
	var pre, post, binding []PluginStatus
	if c.PreFilter != nil {
		pre = c.PreFilter.Plugins
	}
	if c.PostFilter != nil {
		post = c.PostFilter.Plugins
	}
	var filterPlugins []string
	var rejected []int
	if f := c.Filter; f != nil {
		filterPlugins = f.Plugins
		for _, r := range f.Rejected {
			rejected = append(rejected, r.Plugin)
		}
	}
	for _, phase := range [][]PluginStatus{c.Reserve, c.Permit, c.PreBind, c.Bind, c.PostBind} {
		binding = append(binding, phase...)
	}
	e.Plugins = blamedPlugins(pre, filterPlugins, rejected, post, binding, func(p string) string { return p })
	return e
}

// Failed reports whether the cycle did not bind its pod.
func (e *CycleEntry) Failed() bool { return e.Result != ResultBound }

// interner keeps one copy of the strings many entries repeat (namespaces,
// profiles, results, node and plugin names).
type interner map[string]string

func (in interner) get(b []byte) string {
	if s, ok := in[string(b)]; ok { // no allocation for the lookup
		return s
	}
	s := string(b)
	if len(in) < 1<<16 {
		in[s] = s
	}
	return s
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c < 0x20 {
			return true
		}
	}
	return false
}

// frameNumber finds a record's number in its file (envelope.N), 0 when it
// has none, in a frame's body. It is the writer's last member; end is where
// the members before it end.
func frameNumber(body []byte) (n int64, end int) {
	end = len(body) - 1
	if body[end] == '}' {
		// Only the tail may hold it: an unnumbered line is not scanned whole.
		from := max(0, len(body)-32)
		if i := bytes.LastIndex(body[from:], []byte(`,"n":`)); i >= 0 {
			i += from
			if v, err := strconv.ParseInt(string(body[i+len(`,"n":`):end]), 10, 64); err == nil && v > 0 {
				n, end = v, i
			}
		}
	}
	return n, end
}

// skimmed is a record line as an index reads it: its kind and raw members.
type skimmed struct {
	kind                    string
	header                  []byte
	nodeSet, cycle, observe []byte
	dropped                 []byte
	queue                   []byte
	cluster                 []byte
	podGroup                []byte
	nodeSetAt               int64
	// n is the record's number in its file (envelope.N).
	n int64
}

// skimLine checks a record line against its checksum and finds its members
// without decoding them; on failure it returns nil and the reason.
func skimLine(line []byte) (*skimmed, string) {
	body, fault := openFrame(line)
	if fault != frameOK {
		return nil, fault.String()
	}
	n, end := frameNumber(body)
	// A cycle as the writer lays it out is not walked here: its members
	// are, by skimCycle.
	const cyclePrefix = `{"kind":"cycle","cycle":{`
	if bytes.HasPrefix(body[:end], []byte(cyclePrefix)) && body[len(body)-1] == '}' {
		s := skimmed{kind: KindCycle, cycle: body[len(cyclePrefix)-1 : end], n: n}
		if i := bytes.LastIndex(s.cycle, []byte(`},"nodeSetAt":`)); i >= 0 {
			n, err := strconv.ParseInt(string(s.cycle[i+len(`},"nodeSetAt":`):]), 10, 64)
			if err == nil {
				s.cycle, s.nodeSetAt = s.cycle[:i+1], n
				return &s, ""
			}
		} else if s.cycle[len(s.cycle)-1] == '}' {
			return &s, ""
		}
	}
	s := skimmed{n: n}
	var bad string
	err := members(body, func(key, v []byte) bool {
		switch string(key) {
		case "kind":
			if len(v) < 2 || v[0] != '"' {
				bad = "kind is not a string"
				return false
			}
			s.kind = string(v[1 : len(v)-1])
		case "header":
			s.header = v
		case "nodeSet":
			s.nodeSet = v
		case "cycle":
			s.cycle = v
		case "observed":
			s.observe = v
		case "dropped":
			s.dropped = v
		case "queue":
			s.queue = v
		case "cluster":
			s.cluster = v
		case "podGroup":
			s.podGroup = v
		case "nodeSetAt":
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				bad = "nodeSetAt: " + err.Error()
				return false
			}
			s.nodeSetAt = n
		}
		return true
	})
	switch {
	case bad != "":
		return nil, bad
	case err != nil:
		if _, reason := decodeLine(line); reason != "" {
			return nil, reason
		}
		return nil, err.Error()
	}
	return &s, ""
}

// NewIndexReader reads the header as NewReader does and returns a Reader for
// building an index: its Next returns each cycle as a Record with an Entry
// (and no Cycle), skimming the record instead of decoding it, so that memory
// and time do not grow with the cycles' size; node sets are checked but not
// kept. It reports the problems Next reports, except those only a cycle's
// full decoding finds (File.CycleAt reports them when the cycle is opened).
// Following a rotation, it returns a Record of KindHeader: the entries after
// it are in the next file (Segment counts them).
func NewIndexReader(r io.Reader) (*Reader, error) { return newIndexReader(r, defaultLimits) }

func newIndexReader(r io.Reader, lim limits) (*Reader, error) {
	rd, err := newReader(r, lim)
	if err != nil {
		return nil, err
	}
	rd.index, rd.in = true, interner{}
	return rd, nil
}

// skim reads one record line in index mode. ok is false for a record to
// read past silently (of an unknown kind, or a header, held until the
// record after it settles what it is).
func (r *Reader) skim(b []byte, off int64, line int) (rec Record, err error, ok bool) {
	corrupt := func(reason string) (Record, error, bool) {
		r.corruptAt[off] = reason
		return Record{Offset: off}, &ErrCorrupt{Offset: off, Line: line, Reason: reason}, true
	}
	s, reason := skimLine(b)
	if s == nil {
		return corrupt(reason)
	}
	// A record the skimmer cannot read is reported as the decoder reports
	// it (a rare path: its checksum matched).
	decoderSays := func(skimErr error) string {
		if _, reason := decodeLine(b); reason != "" {
			return reason
		}
		return skimErr.Error()
	}
	switch s.kind {
	case KindHeader:
		var h *Header
		if s.header != nil && json.Unmarshal(s.header, &h) != nil {
			h = nil
		}
		r.hold(off, line, h)
		return Record{}, nil, false
	case KindNodeSet:
		if s.nodeSet == nil {
			return corrupt("nodeSet record without body")
		}
		var ns NodeSet
		if err := json.Unmarshal(s.nodeSet, &ns); err != nil {
			return corrupt(err.Error())
		}
		if err := checkNodeSet(&ns); err != nil {
			return corrupt(fmt.Sprintf("node set %d: %v", ns.ID, err))
		}
		if err := r.admit(Record{NodeSet: &ns, Offset: off, n: s.n}); err != nil {
			return Record{Offset: off}, err, true
		}
		return Record{Kind: KindNodeSet, Offset: off}, nil, true
	case KindCycle:
		if s.cycle == nil {
			return corrupt("cycle record without body")
		}
		e, id, err := skimCycle(s.cycle, r.in)
		if err != nil {
			return corrupt(decoderSays(err))
		}
		e.Offset, e.Segment = off-r.base, r.segment
		rec := Record{Kind: KindCycle, Entry: &e, Offset: off, n: s.n}
		if err := r.admit(rec); err != nil {
			return Record{Offset: off}, err, true
		}
		if id != 0 || s.nodeSetAt != 0 {
			if ns, reason := r.lookup(id, s.nodeSetAt); ns == nil {
				r.pending = append(r.pending, &ErrMissingNodeSet{Offset: off, Seq: e.Seq, ID: id, Reason: reason})
			}
		}
		return rec, nil, true
	case KindObserved:
		if s.observe == nil {
			return corrupt("observed record without body")
		}
		var o Observed
		if err := json.Unmarshal(s.observe, &o); err != nil {
			return corrupt(err.Error())
		}
		rec := Record{Kind: KindObserved, Observed: &o, Offset: off, n: s.n}
		if err := r.admit(rec); err != nil {
			return Record{Offset: off}, err, true
		}
		return rec, nil, true
	case KindDropped:
		var d Dropped
		if s.dropped == nil {
			return corrupt("dropped record without body")
		}
		if err := json.Unmarshal(s.dropped, &d); err != nil {
			return corrupt(err.Error())
		}
		if err := r.admit(Record{Offset: off, n: s.n}); err != nil {
			return Record{Offset: off}, err, true
		}
		r.pending = append(r.pending, &ErrDropped{Offset: off, Dropped: d})
		return Record{Kind: KindDropped, Offset: off}, nil, true
	case KindQueue:
		if s.queue == nil {
			return corrupt("queue record without body")
		}
		var q QueueEvent
		if err := json.Unmarshal(s.queue, &q); err != nil {
			return corrupt(err.Error())
		}
		if err := checkQueueEvent(&q); err != nil {
			return corrupt(err.Error())
		}
		rec := Record{Kind: KindQueue, Queue: &q, Offset: off, n: s.n}
		if err := r.admit(rec); err != nil {
			return Record{Offset: off}, err, true
		}
		return rec, nil, true
	case KindCluster:
		if s.cluster == nil {
			return corrupt("cluster record without body")
		}
		var st ClusterState
		if err := json.Unmarshal(s.cluster, &st); err != nil {
			return corrupt(err.Error())
		}
		rec := Record{Kind: KindCluster, Cluster: &st, Offset: off, n: s.n}
		if err := r.admit(rec); err != nil {
			return Record{Offset: off}, err, true
		}
		return rec, nil, true
	case KindPodGroup:
		if s.podGroup == nil {
			return corrupt("podGroup record without body")
		}
		var g PodGroupCycle
		if err := json.Unmarshal(s.podGroup, &g); err != nil {
			return corrupt(err.Error())
		}
		if reason := checkPodGroupCycle(&g); reason != "" {
			return corrupt(reason)
		}
		rec := Record{Kind: KindPodGroup, PodGroup: &g, Offset: off, n: s.n}
		if err := r.admit(rec); err != nil {
			return Record{Offset: off}, err, true
		}
		return rec, nil, true
	case KindEnd:
		if err := r.admit(Record{Offset: off, n: s.n}); err != nil {
			return Record{Offset: off}, err, true
		}
		return Record{Kind: KindEnd, Offset: off}, nil, true
	}
	r.unknown[s.kind]++
	return Record{}, nil, false
}

// Offset returns the offset up to which the reader has read: how far an
// index has come.
func (r *Reader) Offset() int64 { return r.lr.offset }

// rejectingPlugins appends the distinct plugin indices ("p") of a raw
// Filter.Rejected list to seen. It looks for the key rather than walking
// each status: in the JSON the writer produces, "p": occurs only as that key
// (a quote inside a string is escaped); for a hand-made record it may read
// too much, and opening the cycle reports what is wrong with it.
func rejectingPlugins(raw []byte, seen []int) []int {
	key := []byte(`"p":`)
	for {
		i := bytes.Index(raw, key)
		if i < 0 {
			return seen
		}
		raw = raw[i+len(key):]
		n, k := 0, 0
		for k < len(raw) && k < 9 && '0' <= raw[k] && raw[k] <= '9' {
			n = n*10 + int(raw[k]-'0')
			k++
		}
		if k > 0 && !slices.Contains(seen, n) {
			seen = append(seen, n)
		}
	}
}

// Clone returns a copy of u that later Apply calls on u do not change.
func (u *Usage) Clone() *Usage { return &Usage{byNode: maps.Clone(u.byNode)} }

// ApplyUsage applies to u the node use the cycle record at off carries,
// reading only that part of the record and the cycle's node set (for the
// nodes' names), so that rebuilding the use as of a late cycle of a big
// recording reads through the file once. It may be called from several
// goroutines.
func (rf *File) ApplyUsage(u *Usage, off int64) error {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	line, err := rf.lineAt(off)
	if err != nil {
		return err
	}
	raw, id, at, err := nodeUseOf(line)
	if err != nil || raw == nil {
		return err
	}
	c := &Cycle{NodeSetID: id}
	if json.Unmarshal(raw, &c.NodeUse) != nil {
		return nil
	}
	if id != 0 || at != 0 {
		c.Nodes, _ = rf.nodeSet(id, at)
	}
	u.Apply(c)
	return nil
}

// lineAt reads the line at off into a buffer the File reuses, within the
// record limit.
func (rf *File) lineAt(off int64) ([]byte, error) {
	const chunk = 32 << 10 // most lines fit in one read; a long one takes more
	n := 0
	for {
		if len(rf.line) < n+chunk {
			rf.line = append(rf.line[:n], make([]byte, chunk)...)
		}
		k, err := rf.f.ReadAt(rf.line[n:n+chunk], off+int64(n))
		if i := bytes.IndexByte(rf.line[n:n+k], '\n'); i >= 0 {
			return rf.line[:n+i], nil
		}
		n += k
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, &ErrTorn{Offset: off}
			}
			return nil, err
		}
		if n >= rf.lim.record {
			return nil, &ErrCorrupt{Offset: off, Reason: fmt.Sprintf("record is longer than %d bytes", rf.lim.record)}
		}
	}
}

// nodeUseOf finds the raw node use of a cycle record line, its node set's ID
// and where that set is. The writer puts a cycle's node use among its first
// members, so the rest is not walked: a record as the writer lays it out
// ({"kind":"cycle","cycle":{…},…,"nodeSetAt":N}) is read from its start up
// to the node use, and any other layout is skimmed whole. A damaged record
// is no error here: opening its cycle reports it.
func nodeUseOf(line []byte) (raw []byte, id int, at int64, err error) {
	body, fault := openFrame(line)
	if fault != frameOK {
		return nil, 0, 0, nil
	}
	cycle, ok := bytes.CutPrefix(body, []byte(`{"kind":"cycle","cycle":`))
	if ok {
		_, end := frameNumber(body) // nodeSetAt is the member before the record's number
		if i := bytes.LastIndex(body[:end], []byte(`,"nodeSetAt":`)); i >= 0 {
			at, _ = strconv.ParseInt(string(body[i+len(`,"nodeSetAt":`):end]), 10, 64)
		}
	} else {
		s, _ := skimLine(line)
		if s == nil || s.kind != KindCycle || s.cycle == nil {
			return nil, 0, 0, nil
		}
		cycle, at = s.cycle, s.nodeSetAt
	}
	members(cycle, func(key, v []byte) bool {
		switch string(key) {
		case "nodeUse":
			raw = v
		case "nodeSet":
			id, _ = strconv.Atoi(string(v))
		case "searchStart", "filter", "score", "outcome": // written after the node use
			return false
		}
		return raw == nil
	})
	return raw, id, at, nil
}

// bulkFollowers are, in the order the writer puts a cycle's members, those
// that may follow its two bulky ones, filter (node statuses) and score
// (lists of scores). None of these names is a key anywhere else in a cycle,
// and a quote inside a string is escaped, so `,"name":` can only be the
// start of that member.
var bulkFollowers = []string{"diagnostic", "postFilter", "score", "selection", "reserve", "unreserve", "permit", "preBind", "bind", "postBind", "outcome"}

// jumpBulk finds where the filter or score value that starts at b[vs] ends
// without walking it: at the first member that can follow it, looking only
// at the places where a member can start (a comma and a quote). It returns
// -1 for any other key, or when no follower is found.
//
// onP, when set, is given the value of each "p" key on the way: the plugin
// of a node status.
func jumpBulk(key []byte, b []byte, vs int, onP func(int)) int {
	var after []string
	switch string(key) {
	case "filter":
		after = bulkFollowers
	case "score":
		after = bulkFollowers[3:]
	default:
		return -1
	}
	for i := vs; i < len(b); {
		k := bytes.Index(b[i:], []byte(`,"`))
		if k < 0 {
			return -1
		}
		at := i + k
		name := b[at+2:]
		q := bytes.IndexByte(name, '"')
		if q < 0 {
			return -1
		}
		// Node statuses' one-letter keys are most of the places looked at.
		if q == 1 && name[0] == 'p' && onP != nil && len(name) > 3 && name[2] == ':' {
			n, k := 0, 3
			for k < len(name) && k < 12 && '0' <= name[k] && name[k] <= '9' {
				n = n*10 + int(name[k]-'0')
				k++
			}
			if k > 3 {
				onP(n)
			}
		}
		if q > 1 && q+1 < len(name) && name[q+1] == ':' && isFollower(after, name[:q]) {
			return at
		}
		i = at + 2
	}
	return -1
}

func isFollower(after []string, name []byte) bool {
	for _, k := range after {
		if k == string(name) { // compared without allocating
			return true
		}
	}
	return false
}
