package commands

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
	"github.com/schedscope/schedscope/recorder"
)

// SnapshotOptions holds the flags of snapshot.
type SnapshotOptions struct {
	cluster   clusterOptions
	Output    string
	Timeout   time.Duration
	Anonymize bool
	streams   genericiooptions.IOStreams
}

// NewCmdSnapshot exports what the scheduler reads from a cluster as a fixture.
func NewCmdSnapshot(streams genericiooptions.IOStreams) *cobra.Command {
	o := &SnapshotOptions{streams: streams, cluster: newClusterOptions()}
	cmd := o.cluster.command(&cobra.Command{
		Use:   "snapshot [--config FILE] [-o FILE]",
		Short: "Export what the scheduler reads from a cluster as a fixture that sim and explain replay",
		Long: "snapshot lists, read-only, every object the scheduler reads (nodes, pods of all namespaces, volumes, classes,\n" +
			"DRA objects, …) and writes them as one manifest: running pods first, then pending pods in the order\n" +
			"the scheduling queue takes them (priority, then age).\n" +
			"It keeps only what scheduling needs: no Secrets or ConfigMaps, no managed fields, no last-applied annotations,\n" +
			"no container commands, arguments or environment values.\n\n" +
			"  kubectl schedscope snapshot > cluster.yaml && kubectl schedscope explain -f cluster.yaml\n" +
			"  kubectl schedscope snapshot --anonymize -o public.yaml   # for a public bug report",
	}, o, "the cluster's KubeSchedulerConfiguration file (decides which resources are read)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "write to this file instead of standard output")
	cmd.Flags().BoolVar(&o.Anonymize, "anonymize", false, "replace names, namespaces, label values, images and taints with stand-ins that keep every decision (see anonymize)")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", time.Minute, "how long listing the cluster may take")
	return cmd
}

// inputs lists the files snapshot reads: the scheduler configuration and
// the kubeconfig files.
func (o *SnapshotOptions) inputs() []string {
	in := []string{o.cluster.Config}
	if o.cluster.kube.KubeConfig != nil {
		in = append(in, *o.cluster.kube.KubeConfig)
	}
	return append(in, o.cluster.kube.ToRawKubeConfigLoader().ConfigAccess().GetLoadingPrecedence()...)
}

// Validate refuses an output that is one of the inputs, before the cluster is listed.
func (o *SnapshotOptions) Validate() error {
	if o.Output == "" {
		return nil
	}
	return recorder.CheckOutput(o.Output, o.inputs()...)
}

// Run writes the snapshot: to standard output, or to a file (mode 0600)
// that replaces --output only once the whole snapshot is written.
func (o *SnapshotOptions) Run(ctx context.Context, reader *cluster.Reader) error {
	eopts, err := o.cluster.engineOptions()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	data, err := engine.Snapshot(ctx, reader, &eopts, o.Timeout, o.Anonymize)
	if err != nil {
		return err
	}
	if o.Output == "" {
		_, err = o.streams.Out.Write(data)
		return err
	}
	f, err := recorder.CreateAtomic(o.Output, o.inputs()...)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	return nil
}
