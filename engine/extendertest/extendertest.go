// Package extendertest runs a real HTTP scheduler extender on 127.0.0.1 for
// tests: it answers the filter, prioritize, bind and preempt verbs with the
// rules it is given and counts every request by verb.
package extendertest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
)

// Rules decide the extender's answers. A nil rule accepts every node and
// scores each 0.
type Rules struct {
	// Reject returns why the extender rejects node for pod ("" to accept it),
	// and whether the rejection is unresolvable.
	Reject func(pod *v1.Pod, node string) (reason string, unresolvable bool)
	// Score returns the node's priority, 0 to MaxExtenderPriority.
	Score func(pod *v1.Pod, node string) int64
}

// Server is a running extender.
type Server struct {
	// URL is the extender's urlPrefix.
	URL   string
	rules Rules
	mu    sync.Mutex
	got   map[string]int
}

// Start runs an extender until the test ends.
func Start(t testing.TB, rules Rules) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/ext", rules: rules, got: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ext/", s.serve)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// Counts returns how many requests each verb received.
func (s *Server) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.got))
	for k, v := range s.got {
		out[k] = v
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	verb := strings.TrimPrefix(r.URL.Path, "/ext/")
	s.mu.Lock()
	s.got[verb]++
	s.mu.Unlock()
	var args extenderv1.ExtenderArgs
	if err := json.NewDecoder(r.Body).Decode(&args); err != nil && verb != "bind" {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// A nodeCacheCapable extender gets node names, another whole nodes.
	var names []string
	if args.NodeNames != nil {
		names = *args.NodeNames
	} else if args.Nodes != nil {
		for _, n := range args.Nodes.Items {
			names = append(names, n.Name)
		}
	}
	var reply any
	switch verb {
	case "filter":
		res := extenderv1.ExtenderFilterResult{FailedNodes: extenderv1.FailedNodesMap{}, FailedAndUnresolvableNodes: extenderv1.FailedNodesMap{}}
		var kept []string
		var keptNodes []v1.Node
		for i, n := range names {
			reason, unresolvable := "", false
			if s.rules.Reject != nil {
				reason, unresolvable = s.rules.Reject(args.Pod, n)
			}
			switch {
			case reason == "":
				kept = append(kept, n)
				if args.Nodes != nil {
					keptNodes = append(keptNodes, args.Nodes.Items[i])
				}
			case unresolvable:
				res.FailedAndUnresolvableNodes[n] = reason
			default:
				res.FailedNodes[n] = reason
			}
		}
		if args.NodeNames != nil {
			res.NodeNames = &kept
		} else {
			res.Nodes = &v1.NodeList{Items: keptNodes}
		}
		reply = res
	case "prioritize":
		list := extenderv1.HostPriorityList{}
		for _, n := range names {
			var score int64
			if s.rules.Score != nil {
				score = s.rules.Score(args.Pod, n)
			}
			list = append(list, extenderv1.HostPriority{Host: n, Score: score})
		}
		reply = list
	case "bind":
		reply = extenderv1.ExtenderBindingResult{}
	case "preempt":
		reply = extenderv1.ExtenderPreemptionResult{}
	default:
		http.NotFound(w, r)
		return
	}
	_ = json.NewEncoder(w).Encode(reply)
}

// Pair is the two-extender scenario the engine's tests and the end-to-end
// comparison with kube-scheduler share: on nodes node-a … node-d, a filtering
// extender sent node names rejects node-c (Unschedulable) and node-d
// (UnschedulableAndUnresolvable), and a prioritizing extender sent whole nodes
// scores node-b 10 with weight 2.
type Pair struct {
	Filter, Prioritize *Server
}

// Reasons the filtering extender of a Pair gives.
const (
	ReservedReason = "node-c is reserved by the extender"
	RetiredReason  = "node-d is being retired"
)

// StartPair starts a Pair's extenders until the test ends.
func StartPair(t testing.TB) Pair {
	t.Helper()
	return Pair{
		Filter: Start(t, Rules{Reject: func(_ *v1.Pod, node string) (string, bool) {
			switch node {
			case "node-c":
				return ReservedReason, false
			case "node-d":
				return RetiredReason, true
			}
			return "", false
		}}),
		Prioritize: Start(t, Rules{Score: func(_ *v1.Pod, node string) int64 {
			if node == "node-b" {
				return 10
			}
			return 0
		}}),
	}
}

// Config is a KubeSchedulerConfiguration naming the Pair's extenders, with
// extra top-level fields (such as kube-scheduler's clientConnection) first.
func (p Pair) Config(extra string) string {
	return fmt.Sprintf(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
%sextenders:
- urlPrefix: %s
  filterVerb: filter
  nodeCacheCapable: true
- urlPrefix: %s
  prioritizeVerb: prioritize
  weight: 2
  nodeCacheCapable: false
`, extra, p.Filter.URL, p.Prioritize.URL)
}
