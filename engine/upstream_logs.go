package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/schedscope/schedscope/recorder/input"
)

// cycleErrorLogs are the messages kube-scheduler v1.37.1 logs at error
// level about a cycle that ended in Error (pkg/scheduler/schedule_one.go:
// schedulingCycle's "Error selecting node for pod" and
// handleSchedulingFailure's "Error scheduling pod; retrying", through
// utilruntime.HandleErrorWithContext). The cycle records the same error as
// its result, so they are not told twice.
var cycleErrorLogs = map[string]bool{
	"Error selecting node for pod":   true,
	"Error scheduling pod; retrying": true,
}

// retriedLogs are parts of errors kube-controller-manager's controllers
// (v1.37.1) log that say nothing about a run:
var retriedLogs = []string{
	// a sync retried at once, which then succeeds: the controller's
	// informer had not yet read the controller's own write
	// (pkg/controller/util/consistency's ConsistencyError); a cluster's
	// controllers log it too;
	"is not as new as written version",
	// a write refused because the object changed since the controller
	// read it (the API server's Conflict); the controller reads it anew;
	staleWrite,
	// the ReplicaSet controller registers its metrics once per process,
	// and a run builds one controller per engine (pkg/controller/replicaset).
	"unable to register metrics",
	// a ReplicaSet no Deployment owns, scaling down, looks for its
	// siblings and logs that it has no owner (pkg/controller/replicaset:
	// getReplicaSetsWithSameController); it scales down all the same.
	"ReplicaSet has no controller",
}

// retried says whether a logged error is one a controller retries.
func retried(msg string, err error) bool {
	text := msg
	if err != nil {
		text += " " + err.Error()
	}
	for _, r := range retriedLogs {
		if strings.Contains(text, r) {
			return true
		}
	}
	return false
}

// upstreamLogs routes what upstream code logs through klog: off the
// terminal, and its errors to the runs that asked for them.
var upstreamLogs struct {
	once      sync.Once
	mu        sync.Mutex
	next      int
	reporters map[int]func(error)
}

// RouteUpstreamLogs takes klog's output off the terminal for good: upstream
// code's lines (kube-scheduler's, client-go's) would break the one-line
// errors and the TUI's screen. What it logs at error level is sent to
// report as a problem of the run, except the lines about a cycle's Error,
// which the cycle records; the rest is dropped. stop ends the reporting.
func RouteUpstreamLogs(report func(error)) (stop func()) {
	QuietUpstreamLogs()
	upstreamLogs.mu.Lock()
	id := upstreamLogs.next
	upstreamLogs.next++
	upstreamLogs.reporters[id] = report
	upstreamLogs.mu.Unlock()
	return func() {
		upstreamLogs.mu.Lock()
		delete(upstreamLogs.reporters, id)
		upstreamLogs.mu.Unlock()
	}
}

// QuietUpstreamLogs takes klog's output off the terminal for good, as
// RouteUpstreamLogs does, for a command that reports no problems.
func QuietUpstreamLogs() {
	upstreamLogs.once.Do(func() {
		upstreamLogs.mu.Lock()
		upstreamLogs.reporters = map[int]func(error){}
		upstreamLogs.mu.Unlock()
		klog.SetLogger(logr.New(upstreamSink{}))
	})
}

// UpstreamLogger is the logger QuietUpstreamLogs gives klog, for one that
// took klog's own output back for a while (a test reading kube-scheduler's
// lines) to give it back.
func UpstreamLogger() logr.Logger { return logr.New(upstreamSink{}) }

// An UpstreamLogError is an error upstream code logged during a run.
type UpstreamLogError struct {
	Msg string
	Err error
	// KV are the line's keys and values, as key=value.
	KV []string
}

func (e *UpstreamLogError) Error() string {
	s := "logged by upstream code: " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if len(e.KV) > 0 {
		s += " (" + strings.Join(e.KV, " ") + ")"
	}
	return strings.Join(strings.Fields(s), " ")
}

// upstreamSink is klog's backing logger: Info lines are dropped (klog has
// checked their verbosity), errors reported.
type upstreamSink struct {
	values []any
}

var _ logr.LogSink = upstreamSink{}

func (upstreamSink) Init(logr.RuntimeInfo)          {}
func (upstreamSink) Enabled(int) bool               { return false }
func (upstreamSink) Info(int, string, ...any)       {}
func (s upstreamSink) WithName(string) logr.LogSink { return s }
func (s upstreamSink) WithValues(kv ...any) logr.LogSink {
	return upstreamSink{values: append(append([]any(nil), s.values...), kv...)}
}

func (s upstreamSink) Error(err error, msg string, kv ...any) {
	if cycleErrorLogs[msg] || retried(msg, err) {
		return
	}
	e := &UpstreamLogError{Msg: input.Quote(msg), Err: err}
	all := append(append([]any(nil), s.values...), kv...)
	for i := 0; i+1 < len(all); i += 2 {
		e.KV = append(e.KV, input.Quote(fmt.Sprintf("%v=%v", all[i], all[i+1])))
	}
	upstreamLogs.mu.Lock()
	reporters := make([]func(error), 0, len(upstreamLogs.reporters))
	for _, r := range upstreamLogs.reporters {
		reporters = append(reporters, r)
	}
	upstreamLogs.mu.Unlock()
	for _, r := range reporters {
		r(e)
	}
}

// controllerContext gives the controllers beside the scheduler a logger of
// their own: their Info lines dropped, their errors a run's problems.
func controllerContext(ctx context.Context) context.Context {
	return klog.NewContext(ctx, logr.New(upstreamSink{}))
}
