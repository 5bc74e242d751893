package input

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// The bounds on what one input may hold.
const (
	// FixtureLimit bounds a fixture (a file or standard input); large
	// clusters are described with schedscope.io/replicas, not by listing
	// every node.
	FixtureLimit = 64 << 20
	// ManifestLimit bounds one object's manifest, a what-if patch and a
	// scheduler configuration: kube-apiserver takes no request body over
	// 3 MiB, so nothing a user could apply is larger.
	ManifestLimit = 4 << 20
)

// ReadFile reads at most limit bytes of path (a file, a pipe, a device such
// as /dev/zero). A longer input is an error naming path and what it should
// have been ("fixture", "patch", …), not a partial read.
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A file is read into a buffer of its size: io.ReadAll would gather
	// chunks and copy them into a slice of the total, twice the memory,
	// which for a fixture near the limit is 64 MiB spent before anything
	// is decoded.
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > limit {
			return nil, tooBig(path, limit, what)
		}
		buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
		if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return checkLimit(path, buf.Bytes(), limit, what)
	}
	return Read(path, f, limit, what)
}

// Read is ReadFile on an open reader (standard input); name names it in
// errors.
func Read(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return checkLimit(name, data, limit, what)
}

// checkLimit returns data, or an error when it is longer than limit.
func checkLimit(name string, data []byte, limit int64, what string) ([]byte, error) {
	if int64(len(data)) > limit {
		return nil, tooBig(name, limit, what)
	}
	return data, nil
}

func tooBig(name string, limit int64, what string) error {
	return fmt.Errorf("%s: larger than %s: too big for a %s", name, size(limit), what)
}

// size words a limit: "4 MiB", "512 KiB", "100 bytes".
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
