package commands

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/otel"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// ExportOptions holds the flags of export.
type ExportOptions struct {
	File    string
	otlp    otlpOptions
	streams genericiooptions.IOStreams
}

// NewCmdExport sends a recording to a tracing backend.
func NewCmdExport(streams genericiooptions.IOStreams) *cobra.Command {
	o := &ExportOptions{streams: streams, otlp: otlpOptions{flag: "--otlp"}}
	cmd := &cobra.Command{
		Use:   "export --otlp URL FILE",
		Short: "Send a recording's cycles to a tracing backend as OpenTelemetry traces",
		Long: "export sends every cycle of a recording (record -o, sim --record, live --record) to an OTLP endpoint\n" +
			"(Jaeger, Tempo, an OpenTelemetry Collector) as one trace per cycle, at the cycles' own times, with\n" +
			"each pod's queue story between its attempts. The same recording always gives the same trace IDs,\n" +
			"so sending it again, or sending one a live session already exported, does not double it.\n" +
			"Damaged records are skipped and named on standard error; the rest is sent.",
		Args: oneRecording,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&o.otlp.Endpoint, "otlp", "", "the OTLP endpoint to send to (http://HOST:4318, or http://HOST:4317 for gRPC; default: OTEL_EXPORTER_OTLP_ENDPOINT)")
	cmd.Flags().StringVar(&o.otlp.Protocol, "otlp-protocol", "", "grpc or http/protobuf (default: OTEL_EXPORTER_OTLP_PROTOCOL, else grpc for port 4317 and http/protobuf otherwise)")
	o.otlp.addTimeoutFlag(cmd.Flags())
	return cmd
}

// Run reads the recording and sends it, as fast as the backend takes it;
// when the backend takes nothing for --otlp-timeout, the rest is dropped.
func (o *ExportOptions) Run(ctx context.Context) error {
	if err := o.otlp.validate(); err != nil {
		return err
	}
	t, ok, err := o.otlp.target()
	if err != nil {
		return err
	}
	if !ok {
		return errorf("export needs an endpoint: --otlp URL (or OTEL_EXPORTER_OTLP_ENDPOINT)")
	}
	f, rd, err := openReader(o.File)
	if err != nil {
		return err
	}
	defer f.Close()
	opts := o.otlp.options(t)
	opts.Wait = true
	exp, err := otel.New(ctx, opts)
	if err != nil {
		return err
	}
	exp.Begin(rd.Header())
	out := text.New(o.streams.ErrOut)
	problems := 0
	for rec, err := range rd.All() {
		switch {
		case err != nil && recorder.IsProblem(err):
			problems++
			out.Printf("%s: skipped: %v\n", o.File, err)
		case err != nil:
			exp.Close(ctx)
			return fmt.Errorf("%s: %w", o.File, err)
		case rec.Cycle != nil:
			exp.Cycle(rec.Cycle)
		case rec.Queue != nil:
			exp.Queue(rec.Queue)
		case rec.PodGroup != nil:
			exp.PodGroup(rec.PodGroup)
		}
		if ctx.Err() != nil {
			break
		}
	}
	sum := exp.Close(ctx)
	text.New(o.streams.Out).Printf("%s\n", sum)
	switch {
	case sum.Err != nil || sum.Lost() > 0:
		return errors.New("not every trace reached the backend")
	case ctx.Err() != nil:
		return ctx.Err()
	case problems > 0:
		return fmt.Errorf("%s: %d damaged records skipped", o.File, problems)
	}
	return nil
}

// openReader opens the recording at path and reads its header.
func openReader(path string) (*os.File, *recorder.Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	rd, err := recorder.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, rd, nil
}
