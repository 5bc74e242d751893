// Package commands implements the kubectl-schedscope subcommands.
package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// NewCmdRoot builds the root command.
func NewCmdRoot(streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:           "kubectl-schedscope",
		Short:         "See what the Kubernetes scheduler does, phase by phase",
		Long:          "schedscope runs the real kube-scheduler in-process and records every scheduling cycle:\nwhich filters rejected which nodes and why, how every node scored, and why the pod went where it went.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
	}
	// With no subcommand, open the debugger on the embedded default fixture.
	sim := &SimOptions{streams: streams}
	sim.addFlags(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return sim.Run(cmd.Context()) }
	cmd.SetOut(streams.Out)
	cmd.SetErr(streams.ErrOut)
	cmd.AddCommand(NewCmdSim(streams), NewCmdReplay(streams), NewCmdLive(streams), NewCmdRBAC(streams), NewCmdSnapshot(streams), NewCmdExplain(streams), NewCmdRecord(streams), NewCmdVersion(streams))
	return cmd
}

// Execute runs the command line and returns the process exit code. Errors are
// printed as one line on stderr.
func Execute(streams genericiooptions.IOStreams, args []string) int {
	return ExecuteContext(context.Background(), streams, args)
}

// ExecuteContext is Execute with a context that stops long-running commands.
func ExecuteContext(ctx context.Context, streams genericiooptions.IOStreams, args []string) int {
	cmd := NewCmdRoot(streams)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(streams.ErrOut, "error: "+strings.Join(strings.Fields(err.Error()), " "))
		return 1
	}
	return 0
}
