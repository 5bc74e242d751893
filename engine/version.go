package engine

// Version is schedscope's version, set at build time with
// -ldflags "-X github.com/schedscope/schedscope/engine.Version=...".
var Version = "0.1.0-dev"

// KubernetesVersion is the version of the embedded kube-scheduler (k8s.io/kubernetes in go.mod).
const KubernetesVersion = "v1.37.1"
