// Package input reads what a user hands schedscope — a file, a device, a
// pipe or standard input — with one bound, and quotes user input in errors
// with one bound, so that /dev/zero, a runaway file or a 60 MB patch ends in
// a one-line error instead of exhausting memory or the terminal.
//
// Where things are: read.go reads a named file or a reader up to a limit
// (the limits every command uses are its constants); quote.go shortens user
// input quoted in an error to a prefix and its length; closest.go finds what
// a mistyped name meant.
package input
