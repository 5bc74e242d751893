package commands

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
)

// NewCmdVersion prints schedscope's version and the embedded scheduler's.
func NewCmdVersion(streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the schedscope version and the embedded kube-scheduler version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if _, err := fmt.Fprintf(streams.Out, "schedscope %s\nkube-scheduler %s (embedded)\n", engine.Version, engine.KubernetesVersion); err != nil {
				return err
			}
			if added := engine.OutOfTreePlugins(); len(added) > 0 {
				_, err := fmt.Fprintf(streams.Out, "out-of-tree plugins: %s\n", strings.Join(added, ", "))
				return err
			}
			return nil
		},
	}
}
