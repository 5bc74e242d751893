package commands

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/cluster"
)

// clusterOptions are the flags of a command that reads a cluster (live,
// snapshot): kubectl's connection flags and the cluster's scheduler
// configuration.
type clusterOptions struct {
	kube *genericclioptions.ConfigFlags
	// Config is the cluster's KubeSchedulerConfiguration file.
	Config string
}

func newClusterOptions() clusterOptions {
	return clusterOptions{kube: genericclioptions.NewConfigFlags(true)}
}

// clusterCommand is what a command that reads a cluster runs.
type clusterCommand interface {
	// Validate checks the flags before anything is read.
	Validate() error
	// Run runs the command over its connection to the cluster.
	Run(ctx context.Context, r *cluster.Reader) error
}

// command completes cmd, which reads a cluster: it takes no arguments,
// kubectl's connection flags and --config (worded by configUsage); once o is
// complete (if it has a Complete) and valid, it connects to the cluster,
// read-only, as kubectl would, and runs o.
func (c *clusterOptions) command(cmd *cobra.Command, o clusterCommand, configUsage string) *cobra.Command {
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if o, ok := o.(interface {
			Complete(*cobra.Command, []string) error
		}); ok {
			if err := o.Complete(cmd, args); err != nil {
				return err
			}
		}
		if err := o.Validate(); err != nil {
			return err
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		silenceKlog()
		// A configuration this binary cannot run (a plugin it was not
		// built with) is refused before anything reaches the cluster.
		if _, err := c.engineOptions(); err != nil {
			return err
		}
		r, err := cluster.Load(c.kube)
		if err != nil {
			return err
		}
		return o.Run(ctx, r)
	}
	c.kube.AddFlags(cmd.Flags())
	cmd.Flags().StringVar(&c.Config, "config", "", configUsage)
	return cmd
}

// engineOptions are the engine's options for the scheduler configuration.
func (c *clusterOptions) engineOptions() (engine.Options, error) {
	cfg, err := engine.LoadConfigFile(c.Config)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{Config: cfg, ConfigPath: c.Config}, nil
}
