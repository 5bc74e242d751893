package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

// cellKind is what one node × plugin cell of a filter matrix shows.
type cellKind uint8

const (
	cellSuccess cellKind = iota
	cellUnschedulable
	cellUnresolvable
	cellError
	cellSkip
	cellNotCalled
	cellNotEvaluated
	cellDiscarded
	cellWait
	cellPending
	numCellKinds
)

// glyph is the one-column symbol of a cell kind; the glyphs differ from each
// other so that the states stay apart without colour.
func (k cellKind) glyph() string {
	switch k {
	case cellSuccess:
		return "✓"
	case cellUnschedulable:
		return "✗"
	case cellUnresolvable:
		return "⊘"
	case cellError:
		return "!"
	case cellSkip:
		return "↷"
	case cellNotCalled:
		return "·"
	case cellNotEvaluated:
		return "░"
	case cellDiscarded:
		return "◇"
	case cellWait:
		return "W"
	case cellPending:
		return "P"
	}
	return "?"
}

// label names a cell kind in legends.
func (k cellKind) label() string {
	switch k {
	case cellSuccess:
		return "Success"
	case cellUnschedulable:
		return "Unschedulable"
	case cellUnresolvable:
		return "UnschedulableAndUnresolvable"
	case cellError:
		return "Error"
	case cellSkip:
		return "Skip"
	case cellNotCalled:
		return "not called"
	case cellNotEvaluated:
		return "not evaluated"
	case cellDiscarded:
		return "Discarded"
	case cellWait:
		return "Wait"
	case cellPending:
		return "Pending"
	}
	return "?"
}

// shortLabel is label for narrow legends.
func (k cellKind) shortLabel() string {
	switch k {
	case cellSuccess:
		return "ok"
	case cellUnschedulable:
		return "unsched"
	case cellUnresolvable:
		return "unresolvable"
	case cellNotCalled:
		return "not-called"
	case cellNotEvaluated:
		return "not-evaluated"
	}
	return strings.ToLower(k.label())
}

// kindOf maps a framework status code to its cell kind.
func kindOf(code string) cellKind {
	switch code {
	case recorder.CodeSuccess, "":
		return cellSuccess
	case recorder.CodeUnschedulable:
		return cellUnschedulable
	case recorder.CodeUnschedulableAndUnresolvable:
		return cellUnresolvable
	case recorder.CodeSkip:
		return cellSkip
	case recorder.CodeWait:
		return cellWait
	case recorder.CodePending:
		return cellPending
	}
	return cellError
}

// cellStyle returns the theme style of a cell kind.
func cellStyle(s *theme.Styles, k cellKind) lipgloss.Style {
	switch k {
	case cellSuccess:
		return s.Success
	case cellUnschedulable:
		return s.Unschedulable
	case cellUnresolvable:
		return s.Unresolvable
	case cellError:
		return s.Error
	case cellSkip:
		return s.Skip
	case cellNotCalled:
		return s.NotCalled
	case cellNotEvaluated:
		return s.NotEvaluated
	case cellDiscarded:
		return s.Discarded
	case cellWait, cellPending:
		return s.Wait
	}
	return s.Dim
}

// cellGlyph renders a cell kind's glyph in its colour.
func cellGlyph(s *theme.Styles, k cellKind) string { return cellStyle(s, k).Render(k.glyph()) }

// statusCode renders a status code in its colour, with its glyph first.
func statusCode(s *theme.Styles, code string) string {
	k := kindOf(code)
	if code == "" {
		code = recorder.CodeSuccess
	}
	return cellStyle(s, k).Render(k.glyph() + " " + code)
}
