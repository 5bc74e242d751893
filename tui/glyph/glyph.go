// Package glyph is the one-column symbols of plugin outcomes (Success,
// Unschedulable, UnschedulableAndUnresolvable, Error, Skip, …) that the
// filter matrix, the node detail and the legends draw. The glyphs differ
// from each other, so that the states stay apart without colour.
package glyph

import (
	"charm.land/lipgloss/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/table"
	"github.com/schedscope/schedscope/tui/theme"
)

// Kind is what one node × plugin cell of a filter matrix shows: the cell of
// recorder/table, which decides it once for every output.
type Kind = table.Cell

const (
	Success       = table.Success
	Unschedulable = table.Unschedulable
	Unresolvable  = table.Unresolvable
	Error         = table.Error
	Skip          = table.Skip
	NotCalled     = table.NotCalled
	NotEvaluated  = table.NotEvaluated
	Discarded     = table.Discarded
	Wait          = table.Wait
	Pending       = table.Pending
	NumKinds      = table.NumCells
)

// Of maps a framework status code to its cell kind.
func Of(code string) Kind { return table.CellOf(code) }

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
