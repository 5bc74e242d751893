package scenario

import (
	"context"
	"time"

	"k8s.io/client-go/rest"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
)

// snapshotTimeout bounds how long Snapshot reads a cluster when ctx has no
// deadline.
const snapshotTimeout = 2 * time.Minute

// Snapshot is a scenario of a running cluster, read through cfg as
// kubectl schedscope snapshot reads it: everything a scheduler with opts'
// configuration and gates reads, and the classes and limits admission
// applied, each object with only the fields the scheduler reads; pending
// pods in the order the scheduling queue takes them. It only reads: the
// client it builds from cfg refuses every request but GET and HEAD before
// it leaves the process (which a kubernetes.Interface handed in could not
// promise, so none is taken). A missing permission is an error naming each
// resource and the verbs it needs. The scenario's name is the API
// server's address.
func Snapshot(ctx context.Context, cfg *rest.Config, opts Options) (*Scenario, error) {
	eopts, err := engineOptions(ctx, opts)
	if err != nil {
		return nil, err
	}
	r, err := cluster.New(cfg, "")
	if err != nil {
		return nil, err
	}
	timeout := snapshotTimeout
	if deadline, ok := ctx.Deadline(); ok {
		timeout = time.Until(deadline)
	}
	data, err := engine.Snapshot(ctx, r, &eopts, timeout, false)
	if err != nil {
		return nil, err
	}
	return Load("snapshot of "+cfg.Host, data)
}
