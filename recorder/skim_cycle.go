package recorder

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// blamedPlugins lists, once each and in this order, the plugins a cycle's
// entry names (CycleEntry.Plugins): PreFilter plugins that returned
// neither Success nor Skip, the Filter plugins (by index into
// filterPlugins) that rejected a node, every PostFilter plugin, and the
// binding-cycle plugins (Reserve to PostBind) that did not return
// Success. keep interns a name. EntryOf and skimCycle both decide it here.
func blamedPlugins(pre []PluginStatus, filterPlugins []string, rejected []int, post, binding []PluginStatus, keep func(string) string) []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) { // a handful of plugins: no map
			out = append(out, keep(p))
		}
	}
	for _, s := range pre {
		if s.Code != CodeSuccess && s.Code != CodeSkip {
			add(s.Plugin)
		}
	}
	for _, p := range rejected {
		if p >= 0 && p < len(filterPlugins) {
			add(filterPlugins[p])
		}
	}
	for _, s := range post {
		add(s.Plugin)
	}
	for _, s := range binding {
		if s.Code != CodeSuccess {
			add(s.Plugin)
		}
	}
	return out
}

// skimmedStatus is the part of a PluginStatus an entry needs.
type skimmedStatus struct {
	Plugin string `json:"plugin"`
	Code   string `json:"code"`
}

func (s skimmedStatus) status() PluginStatus { return PluginStatus{Plugin: s.Plugin, Code: s.Code} }

// cycleSkim is one skim of a cycle record's raw JSON into its entry
// (skimCycle): the members it reads, the first error met, and what the
// entry's plugins are worked out from once every member is read.
type cycleSkim struct {
	in    interner
	err   error
	e     CycleEntry
	setID int

	filterPlugins []string
	rejected      []int
	// jumpedFilter: the filter's node statuses were jumped over, and the
	// rejecting plugins collected on the way (jump).
	jumpedFilter       bool
	pre, post, binding []PluginStatus
}

// skimCycle builds the entry of a cycle record from its raw JSON, and
// returns the ID of the node set it refers to.
func skimCycle(raw []byte, in interner) (CycleEntry, int, error) {
	s := cycleSkim{in: in}
	if err := membersJumping(raw, s.jump, s.member); s.err == nil {
		s.err = err
	}
	if s.err != nil {
		return CycleEntry{}, 0, s.err
	}
	s.e.Plugins = blamedPlugins(s.pre, s.filterPlugins, s.rejected, s.post, s.binding, func(p string) string { return s.in.get([]byte(p)) })
	return s.e, s.setID, nil
}

// member reads one member of the record; false stops at the first error.
func (s *cycleSkim) member(key, v []byte) bool {
	switch string(key) {
	case "seq":
		s.e.Seq = s.num(v)
	case "pod":
		s.pod(v)
	case "profile":
		s.e.Profile = s.str(v)
	case "attempt":
		s.e.Attempt = s.num(v)
	case "start":
		t, err := time.Parse(time.RFC3339, string(s.unquote(v)))
		if err != nil {
			s.decode(v, &s.e.Start) // says what is wrong as encoding/json does
		}
		s.e.Start = t
	case "ns":
		s.e.Duration = time.Duration(s.num(v))
	case "nodeSet":
		s.setID = s.num(v)
	case "outcome":
		s.fields(v, func(k, fv []byte) {
			switch string(k) {
			case "result":
				s.e.Result = s.str(fv)
			case "node":
				s.e.Node = s.str(fv)
			case "nominatedNode":
				s.e.NominatedNode = s.str(fv)
			}
		})
	case "preFilter":
		s.pre = s.phasePlugins(v)
	case "postFilter":
		s.post = s.phasePlugins(v)
	case "filter":
		s.filter(v)
	case "reserve", "permit", "preBind", "bind", "postBind":
		var st []skimmedStatus
		s.decode(v, &st)
		for _, x := range st {
			s.binding = append(s.binding, x.status())
		}
	}
	return s.err == nil
}

// pod reads the pod's namespace, name and owner.
func (s *cycleSkim) pod(v []byte) {
	s.fields(v, func(k, fv []byte) {
		switch string(k) {
		case "namespace":
			s.e.Pod.Namespace = s.str(fv)
		case "name":
			s.e.Pod.Name = string(s.unquote(fv))
		case "owner":
			o := &Owner{}
			s.fields(fv, func(ok, ov []byte) {
				switch string(ok) {
				case "kind":
					o.Kind = s.str(ov)
				case "name":
					o.Name = string(s.unquote(ov))
				}
			})
			s.e.Pod.Owner = o
		}
	})
}

// phasePlugins reads the plugin statuses of a PreFilter or PostFilter.
func (s *cycleSkim) phasePlugins(v []byte) []PluginStatus {
	var p struct {
		Plugins []skimmedStatus `json:"plugins"`
	}
	s.decode(v, &p)
	out := make([]PluginStatus, len(p.Plugins))
	for i, x := range p.Plugins {
		out[i] = x.status()
	}
	return out
}

// filter reads the Filter's plugins, and the plugins that rejected a node
// when jump did not collect them. v may run past the filter's end
// (jumpBulk): its plugins come first, and its node statuses are all that
// has "p" keys.
func (s *cycleSkim) filter(v []byte) {
	err := members(v, func(k, fv []byte) bool {
		if string(k) != "plugins" {
			return true
		}
		if string(fv) != "null" {
			if eerr := elements(fv, func(p []byte) { s.filterPlugins = append(s.filterPlugins, s.str(p)) }); eerr != nil {
				s.fail(eerr)
			}
		}
		return false
	})
	if err != nil {
		s.fail(fmt.Errorf("filter: %w", err))
	}
	if !s.jumpedFilter {
		s.rejected = rejectingPlugins(v, s.rejected)
	}
}

// jump jumps over bulk members; over the filter's node statuses it
// collects the plugins that rejected them on the way.
func (s *cycleSkim) jump(key, b []byte, vs int) int {
	if string(key) != "filter" {
		return jumpBulk(key, b, vs, nil)
	}
	end := jumpBulk(key, b, vs, func(p int) {
		if !slices.Contains(s.rejected, p) {
			s.rejected = append(s.rejected, p)
		}
	})
	s.jumpedFilter = end >= 0
	return end
}

// fail keeps the first error.
func (s *cycleSkim) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *cycleSkim) num(v []byte) int {
	n, err := strconv.Atoi(string(v))
	if err != nil {
		s.fail(err)
	}
	return n
}

// unquote reads a JSON string, without encoding/json unless it has escapes.
func (s *cycleSkim) unquote(v []byte) []byte {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if b := v[1 : len(v)-1]; !hasEscape(b) {
			return b
		}
	}
	var str string
	if err := json.Unmarshal(v, &str); err != nil {
		s.fail(err)
	}
	return []byte(str)
}

// str keeps one copy of a string many entries repeat.
func (s *cycleSkim) str(v []byte) string { return s.in.get(s.unquote(v)) }

// fields reads the members of a small object.
func (s *cycleSkim) fields(v []byte, fn func(k, fv []byte)) {
	if string(v) == "null" {
		return
	}
	if err := members(v, func(k, fv []byte) bool { fn(k, fv); return true }); err != nil {
		s.fail(err)
	}
}

func (s *cycleSkim) decode(v []byte, into any) {
	if err := json.Unmarshal(v, into); err != nil {
		s.fail(err)
	}
}
