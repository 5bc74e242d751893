// Package glyph is the one-column symbols of plugin outcomes (Success,
// Unschedulable, UnschedulableAndUnresolvable, Error, Skip, …) that the
// filter matrix, the node detail and the legends draw. The glyphs differ
// from each other, so that the states stay apart without colour.
package glyph

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// Kind is what one node × plugin cell of a filter matrix shows.
type Kind uint8

const (
	Success Kind = iota
	Unschedulable
	Unresolvable
	Error
	Skip
	NotCalled
	NotEvaluated
	Discarded
	Wait
	Pending
	NumKinds
)

// Glyph is the one-column symbol of a cell kind; the glyphs differ from each
// other so that the states stay apart without colour.
func (k Kind) Glyph() string {
	switch k {
	case Success:
		return "✓"
	case Unschedulable:
		return "✗"
	case Unresolvable:
		return "⊘"
	case Error:
		return "!"
	case Skip:
		return "↷"
	case NotCalled:
		return "·"
	case NotEvaluated:
		return "░"
	case Discarded:
		return "◇"
	case Wait:
		return "W"
	case Pending:
		return "P"
	}
	return "?"
}

// Label names a cell kind in legends.
func (k Kind) Label() string {
	switch k {
	case Success:
		return "Success"
	case Unschedulable:
		return "Unschedulable"
	case Unresolvable:
		return "UnschedulableAndUnresolvable"
	case Error:
		return "Error"
	case Skip:
		return "Skip"
	case NotCalled:
		return "not called"
	case NotEvaluated:
		return "not evaluated"
	case Discarded:
		return "Discarded"
	case Wait:
		return "Wait"
	case Pending:
		return "Pending"
	}
	return "?"
}

// ShortLabel is Label for narrow legends.
func (k Kind) ShortLabel() string {
	switch k {
	case Success:
		return "ok"
	case Unschedulable:
		return "unsched"
	case Unresolvable:
		return "unresolvable"
	case NotCalled:
		return "not-called"
	case NotEvaluated:
		return "not-evaluated"
	}
	return strings.ToLower(k.Label())
}

// Of maps a framework status code to its cell kind.
func Of(code string) Kind {
	switch code {
	case recorder.CodeSuccess, "":
		return Success
	case recorder.CodeUnschedulable:
		return Unschedulable
	case recorder.CodeUnschedulableAndUnresolvable:
		return Unresolvable
	case recorder.CodeSkip:
		return Skip
	case recorder.CodeWait:
		return Wait
	case recorder.CodePending:
		return Pending
	}
	return Error
}

// Style returns the theme style of a cell kind.
func Style(s *theme.Styles, k Kind) lipgloss.Style {
	switch k {
	case Success:
		return s.Success
	case Unschedulable:
		return s.Unschedulable
	case Unresolvable:
		return s.Unresolvable
	case Error:
		return s.Error
	case Skip:
		return s.Skip
	case NotCalled:
		return s.NotCalled
	case NotEvaluated:
		return s.NotEvaluated
	case Discarded:
		return s.Discarded
	case Wait, Pending:
		return s.Wait
	}
	return s.Dim
}

// Render renders a cell kind's glyph in its colour.
func Render(s *theme.Styles, k Kind) string { return Style(s, k).Render(k.Glyph()) }

// Code renders a status code in its colour, with its glyph first.
func Code(s *theme.Styles, code string) string {
	k := Of(code)
	if code == "" {
		code = recorder.CodeSuccess
	}
	return Style(s, k).Render(k.Glyph() + " " + code)
}
