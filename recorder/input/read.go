package input

import (
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
	return Read(path, f, limit, what)
}

// Read is ReadFile on an open reader (standard input); name names it in
// errors.
func Read(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %s: too big for a %s", name, size(limit), what)
	}
	return data, nil
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
