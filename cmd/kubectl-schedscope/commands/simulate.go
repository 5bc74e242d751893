package commands

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	v1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/tui"
)

// simOptions are the flags shared by commands that run the engine on a fixture.
type simOptions struct {
	Fixture    string
	Config     string
	Diagnostic string
	// Arrival is how the fixture's pending pods arrive: sequential or burst.
	Arrival string
	// ArrivalInterval spaces sequential arrivals (engine.Options.ArrivalInterval).
	ArrivalInterval time.Duration
	// gates is --feature-gates.
	gates featureGatesFlag

	// stdin is read for -f -; load reads the fixture, once per command
	// (standard input can be read once, and loading is most of a large
	// fixture's cost): every run of the command starts from it, and none
	// changes it.
	stdin   io.Reader
	load    *fixtureLoad
	streams genericiooptions.IOStreams
	// serialFilter filters nodes one at a time (parallelism 1), so that a
	// sampled search (percentageOfNodesToScore) visits the same nodes on
	// every run: kube-scheduler's parallel filter stops at the first
	// feasible nodes its goroutines happen to find.
	serialFilter bool
	// story, if set, names the pods whose story alone the command tells:
	// the run may stop once nothing left could change it
	// (engine.Options.Story).
	story func(*v1.Pod) bool
	// source is the fixture's run the command reads; Complete sets it.
	source fixtureRun
}

// newSimOptions returns the fixture flags of a command that reads -f - from
// streams.In.
func newSimOptions(streams genericiooptions.IOStreams) simOptions {
	return simOptions{streams: streams, stdin: streams.In}
}

// Complete sets up the fixture's run.
func (o *simOptions) Complete(*cobra.Command, []string) error {
	o.source = &fixtureSource{o: o}
	return nil
}

func (o *simOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Fixture, "filename", "f", "", "fixture manifest to simulate, - for standard input (default: the embedded default fixture)")
	fs.StringVar(&o.Config, "config", "", "KubeSchedulerConfiguration file (default: kube-scheduler's default profile)")
	fs.StringVar(&o.Diagnostic, "diagnostic", string(engine.DiagnosticUnschedulable), "when to run the diagnostic full-filter pass: always, unschedulable or never")
	fs.StringVar(&o.Arrival, "arrival", arrivalSequential, "how pending pods arrive: sequential (each once the scheduler has settled on the one before, in fixture order) or burst (all at once, as a scale-up; in a timeline fixture, the pods between two changes at once)")
	o.gates.addFlag(fs)
	fs.DurationVar(&o.ArrivalInterval, "arrival-interval", 0, "with sequential arrival, how long after the scheduler settled on a pod the next one arrives, waited on the wall clock (kube-scheduler's opportunistic batching expires a stored ranking after 500ms)")
}

// Arrival modes of --arrival.
const (
	arrivalSequential = "sequential"
	arrivalBurst      = "burst"
)

// maxArrivalInterval bounds --arrival-interval: it is waited for real.
const maxArrivalInterval = time.Minute

func (o *simOptions) checkArrival() error {
	switch o.Arrival {
	case "", arrivalSequential, arrivalBurst:
	default:
		return errorf("--arrival must be sequential or burst, not %q", o.Arrival)
	}
	switch {
	case o.ArrivalInterval < 0 || o.ArrivalInterval > maxArrivalInterval:
		return errorf("--arrival-interval must be between 0 and %s, not %s", maxArrivalInterval, o.ArrivalInterval)
	case o.ArrivalInterval > 0 && o.Arrival == arrivalBurst:
		return errorf("--arrival-interval spaces sequential arrivals; --arrival burst creates every pod at once")
	}
	return nil
}

// fixtureLoad is the fixture being read, or read.
type fixtureLoad struct {
	done chan struct{}
	fx   *fixture.Fixture
	err  error
}

// startLoad starts reading the fixture, once.
func (o *simOptions) startLoad() *fixtureLoad {
	if o.load == nil {
		fixtureGC()
		l := &fixtureLoad{done: make(chan struct{})}
		o.load = l
		go func() {
			defer close(l.done)
			l.fx, l.err = o.readFixture()
		}()
	}
	return o.load
}

func (o *simOptions) loadFixture() (*fixture.Fixture, error) {
	l := o.startLoad()
	<-l.done
	return l.fx, l.err
}

// fixtureGCPercent is how far Go's heap may grow past what is live before
// it collects, in a process that loads and runs a fixture (Go's default is
// 100). Loading a snapshot makes garbage several times what it keeps, and
// a run allocates a cycle's records as fast as the scheduler goes: at 300
// the record binary kept 0.88 of the bare scheduler's pods/s (make bench;
// 0.80 in the run before, at 100), and the explain of a 40 000-pod
// snapshot was no slower. The soft memory limit the binary sets (memory.go) bounds
// the peak. Other commands keep Go's 100: replay's peak RSS went from 229
// to 310 MB at 300, and live, which lists a cluster as a load does, was
// ready no sooner (10.2 s at 300, 10.8 s at 100, beside kube-scheduler's
// 4.5 and 5.0 s in the same runs). GOGC set by the user wins.
const fixtureGCPercent = 300

// fixtureGC sets fixtureGCPercent for the rest of the process.
func fixtureGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(fixtureGCPercent)
	}
}

func (o *simOptions) readFixture() (*fixture.Fixture, error) {
	if o.Fixture == "-" {
		return fixture.LoadReader("(stdin)", o.stdin)
	}
	if o.Fixture == "" {
		if pipedIn(o.stdin) {
			return nil, errorf("a fixture is piped in, but -f is not given: give -f - to read it (the embedded default fixture is -f %s)", fixtures.Default)
		}
		data, err := fixtures.Read(fixtures.Default)
		if err != nil {
			return nil, err
		}
		return fixture.Load(embeddedPrefix+fixtures.Default, data)
	}
	st, err := os.Stat(o.Fixture)
	if err != nil {
		if data, e := fixtures.Read(o.Fixture); e == nil {
			return fixture.Load(embeddedPrefix+o.Fixture, data)
		}
		if errors.Is(err, fs.ErrNotExist) {
			err := errorf("%s: no such file, nor an embedded fixture%s; the embedded fixtures are %s",
				o.Fixture, input.DidYouMean(strings.TrimSuffix(o.Fixture, ".yaml"), embeddedNames()), strings.Join(embeddedNames(), ", "))
			if strings.ContainsRune(o.Fixture, filepath.Separator) || filepath.Ext(o.Fixture) != "" {
				return nil, err // a path or a file's name (it3.yaml): a file is missing
			}
			// A bare name: perhaps an embedded fixture's, mistyped.
			return nil, &hintError{err: err, hint: embeddedTeaches()}
		}
		return nil, err
	}
	if st.IsDir() {
		// As kubectl apply -f DIR: every manifest in it.
		return fixture.LoadDir(o.Fixture)
	}
	return fixture.LoadFile(o.Fixture)
}

// embeddedNames lists the embedded fixtures by the name -f takes.
func embeddedNames() []string {
	var names []string
	for _, n := range fixtures.Names() {
		if strings.HasSuffix(n, ".yaml") {
			names = append(names, strings.TrimSuffix(n, ".yaml"))
		}
	}
	return names
}

// embeddedFixtures lists the embedded fixtures and what each teaches, for
// the debugger's :fixtures.
func embeddedFixtures() []tui.Fixture {
	var out []tui.Fixture
	for _, n := range embeddedNames() {
		out = append(out, tui.Fixture{Name: n, Teaches: fixtures.Teaches(n)})
	}
	return out
}

// suggestCommand is the suggest command for pod on this fixture, with the
// flags that decide its cycles.
func (o *simOptions) suggestCommand(pod string) string {
	return strings.Join(append(o.commandArgs("suggest"), "--pod", shellQuote(pod)), " ")
}

// commandArgs starts the command line of verb on this fixture, with the
// flags that decide its cycles, quoted for a shell.
func (o *simOptions) commandArgs(verb string) []string {
	args := []string{"kubectl", "schedscope", verb}
	if o.Fixture != "" {
		args = append(args, "-f", shellQuote(o.Fixture))
	}
	if o.Config != "" {
		args = append(args, "--config", shellQuote(o.Config))
	}
	// The cycle numbers depend on how the pods arrived.
	if o.Arrival != "" && o.Arrival != arrivalSequential {
		args = append(args, "--arrival", o.Arrival)
	}
	if o.ArrivalInterval > 0 {
		args = append(args, "--arrival-interval", o.ArrivalInterval.String())
	}
	if len(o.gates.gates) > 0 {
		args = append(args, "--feature-gates", shellQuote(o.gates.value))
	}
	return args
}

// pipedIn reports whether r is a pipe or a file redirected to standard
// input: what a user piped in is not silently left unread.
func pipedIn(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	m := st.Mode()
	return m&os.ModeNamedPipe != 0 || m.IsRegular()
}

// checkInputs loads the diagnostic mode, the fixture and the configuration,
// so that a command reports a bad input before it creates or shows anything.
func (o *simOptions) checkInputs() error {
	return o.checkInputsWithin(-1)
}

// checkInputsWithin is checkInputs that waits for the fixture at most
// wait (forever when negative): the debugger opens on a large fixture
// while it is still loading, and tells a fixture's error, found later, in
// its problems and as the command's error.
func (o *simOptions) checkInputsWithin(wait time.Duration) error {
	if _, err := engine.ParseDiagnosticMode(o.Diagnostic); err != nil {
		return err
	}
	if err := o.checkArrival(); err != nil {
		return err
	}
	if _, err := engine.LoadConfigFile(o.Config); err != nil {
		return err
	}
	l := o.startLoad()
	// Standard input is read whole before anything else reads it (the
	// debugger reads keys from the terminal).
	if wait >= 0 && o.Fixture != "-" {
		select {
		case <-l.done:
		case <-time.After(wait):
			return nil
		}
	}
	<-l.done
	return l.err
}

// checkOutput refuses an output path that is one of the inputs: the
// fixture and configuration files, and the file standard input is
// redirected from when the fixture is -f -.
func (o *simOptions) checkOutput(path string) error {
	if err := recorder.CheckOutput(path, o.Fixture, o.Config); err != nil {
		return err
	}
	if o.Fixture == "-" {
		return recorder.CheckOutputOpen(path, o.stdin, "standard input (-f -)")
	}
	return nil
}

// silenceKlog keeps upstream code's logs off the terminal.
func silenceKlog() { engine.QuietUpstreamLogs() }

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// arrival names the arrival mode in effect.
func (o *simOptions) arrival() string {
	if o.Arrival == "" {
		return arrivalSequential
	}
	return o.Arrival
}

// wholeRuns loads what a command needs to run the fixture whole, again and
// again through the library (capacity, whatif --scale): the fixture, with
// upstream logs off the terminal.
func (o *simOptions) wholeRuns() (*fixture.Fixture, error) {
	if err := o.checkInputs(); err != nil {
		return nil, err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return nil, err
	}
	silenceKlog()
	return fx, nil
}

// embeddedTeaches lists the embedded fixtures, each with what it teaches,
// one a line: the hint after an -f that names none.
func embeddedTeaches() []string {
	fxs := embeddedFixtures()
	width := 0
	for _, f := range fxs {
		width = max(width, len(f.Name))
	}
	out := []string{"the embedded fixtures (-f NAME), and what each teaches:"}
	for _, f := range fxs {
		out = append(out, fmt.Sprintf("  %-*s  %s", width, f.Name, f.Teaches))
	}
	return out
}

// hintError is an error printed as its one line, then the hint's lines
// (what a user can do instead), on standard error.
type hintError struct {
	err  error
	hint []string
}

func (e *hintError) Error() string { return e.err.Error() }

func (e *hintError) Unwrap() error { return e.err }
