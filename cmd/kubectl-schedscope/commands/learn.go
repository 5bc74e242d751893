package commands

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/tui"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

// LearnOptions holds the flags of learn.
type LearnOptions struct {
	SimOptions
	Lesson string
	List   bool
}

// NewCmdLearn lists the lessons, or opens one in the debugger.
func NewCmdLearn(streams genericiooptions.IOStreams) *cobra.Command {
	o := &LearnOptions{SimOptions: SimOptions{simOptions: newSimOptions(streams)}}
	cmd := &cobra.Command{
		Use:   "learn [LESSON] [--list]",
		Short: "Guided lessons: the debugger on a fixture, with steps that say where to look and why",
		Long: "learn opens a lesson in the debugger: an embedded fixture's run, and beside it steps that say where to\n" +
			"look (a cycle and a phase), what is there, and a question answered by looking (a shows the answer).\n" +
			"Reaching the next step's cycle and phase, once the current step's was reached, moves on to it;\n" +
			"> and < move by hand; the last step names the next lesson. Without LESSON, or with\n" +
			"--list, it lists the lessons. Every fact a lesson states is checked against its own recorded cycles\n" +
			"by a test, so a lesson says what the scheduler does.",
		Example: `  kubectl schedscope learn
  kubectl schedscope learn 3-preemption`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return fixtures.LessonNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Lesson = args[0]
			}
			if o.List || o.Lesson == "" {
				return o.list()
			}
			l, err := fixtures.ReadLesson(o.Lesson)
			if err != nil {
				return errorf("%v", err)
			}
			if o.lesson, err = tuiLesson(l); err != nil {
				return err
			}
			o.Fixture = l.Fixture
			if err := lessonGates(&o.simOptions, l); err != nil {
				return err
			}
			if l.Config != "" {
				// The lesson's profile, where the run reads a configuration:
				// a file, removed when the lesson closes (or, after a kill,
				// by the next lesson opened).
				removeStaleLessonConfigs(os.TempDir(), time.Now())
				path, err := writeLessonConfig(l)
				if err != nil {
					return err
				}
				defer os.Remove(path)
				o.Config = path
			}
			return runE(&o.SimOptions)(cmd, nil)
		},
	}
	cmd.Flags().BoolVar(&o.List, "list", false, "list the lessons, one a line")
	// The run's settings are sim's defaults: a lesson is about its fixture.
	o.addFlags(pflag.NewFlagSet("sim defaults", pflag.ContinueOnError))
	return cmd
}

// list prints one line a lesson, fitted to the terminal it writes to.
func (o *LearnOptions) list() error {
	return o.listWidth(terminalWidth(o.streams.Out))
}

// terminalWidth is the width of the terminal w is, 0 when it is none (a
// pipe or a file gets whole lines).
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// listWidth lists the lessons for a terminal width columns wide (0: no
// limit): where a lesson's line would not fit, every line leaves out its
// fixture, and one still too long is wrapped between words, under its
// title, so that the list reads at 80 columns on one 24-line screen.
func (o *LearnOptions) listWidth(width int) error {
	t := text.New(o.streams.Out)
	names := fixtures.LessonNames()
	col := 0
	for _, n := range names {
		col = max(col, len(n))
	}
	type entry struct{ name, long, short string }
	var entries []entry
	fits := true
	for _, n := range names {
		l, err := fixtures.ReadLesson(n)
		if err != nil {
			return err
		}
		profile := ""
		if l.Config != "" {
			profile = ", its own profile"
		}
		if l.FeatureGates != "" {
			profile += ", --feature-gates=" + l.FeatureGates
		}
		e := entry{n, fmt.Sprintf("%s (fixture %s%s, %d steps)", l.Title, l.Fixture, profile, len(l.Steps)), fmt.Sprintf("%s (%d steps)", l.Title, len(l.Steps))}
		fits = fits && (width <= 0 || col+2+len(e.long) <= width)
		entries = append(entries, e)
	}
	for _, e := range entries {
		text := e.long
		if !fits {
			text = e.short // alike, every line: learn NAME says the fixture
		}
		for i, line := range wrapWords(text, width-col-2) {
			name := e.name
			if i > 0 {
				name = ""
			}
			t.Printf("%-*s  %s\n", col, name, line)
		}
	}
	if !o.List {
		t.Printf("\nopen one with: kubectl schedscope learn %s\n", names[0])
	}
	return t.Err()
}

// wrapWords breaks text into lines of at most width bytes between words (a
// word longer than width on a line of its own); width 0 or less: one line.
func wrapWords(text string, width int) []string {
	if width <= 0 || len(text) <= width {
		return []string{text}
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

// lessonGates turns on the feature gates lesson l's run needs, as
// --feature-gates would (the process's gates, and the run's flag that the
// header and the command to run it again name).
func lessonGates(o *simOptions, l *fixtures.Lesson) error {
	if l.FeatureGates == "" {
		return nil
	}
	if err := o.gates.Set(l.FeatureGates); err != nil {
		return errorf("lesson %s: featureGates: %v", l.Name, err)
	}
	return featuregates.Set(o.gates.gates)
}

// tuiLesson is a lesson as the debugger shows it.
func tuiLesson(l *fixtures.Lesson) (*tui.Lesson, error) {
	out := &tui.Lesson{Title: l.Title, Intro: l.Intro}
	names := fixtures.LessonNames()
	if i := slices.Index(names, l.Name); i >= 0 && i+1 < len(names) {
		out.Next = "kubectl schedscope learn " + names[i+1]
	}
	for i, s := range l.Steps {
		p, ok := phaseNamed(s.Phase)
		if !ok {
			return nil, fmt.Errorf("lesson %s, step %d: no phase %q", l.Name, i+1, s.Phase)
		}
		out.Steps = append(out.Steps, tui.LessonStep{Cycle: s.Cycle, Phase: p, Say: s.Say, Ask: s.Ask, Answer: s.Answer})
	}
	return out, nil
}

// phaseNamed is the cycle view's phase a lesson names, as :phase takes it
// whole: any name or alias of narrate.Steps.
func phaseNamed(name string) (cyclepage.Phase, bool) {
	i, ok := narrate.StepNamed(name)
	if !ok || i >= int(cyclepage.NumPhases) {
		return 0, false
	}
	return cyclepage.Phase(i), true
}

// A lesson's configuration file is named schedscope-lesson-pidPID-NAME-*.yaml:
// the process that wrote it says whether it is still in use.
const (
	lessonConfigPrefix = "schedscope-lesson-pid"
	// lessonConfigStale is how old a file left by a process that is gone
	// must be to be removed: a PID is soon reused.
	lessonConfigStale = 5 * time.Minute
)

// writeLessonConfig writes the lesson's KubeSchedulerConfiguration to a
// file of its own (mode 0600) and returns its path.
func writeLessonConfig(l *fixtures.Lesson) (string, error) {
	f, err := os.CreateTemp("", fmt.Sprintf("%s%d-%s-*.yaml", lessonConfigPrefix, os.Getpid(), l.Name))
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(l.Config); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), f.Close()
}

// removeStaleLessonConfigs removes from dir the lesson configurations that
// a learn killed before closing its lesson left: those whose process is
// gone, written more than lessonConfigStale before now. It is best effort:
// what it cannot read or remove stays.
func removeStaleLessonConfigs(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), lessonConfigPrefix)
		if !ok || !e.Type().IsRegular() || !strings.HasSuffix(rest, ".yaml") {
			continue
		}
		p, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(p)
		if err != nil || !recorder.ProcessGone(pid) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > lessonConfigStale {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
