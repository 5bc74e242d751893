package commands

import (
	"context"

	"github.com/spf13/cobra"
)

// command is what a subcommand's options do, in kubectl's order: Complete
// fills in what the flags and arguments imply, Validate checks them before
// anything is created or shown, and Run does the work.
type command interface {
	Complete(cmd *cobra.Command, args []string) error
	Validate() error
	Run(ctx context.Context) error
}

// runE is a cobra RunE that runs o's Complete, Validate and Run.
func runE(o command) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := o.Complete(cmd, args); err != nil {
			return err
		}
		if err := o.Validate(); err != nil {
			return err
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		return o.Run(ctx)
	}
}
