package table

import (
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// Cell is what one node × plugin cell of a filter matrix shows.
type Cell uint8

const (
	Success Cell = iota
	Unschedulable
	Unresolvable
	Error
	Skip
	// NotCalled: the node was rejected before this plugin ran, or by no
	// plugin the cycle names.
	NotCalled
	NotEvaluated
	Discarded
	Wait
	Pending
	NumCells
)

// Glyph is the one-column symbol of a cell; the glyphs differ from each
// other so that the states stay apart without colour.
func (k Cell) Glyph() string {
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

// Label names a cell in legends: the framework's status code, or what
// happened when no plugin returned one.
func (k Cell) Label() string {
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
func (k Cell) ShortLabel() string {
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

// Rejects reports whether a cell is a plugin turning the node down.
func (k Cell) Rejects() bool {
	return k == Unschedulable || k == Unresolvable || k == Error || k == Wait || k == Pending
}

// CellOf is the cell of a framework status code.
func CellOf(code string) Cell {
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
