package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands/help"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/visible"
)

// NewCmdRoot builds the root command, named in usage as it was invoked.
func NewCmdRoot(streams genericiooptions.IOStreams) *cobra.Command {
	return newCmdRoot(streams, displayName(os.Args[0]))
}

// displayName is how usage names the command, from the path it was run as:
// by the kubectl plugin convention a binary kubectl-schedscope is the command
// "kubectl schedscope" (kubectl runs it that way, and the examples say so);
// under another name, that name.
func displayName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	switch {
	case base == "" || base == "." || base == string(filepath.Separator) || strings.HasSuffix(base, ".test"):
		return "kubectl schedscope"
	case strings.HasPrefix(base, "kubectl-"):
		// kubectl maps the plugin kubectl-foo_bar to "kubectl foo-bar".
		return "kubectl " + strings.ReplaceAll(strings.TrimPrefix(base, "kubectl-"), "_", "-")
	}
	return base
}

func newCmdRoot(streams genericiooptions.IOStreams, name string) *cobra.Command {
	cmd := &cobra.Command{
		Use:           "kubectl-schedscope",
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: name},
		Short:         "See what the Kubernetes scheduler does, phase by phase",
		Long:          "schedscope runs the real kube-scheduler in-process and records every scheduling cycle:\nwhich filters rejected which nodes and why, how every node scored, and why the pod went where it went.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          unknownCommand,
		// explian → explain: a transposition is two edits.
		SuggestionsMinimumDistance: 2,
		// Before anything is loaded or built: the process's feature gates.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return applyFeatureGates(cmd) },
	}
	// With no subcommand, open the debugger on the embedded default fixture.
	sim := &SimOptions{simOptions: newSimOptions(streams)}
	sim.addFlags(cmd.Flags())
	cmd.RunE = runE(sim)
	cmd.SetOut(streams.Out)
	cmd.SetErr(streams.ErrOut)
	cmd.AddCommand(NewCmdSim(streams), NewCmdReplay(streams), NewCmdLive(streams), NewCmdRBAC(streams), NewCmdSnapshot(streams), NewCmdAnonymize(streams), NewCmdExplain(streams), NewCmdRecord(streams), NewCmdVerify(streams), NewCmdVersion(streams),
		NewCmdWhatIf(streams), NewCmdSuggest(streams), NewCmdDiff(streams), NewCmdCapacity(streams), NewCmdLearn(streams), NewCmdExport(streams), NewCmdDeploy(streams))
	addHelpTopics(cmd)
	completeFlagValues(cmd)
	return cmd
}

// addHelpTopics adds the reference pages (package help) as cobra's help
// topics: `help fixtures` prints the page, and the root's help lists them.
func addHelpTopics(root *cobra.Command) {
	topics, err := help.Topics()
	if err != nil {
		// The pages are the binary's own (TestHelpTopics reads them): said
		// where help is asked for, never a failed start.
		root.Long += "\n\nThe reference pages cannot be read: " + err.Error()
		return
	}
	for _, t := range topics {
		root.AddCommand(&cobra.Command{Use: t.Name, Short: t.Title, Long: t.Text})
	}
}

// Execute runs the command line and returns the process exit code. Errors are
// printed as one line on stderr.
func Execute(streams genericiooptions.IOStreams, args []string) int {
	return ExecuteContext(context.Background(), streams, args)
}

// ExecuteContext is Execute with a context that stops long-running commands.
func ExecuteContext(ctx context.Context, streams genericiooptions.IOStreams, args []string) int {
	// A fixture kept in the cache is written while the command runs.
	defer fixture.WaitCacheWrites()
	cmd := NewCmdRoot(streams)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(ctx); err != nil {
		code := 1
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		if msg := errorLine(err); msg != "" {
			fmt.Fprintln(streams.ErrOut, "error: "+msg)
		}
		var he *hintError
		if errors.As(err, &he) {
			for _, l := range he.hint {
				fmt.Fprintln(streams.ErrOut, visible.String(l))
			}
		}
		return code
	}
	return 0
}

// unknownCommand refuses an argument to the root (it takes none: a word
// there is a subcommand), naming the subcommands it is close to, by
// cobra's own measure (SuggestionsFor: SuggestionsMinimumDistance, a
// prefix, SuggestFor): cobra.NoArgs suggests nothing.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	hint := ""
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		hint = " (did you mean " + strings.Join(near, " or ") + "?)"
	}
	return fmt.Errorf("unknown command %q for %q%s", input.Quote(args[0]), cmd.CommandPath(), hint)
}

// maxErrorLine bounds the one line an error is printed as: each error quotes
// user input bounded (recorder/input.Quote), and this catches any message
// upstream code builds from an input, such as a list of every field error.
const maxErrorLine = 4 << 10

// errorLine is err's message on one line of at most maxErrorLine bytes.
func errorLine(err error) string {
	whole := err.Error()
	msg := whole
	if len(msg) > 4*maxErrorLine {
		msg = msg[:4*maxErrorLine] // fold only what may be shown
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) <= maxErrorLine && len(whole) <= 4*maxErrorLine {
		return msg
	}
	cut := min(maxErrorLine, len(msg))
	for cut < len(msg) && cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (an error of %d bytes, cut)", msg[:cut], len(whole))
}
