package engine

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/yaml"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"

	"github.com/schedscope/schedscope/recorder/input"
)

// LoadConfigFile loads a KubeSchedulerConfiguration the way kube-scheduler does:
// decoded strictly and defaulted through the upstream scheme, then validated.
// An empty path gives kube-scheduler's default configuration.
func LoadConfigFile(path string) (*config.KubeSchedulerConfiguration, error) {
	if path == "" {
		return latest.Default()
	}
	data, err := input.ReadFile(path, input.ManifestLimit, "scheduler configuration")
	if err != nil {
		return nil, err
	}
	return LoadConfig(path, data)
}

// LoadConfig is LoadConfigFile on data read from name.
func LoadConfig(path string, data []byte) (*config.KubeSchedulerConfiguration, error) {
	// Say what is wrong with a file that is not a configuration at all
	// before the decoder does, in its own words.
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not YAML or JSON: %v", path, oneLine(err))
	}
	tm, err := jsonserializer.DefaultMetaFactory.Interpret(js)
	switch {
	case err != nil || tm.Kind == "" || tm.Version == "":
		return nil, fmt.Errorf("%s: not a KubeSchedulerConfiguration: it needs apiVersion: kubescheduler.config.k8s.io/v1 and kind: KubeSchedulerConfiguration", path)
	case tm.Kind != "KubeSchedulerConfiguration":
		return nil, fmt.Errorf("%s: a %s (%s), not a KubeSchedulerConfiguration (apiVersion: kubescheduler.config.k8s.io/v1)", path, tm.Kind, tm.GroupVersion())
	}
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if runtime.IsNotRegisteredError(err) {
		return nil, fmt.Errorf("%s: kube-scheduler %s does not read apiVersion %s; use kubescheduler.config.k8s.io/v1", path, KubernetesVersion, tm.GroupVersion())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, oneLine(err))
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("%s: not a KubeSchedulerConfiguration (got %s)", path, gvk)
	}
	cfg.TypeMeta.APIVersion = gvk.GroupVersion().String()
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("%s: %v", path, oneLine(err))
	}
	if err := checkPluginsPresent(cfg); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return cfg, nil
}

// oneLine is err's message on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
