// Package table is what a cycle did to each node, as the tables every
// output draws: the node × plugin Filter matrix (filter.go: each node's
// fate, each cell's kind and the nodes a listing shows), the kinds of a
// cell with their one-column glyphs (cell.go), and the order of a score
// table (score.go). Text, Markdown, HTML and the TUI read this one model,
// so that a cell is decided once and looks the same everywhere.
//
// It is plain data over recorder types: no words (those are narrate's) and
// no styles (the TUI's theme colours a cell by its kind).
package table
