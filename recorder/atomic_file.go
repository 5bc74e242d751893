package recorder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outputMode is the mode of every file schedscope writes: recordings and
// snapshots may hold cluster data, for their owner's eyes only.
const outputMode = 0o600

// AtomicFile is an output written under a temporary name in its target's
// directory and renamed over the target only by Commit, so that a command
// that fails half-way leaves an existing target byte for byte as it was. An
// existing target that is not a regular file (a pipe, /dev/stdout) is
// written in place.
type AtomicFile struct {
	*os.File
	target string
	temp   string // empty when writing in place
	closed bool
}

// CreateAtomic starts writing path, with mode 0600. It refuses a path that
// names the same file as one of inputs, the files the command reads.
func CreateAtomic(path string, inputs ...string) (*AtomicFile, error) {
	if err := CheckOutput(path, inputs...); err != nil {
		return nil, err
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real // write through a symlink, as os.Create would
	}
	if st, err := os.Stat(target); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &AtomicFile{File: f, target: target}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, cannotCreate(path, filepath.Dir(target), err)
	}
	if err := f.Chmod(outputMode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &AtomicFile{File: f, target: target, temp: f.Name()}, nil
}

// cannotCreate explains why the temporary file for path could not be created
// in dir, naming path, not the temporary name the user never chose.
func cannotCreate(path, dir string, err error) error {
	if st, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
		return fmt.Errorf("%s: cannot create: directory %s does not exist", path, dir)
	} else if serr == nil && !st.IsDir() {
		return fmt.Errorf("%s: cannot create: %s is not a directory", path, dir)
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s: cannot create: no permission to write in directory %s", path, dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot create: %w", path, err)
}

// Commit flushes the file to disk and renames it over the target.
func (a *AtomicFile) Commit() error {
	if a.closed {
		return errors.New(a.target + ": already committed or aborted")
	}
	a.closed = true
	if a.temp == "" {
		return a.File.Close()
	}
	if err := a.File.Sync(); err != nil {
		a.File.Close()
		os.Remove(a.temp)
		return err
	}
	if err := a.File.Close(); err != nil {
		os.Remove(a.temp)
		return err
	}
	if err := os.Rename(a.temp, a.target); err != nil {
		os.Remove(a.temp)
		return err
	}
	// Make the rename itself durable.
	if d, err := os.Open(filepath.Dir(a.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file, leaving the target untouched. It does
// nothing after Commit, so it can be deferred.
func (a *AtomicFile) Abort() error {
	if a.closed {
		return nil
	}
	a.closed = true
	err := a.File.Close()
	if a.temp != "" {
		if rerr := os.Remove(a.temp); err == nil {
			err = rerr
		}
	}
	return err
}

// CheckOutput returns an error when path names the same file as one of
// inputs (through a link or another spelling). Inputs that are empty or do
// not exist are ignored, as is a path that does not exist yet.
func CheckOutput(path string, inputs ...string) error {
	out, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if st, err := os.Stat(in); err == nil && os.SameFile(out, st) {
			return fmt.Errorf("refusing to write %s: it is the input %s", path, in)
		}
	}
	return nil
}

// CreateFile creates or truncates path, with mode 0600 even if it existed,
// for an output written in place, such as a recording another process
// follows while it grows.
func CreateFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, outputMode)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Mode().Perm() != outputMode {
		if err := f.Chmod(outputMode); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}
