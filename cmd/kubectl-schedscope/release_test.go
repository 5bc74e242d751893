package main

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// krewVersion is the krew the release test installs with, built from the
// module proxy.
const krewVersion = "v0.4.3"

// TestReleaseInstallsThroughKrew runs `make release` for this machine's
// platform and checks what it wrote as krew and kubectl use it: the
// archive's sha256 is the one its .sha256 file and the manifest state; the
// manifest has what krew requires; krew (built from its module) installs the
// plugin from the local manifest and archive; the installed binary is
// stripped and says the stamped version; the completion script shipped
// beside it completes the fixture's pod names, alone and through kubectl
// when kubectl is installed. A second release gives the same bytes.
func TestReleaseInstallsThroughKrew(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is needed (Debian package make; .ci/run installs it)")
	}
	const version = "v0.0.0-test"
	platform := runtime.GOOS + "/" + runtime.GOARCH
	dist := t.TempDir()
	release := func() []byte {
		t.Helper()
		cmd := exec.Command("make", "-C", "../..", "release", "VERSION="+version, "PLATFORMS="+platform, "DIST="+dist)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make release: %v\n%s", err, out)
		}
		data, err := os.ReadFile(filepath.Join(dist, "schedscope.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	manifestData := release()
	name := fmt.Sprintf("kubectl-schedscope_%s_%s_%s.tar.gz", version, runtime.GOOS, runtime.GOARCH)
	archive := filepath.Join(dist, name)
	data, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	if side, err := os.ReadFile(archive + ".sha256"); err != nil || string(side) != want+"  "+name+"\n" {
		t.Errorf("%s.sha256 = %q, %v; want %q", name, side, err, want+"  "+name+"\n")
	}

	var m struct {
		APIVersion string                `json:"apiVersion"`
		Kind       string                `json:"kind"`
		Metadata   struct{ Name string } `json:"metadata"`
		Spec       struct {
			Version          string `json:"version"`
			Homepage         string `json:"homepage"`
			ShortDescription string `json:"shortDescription"`
			Description      string `json:"description"`
			Caveats          string `json:"caveats"`
			Platforms        []struct {
				Selector struct {
					MatchLabels map[string]string `json:"matchLabels"`
				} `json:"selector"`
				URI    string `json:"uri"`
				Sha256 string `json:"sha256"`
				Bin    string `json:"bin"`
			} `json:"platforms"`
		} `json:"spec"`
	}
	if err := yaml.UnmarshalStrict(manifestData, &m); err != nil {
		t.Fatalf("dist/schedscope.yaml: %v\n%s", err, manifestData)
	}
	if m.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || m.Kind != "Plugin" || m.Metadata.Name != "schedscope" ||
		m.Spec.Version != version || m.Spec.ShortDescription == "" || len(m.Spec.ShortDescription) > 50 ||
		!strings.Contains(m.Spec.Caveats, "kubectl_complete-schedscope") || len(m.Spec.Platforms) != 1 {
		t.Fatalf("the manifest lacks what krew requires:\n%s", manifestData)
	}
	p := m.Spec.Platforms[0]
	if p.Selector.MatchLabels["os"] != runtime.GOOS || p.Selector.MatchLabels["arch"] != runtime.GOARCH ||
		p.Sha256 != want || !strings.HasSuffix(p.URI, "/"+version+"/"+name) || p.Bin != "kubectl-schedscope" {
		t.Errorf("the manifest's platform does not match the archive %s (sha256 %s):\n%s", name, want, manifestData)
	}

	// krew itself, built from its module outside this one.
	gobin := t.TempDir()
	get := exec.Command("go", "install", "sigs.k8s.io/krew/cmd/krew@"+krewVersion)
	get.Dir = t.TempDir()
	get.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := get.CombinedOutput(); err != nil {
		t.Fatalf("go install krew: %v\n%s", err, out)
	}
	root := t.TempDir()
	install := exec.Command(filepath.Join(gobin, "krew"), "install", "--manifest="+filepath.Join(dist, "schedscope.yaml"), "--archive="+archive)
	install.Env = append(os.Environ(), "KREW_ROOT="+root)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("krew install: %v\n%s", err, out)
	}
	plugin := filepath.Join(root, "bin", "kubectl-schedscope")
	out, err := exec.Command(plugin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "schedscope "+version) {
		t.Errorf("the installed plugin's version: %v\n%s", err, out)
	}
	real, err := filepath.EvalSymlinks(plugin)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(real)
		if err != nil {
			t.Fatal(err)
		}
		if f.Section(".symtab") != nil {
			t.Error("the released binary is not stripped: it has a symbol table")
		}
		f.Close()
	}

	complete := filepath.Join(filepath.Dir(real), "kubectl_complete-schedscope")
	path := filepath.Join(root, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")
	cmd := exec.Command(complete, "explain", "-f", "default", "--pod", "")
	cmd.Env = append(os.Environ(), "PATH="+path)
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "web\n") {
		t.Errorf("kubectl_complete-schedscope: %v\n%s", err, out)
	}
	if kubectl, err := exec.LookPath("kubectl"); err == nil {
		dir := t.TempDir()
		if err := os.Symlink(complete, filepath.Join(dir, "kubectl_complete-schedscope")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(kubectl, "__complete", "schedscope", "explain", "-f", "default", "--pod", "")
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+path)
		if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "web\n") {
			t.Errorf("kubectl __complete schedscope: %v\n%s", err, out)
		}
	}

	if again := release(); !bytes.Equal(again, manifestData) {
		t.Errorf("a second release of the same commit gave another archive:\n%s\nthen\n%s", manifestData, again)
	}
}
