package commands

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/recorder/export/otel"
)

// testImage is the image the manifests under test name.
const testImage = "registry.example/kubectl-schedscope:test"

// deployed runs deploy with args (and --image testImage unless they name
// one) and returns the ConfigMap and Deployment it prints.
func deployed(t *testing.T, args ...string) (*v1.ConfigMap, *appsv1.Deployment) {
	t.Helper()
	if !slices.Contains(args, "--image") {
		args = append(args, "--image", testImage)
	}
	out, errOut, code := run(t, append([]string{"deploy"}, args...)...)
	if code != 0 {
		t.Fatalf("deploy %v: exit %d: %s", args, code, errOut)
	}
	var cm *v1.ConfigMap
	var d *appsv1.Deployment
	for _, doc := range strings.Split(out, "\n---\n") {
		switch {
		case strings.Contains(doc, "\nkind: ConfigMap\n"):
			cm = &v1.ConfigMap{}
			if err := yaml.UnmarshalStrict([]byte(doc), cm); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(doc, "\nkind: Deployment\n"):
			d = &appsv1.Deployment{}
			if err := yaml.UnmarshalStrict([]byte(doc), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cm == nil || d == nil {
		t.Fatalf("deploy printed no ConfigMap or no Deployment:\n%s", out)
	}
	return cm, d
}

// The pod gives live time to close its recording and send its last traces
// on SIGTERM before the kubelet kills it.
func TestDeployGivesLiveTimeToEnd(t *testing.T) {
	_, d := deployed(t, "--otlp-endpoint", "http://otel-collector.observability:4317")
	grace := d.Spec.Template.Spec.TerminationGracePeriodSeconds
	if grace == nil || time.Duration(*grace)*time.Second < otel.DefaultTimeout+10*time.Second {
		t.Errorf("terminationGracePeriodSeconds %v: want it set, at least --otlp-timeout's %s and 10 s more", grace, otel.DefaultTimeout)
	}
}

// An extender's TLS material (its private key above all) stays out of the
// ConfigMap: the deployed live never calls extenders. The rest of the
// configuration is kept and still loads.
func TestDeployLeavesExtenderTLSOut(t *testing.T) {
	keyPEM, certPEM := selfSigned(t)
	pems := map[string][]byte{"key": keyPEM, "cert": certPEM, "ca": certPEM}
	secret := func(what string) string { return base64.StdEncoding.EncodeToString(pems[what]) }
	config := `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
# a comment
extenders:
- urlPrefix: https://extender.example:8443/scheduler
  filterVerb: filter
  weight: 1
  tlsConfig:
    insecure: false
    keyData: ` + secret("key") + `
    certData: ` + secret("cert") + `
    caData: ` + secret("ca") + `
`
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cm, _ := deployed(t, "--config", path)
	got := cm.Data[configKey]
	for _, what := range []string{"key", "cert", "ca"} {
		if strings.Contains(got, secret(what)) {
			t.Errorf("the ConfigMap holds the extender's %s", what)
		}
	}
	if strings.Contains(got, "tlsConfig") || !strings.Contains(got, "urlPrefix: https://extender.example:8443/scheduler") {
		t.Errorf("the ConfigMap's configuration:\n%s\nwant the extender without its tlsConfig", got)
	}
	kept := filepath.Join(dir, "kept.yaml")
	if err := os.WriteFile(kept, []byte(got), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.LoadConfigFile(kept); err != nil {
		t.Errorf("the ConfigMap's configuration does not load: %v", err)
	}
	// Without TLS material, the file goes in as written.
	plain := filepath.Join(dir, "plain.yaml")
	if err := os.WriteFile(plain, []byte(strings.Split(config, "  tlsConfig:")[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	if cm, _ := deployed(t, "--config", plain); !strings.Contains(cm.Data[configKey], "# a comment") {
		t.Errorf("a configuration without TLS material was rewritten:\n%s", cm.Data[configKey])
	}
}

// selfSigned returns a new private key and a certificate for it, as PEM.
func selfSigned(t *testing.T) (keyPEM, certPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "extender.example"}, DNSNames: []string{"extender.example"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestDeployPassesFeatureGates: the flight recorder runs live under the
// --feature-gates deploy was given, and its role grants what the scheduler
// reads under them.
func TestDeployPassesFeatureGates(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	out, errOut, code := run(t, "deploy", "--image", "registry.example/schedscope:v1", "--feature-gates=GenericWorkload=true")
	if code != 0 || !strings.Contains(out, "- --feature-gates\n        - GenericWorkload=true\n") || !strings.Contains(out, "podgroups") {
		t.Errorf("deploy --feature-gates=GenericWorkload=true: exit %d (%s), want live's args and the role to follow:\n%s", code, errOut, out)
	}
}

// No image is published, so deploy names none by default: without --image
// it says, in one line, how to build one, and prints nothing to apply.
func TestDeployNeedsAnImage(t *testing.T) {
	for _, args := range [][]string{{"deploy"}, {"deploy", "--image", " "}} {
		out, errOut, code := run(t, args...)
		if code == 0 || out != "" || !strings.Contains(errOut, "deploy needs --image: no schedscope image is published; build one from .image/Dockerfile") ||
			strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want one line asking for --image", args, code, len(out), errOut)
		}
	}
	_, d := deployed(t, "--image", "registry.example/schedscope:v1")
	if got := d.Spec.Template.Spec.Containers[0].Image; got != "registry.example/schedscope:v1" {
		t.Errorf("image %q, want the one --image names", got)
	}
}
