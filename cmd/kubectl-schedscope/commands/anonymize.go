package commands

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// AnonymizeOptions holds the flags of anonymize.
type AnonymizeOptions struct {
	Fixture string
	Output  string
	// recording is set when the input was given as an argument: it must
	// be a recording.
	recording bool
	streams   genericiooptions.IOStreams
	stdin     io.Reader
}

// NewCmdAnonymize writes a fixture or a recording with stand-ins for what
// names the cluster.
func NewCmdAnonymize(streams genericiooptions.IOStreams) *cobra.Command {
	o := &AnonymizeOptions{streams: streams, stdin: streams.In}
	cmd := &cobra.Command{
		Use:   "anonymize -f FIXTURE [-o FILE] | anonymize RECORDING -o FILE",
		Short: "Write a fixture or a recording with stand-ins for names, namespaces, label values and images, deciding as it did",
		Long: "anonymize rewrites a fixture (a snapshot) so that it can go into a public bug report: names, namespaces,\n" +
			"custom label keys, label values, taints, images and volume identifiers become stand-ins (node-001, ns-002, …),\n" +
			"each mapped the same wherever it appears, in the names' order; resources, priorities and Kubernetes' own label\n" +
			"keys are kept, and annotations dropped, so the scheduler makes the same decisions. The same input gives the\n" +
			"same output. snapshot --anonymize does it as it reads the cluster.\n\n" +
			"A recording (a flight recording of an incident) is rewritten by the same rules: every cycle, verdict and\n" +
			"score stays as it was. Its free text (plugins' reasons, messages, errors, the marks' notes) has each mapped\n" +
			"name replaced, then every word that is neither a stand-in, a number nor a word the scheduler and schedscope\n" +
			"write is replaced by ‹redacted›, so the output holds no word it cannot account for. The marks sidecar\n" +
			"(RECORDING.marks) is rewritten beside FILE. anonymize says how many names it mapped and words it redacted;\n" +
			"a damaged recording is refused (verify says what is wrong with it).\n\n" +
			"  kubectl schedscope anonymize -f cluster.yaml -o public.yaml && kubectl schedscope explain -f public.yaml\n" +
			"  kubectl schedscope anonymize incident.rec -o public.rec && kubectl schedscope replay public.rec",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.SilenceUsage = true
			if len(args) == 1 {
				if o.Fixture != "" {
					return errorf("anonymize takes a fixture (-f) or a recording (an argument), not both")
				}
				o.Fixture, o.recording = args[0], true
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run()
		},
	}
	cmd.Flags().StringVarP(&o.Fixture, "filename", "f", "", "the fixture: a file, - for standard input, or an embedded fixture's name")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "write to this file instead of standard output (a recording's output must be a file)")
	cmd.RegisterFlagCompletionFunc("filename", completeFixtures)
	return cmd
}

// Validate refuses a missing fixture and an output that is the fixture.
func (o *AnonymizeOptions) Validate() error {
	if o.Fixture == "" {
		return errorf("anonymize needs -f FIXTURE (a file, - for standard input, or an embedded fixture's name) or a RECORDING")
	}
	if o.recording && (o.Output == "" || o.Output == "-") {
		return errorf("anonymize %s needs -o FILE: an anonymized recording is written to a file, its marks beside it", o.Fixture)
	}
	if o.Output == "" || o.Fixture == "-" {
		return nil
	}
	return recorder.CheckOutput(o.Output, o.Fixture)
}

// read returns the fixture's bytes and the name errors give it.
func (o *AnonymizeOptions) read() (string, []byte, error) {
	if o.Fixture == "-" {
		data, err := input.Read("(stdin)", o.stdin, input.FixtureLimit, "fixture")
		return "(stdin)", data, err
	}
	if _, err := os.Stat(o.Fixture); err != nil {
		if data, e := fixtures.Read(o.Fixture); e == nil {
			return embeddedPrefix + o.Fixture, data, nil
		}
	}
	data, err := input.ReadFile(o.Fixture, input.FixtureLimit, "fixture")
	return o.Fixture, data, err
}

// Run writes the anonymized fixture: to standard output, or to a file (mode
// 0600) that replaces --output only once it is all written.
func (o *AnonymizeOptions) Run() error {
	name, data, err := o.read()
	if err != nil {
		return err
	}
	if isRecording(data) {
		if o.Output == "" || o.Output == "-" {
			return errorf("%s is a recording: anonymize it with -o FILE (an anonymized recording is written to a file, its marks beside it)", name)
		}
		return o.runRecording(name, data)
	}
	if o.recording {
		return errorf("%s is not a recording (anonymize -f %s anonymizes a fixture)", name, shellQuote(o.Fixture))
	}
	out, _, err := anonymize.Manifest(name, data)
	if err != nil {
		return err
	}
	if o.Output == "" {
		_, err = o.streams.Out.Write(out)
		return err
	}
	f, err := recorder.CreateAtomic(o.Output, o.Fixture)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(out); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	return nil
}

// isRecording says whether data starts with a recording's header.
func isRecording(data []byte) bool {
	r, err := recorder.NewReader(bytes.NewReader(data))
	return err == nil && r.Header().Format == recorder.FormatName
}

// runRecording writes the recording anonymized to --output (mode 0600,
// renamed into place when whole), and its marks, anonymized, beside it.
func (o *AnonymizeOptions) runRecording(name string, data []byte) error {
	rw, err := anonymize.ReadRecording(name, bytes.NewReader(data))
	if err != nil {
		return err
	}
	var marks *recorder.Marks
	if o.Fixture != "-" {
		if _, err := os.Stat(o.Fixture); err == nil {
			id, err := recorder.RecordingIdentity(o.Fixture)
			if err != nil {
				return err
			}
			if marks, err = recorder.ReadMarks(o.Fixture, id); err != nil {
				return err
			}
		}
	}
	f, err := recorder.CreateAtomic(o.Output, o.Fixture)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := rw.Write(f); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	text := rw.Text()
	noted := 0
	if marks != nil && len(marks.Marks) > 0 {
		id, err := recorder.RecordingIdentity(o.Output)
		if err != nil {
			return err
		}
		out := &recorder.Marks{Format: recorder.MarksFormat, Recording: id}
		for _, mk := range marks.Marks {
			mk.Pod, mk.Note = text.Clean(mk.Pod), text.Clean(mk.Note)
			out.Marks = append(out.Marks, mk)
		}
		if err := out.Save(o.Output); err != nil {
			return err
		}
		noted = len(out.Marks)
	}
	msg := fmt.Sprintf("%s: %d names mapped to stand-ins, %d words of free text redacted", o.Output, rw.Names(), text.Redactions())
	if noted > 0 {
		msg += fmt.Sprintf("; %d marks written to %s", noted, recorder.MarksPath(o.Output))
	}
	fmt.Fprintln(o.streams.ErrOut, msg)
	return nil
}
