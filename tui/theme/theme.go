// Package theme is the TUI's one source of styles: semantic colours
// (success, unschedulable, unresolvable, error, skip, chosen, tie), and the
// faint, bold and reverse that remain under NO_COLOR.
package theme

import (
	"image/color"
	"os"

	"charm.land/lipgloss/v2"
)

// Styles is the theme: every colour the TUI uses comes from here. Components get
// it from the root model and never name a colour themselves.
type Styles struct {
	// NoColor is set when NO_COLOR asked for no colour; glyphs then carry every
	// distinction on their own and only bold, faint and reverse remain.
	NoColor bool

	Title    lipgloss.Style
	Header   lipgloss.Style // column headers
	Dim      lipgloss.Style
	Bold     lipgloss.Style
	Selected lipgloss.Style // the selected row
	Cursor   lipgloss.Style // the selected cell
	Key      lipgloss.Style // key names in hints
	Border   lipgloss.Style
	Status   lipgloss.Style // the status bar
	Problem  lipgloss.Style

	// Semantic colours.
	Success       lipgloss.Style
	Unschedulable lipgloss.Style
	Unresolvable  lipgloss.Style
	Error         lipgloss.Style
	Skip          lipgloss.Style
	Chosen        lipgloss.Style
	Tie           lipgloss.Style
	NotCalled     lipgloss.Style
	NotEvaluated  lipgloss.Style
	Discarded     lipgloss.Style
	Wait          lipgloss.Style
	// Agree and Disagree mark a live cluster's binding that matched, or
	// contradicted, the cycle's prediction.
	Agree    lipgloss.Style
	Disagree lipgloss.Style
	// WhatIf marks a re-run made with a change, and the change itself.
	WhatIf lipgloss.Style
	// Disconnected is the status bar's engine state while the API server is lost.
	Disconnected lipgloss.Style

	// Heat holds the heatmap levels, coolest first.
	Heat []lipgloss.Style
	// Series holds one style per score plugin in the weighted-sum bars.
	Series []lipgloss.Style
}

// NoColorRequested reports whether the NO_COLOR convention (no-color.org) is in
// effect: the variable is set and not empty.
func NoColorRequested() bool { return os.Getenv("NO_COLOR") != "" }

// New returns the theme; with noColor every style drops its colours.
func New(noColor bool) Styles {
	fg := func(c string) lipgloss.Style {
		s := lipgloss.NewStyle()
		if noColor {
			return s
		}
		return s.Foreground(lipgloss.Color(c))
	}
	bg := func(c string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(c)
	}
	s := Styles{
		NoColor:       noColor,
		Title:         fg("#7AA2F7").Bold(true),
		Header:        fg("#A9B1D6").Bold(true),
		Dim:           lipgloss.NewStyle().Faint(true),
		Bold:          lipgloss.NewStyle().Bold(true),
		Selected:      lipgloss.NewStyle().Reverse(true),
		Cursor:        lipgloss.NewStyle().Reverse(true).Bold(true),
		Key:           fg("#BB9AF7").Bold(true),
		Border:        fg("#565F89"),
		Status:        lipgloss.NewStyle().Background(bg("#24283B")).Foreground(bg("#C0CAF5")),
		Problem:       fg("#F7768E").Bold(true),
		Success:       fg("#9ECE6A"),
		Unschedulable: fg("#E0AF68"),
		Unresolvable:  fg("#FF5F87").Bold(true),
		Error:         fg("#FF0000").Bold(true),
		Skip:          fg("#7DCFFF"),
		Chosen:        fg("#73DACA").Bold(true),
		Tie:           fg("#FF9E64").Bold(true),
		NotCalled:     fg("#565F89"),
		NotEvaluated:  fg("#3B4261"),
		Discarded:     fg("#7AA2F7"),
		Wait:          fg("#E0AF68"),
		Agree:         fg("#9ECE6A"),
		Disagree:      fg("#F7768E").Bold(true),
		Disconnected:  lipgloss.NewStyle().Bold(true).Background(bg("#F7768E")).Foreground(bg("#1A1B26")),
		WhatIf:        fg("#2AC3DE").Bold(true),
	}
	if noColor {
		s.Status = lipgloss.NewStyle().Reverse(true)
		// Inside the reversed status bar, an underline sets the state apart.
		s.Disconnected = lipgloss.NewStyle().Bold(true).Underline(true)
		s.NotCalled = lipgloss.NewStyle().Faint(true)
		s.NotEvaluated = lipgloss.NewStyle().Faint(true)
	}
	for _, c := range []string{"#2E3C64", "#3D59A1", "#7AA2F7", "#E0AF68", "#FF9E64"} {
		s.Heat = append(s.Heat, fg(c))
	}
	for _, c := range []string{"#7AA2F7", "#9ECE6A", "#E0AF68", "#BB9AF7", "#7DCFFF", "#F7768E", "#73DACA", "#FF9E64", "#C0CAF5", "#2AC3DE"} {
		s.Series = append(s.Series, fg(c))
	}
	return s
}
