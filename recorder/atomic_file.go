package recorder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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
// names the same file as one of inputs, the files the command reads. A
// symlink is written through, to the file it points to, and a dangling one
// creates that file, as os.Create and a shell's > do.
func CreateAtomic(path string, inputs ...string) (*AtomicFile, error) {
	if err := CheckOutput(path, inputs...); err != nil {
		return nil, err
	}
	target, err := resolveOutput(path)
	if err != nil {
		return nil, err
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
	f, err := os.CreateTemp(filepath.Dir(target), tempPrefix(target, os.Getpid())+"*")
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

// maxLinks bounds how many symlinks resolveOutput follows, as the kernel's
// ELOOP does.
const maxLinks = 40

// resolveOutput is the file path names once its symlinks are followed. A
// link whose target does not exist resolves to that target (the file to
// create), so that writing replaces neither the link nor a file elsewhere.
func resolveOutput(path string) (string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	}
	p := path
	for range maxLinks {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return p, nil // not there yet, or a file: write it
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// tempPrefix is the name of the temporary files process pid writes for
// target: hidden, beside it, and naming the writer so that a later run can
// tell a leftover of a dead process from a recording still being written.
func tempPrefix(target string, pid int) string {
	return "." + filepath.Base(target) + ".tmp-" + strconv.Itoa(pid) + "-"
}

// Temp is the temporary file being written, where a run that stops before
// Commit leaves its partial output when it is kept; empty when the target
// is written in place.
func (a *AtomicFile) Temp() string { return a.temp }

// Keep closes the file and leaves it under its temporary name, for a run
// interrupted part-way whose output is still worth reading (a recording's
// complete cycles). It returns that name.
func (a *AtomicFile) Keep() (string, error) {
	if a.closed {
		return "", errors.New(a.target + ": already committed or aborted")
	}
	a.closed = true
	if err := a.File.Sync(); err != nil {
		a.File.Close()
		return a.temp, err
	}
	return a.temp, a.File.Close()
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

// CheckOutputOpen is CheckOutput for an input the command holds open, such
// as standard input given as -f -, which has no path to compare: it refuses
// a path that is the same file (device and inode) as in, named name in the
// error. An input that cannot say what file it is (a bytes.Reader) is
// ignored.
func CheckOutputOpen(path string, in any, name string) error {
	st, ok := in.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return nil
	}
	inInfo, err := st.Stat()
	if err != nil || !inInfo.Mode().IsRegular() {
		return nil // a pipe or terminal cannot be the output file
	}
	out, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if os.SameFile(out, inInfo) {
		return fmt.Errorf("refusing to write %s: it is the file %s reads", path, name)
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
