package engine

import (
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	configv1 "k8s.io/kubernetes/pkg/scheduler/apis/config/v1"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// An Extension adds to the scheduler every engine builds what kube-scheduler
// built with app.WithPlugin has: an out-of-tree plugin (WithPlugin), or the
// types of a plugin's args (WithPluginArgs). Use adds extensions to the
// process.
type Extension struct {
	plugin  string
	factory frameworkruntime.PluginFactory
	args    func(*runtime.Scheme) error
}

// WithPlugin is the out-of-tree plugin name, built by factory, as
// kube-scheduler's app.WithPlugin(name, factory) adds it. Like the in-tree
// plugins it is wrapped and recorded at every extension point it implements.
func WithPlugin(name string, factory frameworkruntime.PluginFactory) Extension {
	return Extension{plugin: name, factory: factory}
}

// WithPluginArgs registers the types of a plugin's args (their versions,
// defaults and conversions) with addToScheme, so that a pluginConfig entry
// with them is decoded and defaulted as kube-scheduler's scheme does it when
// the plugin's package registers them there.
func WithPluginArgs(addToScheme func(*runtime.Scheme) error) Extension {
	return Extension{args: addToScheme}
}

// outOfTree is the process's out-of-tree plugins. The scheme of
// kube-scheduler's configuration is process-wide in upstream code, so the
// plugins whose args it decodes are too: Use sets them once, in main,
// before any command runs, and every engine (each command's, each fork's,
// live's) builds its scheduler with them.
var outOfTree struct {
	sync.Mutex
	registry frameworkruntime.Registry
}

// Use adds the extensions to every engine the process builds after it. A
// plugin named as an in-tree one or added before is refused.
func Use(exts ...Extension) error {
	outOfTree.Lock()
	defer outOfTree.Unlock()
	inTree := frameworkplugins.NewInTreeRegistry()
	for _, ext := range exts {
		switch {
		case ext.args != nil:
			// The scheme decodes a configuration; the plugin-args scheme
			// defaults and converts its args (configv1's conversion).
			for _, s := range []*runtime.Scheme{scheme.Scheme, configv1.GetPluginArgConversionScheme()} {
				if err := ext.args(s); err != nil {
					return fmt.Errorf("registering plugin args: %v", oneLine(err))
				}
			}
		case ext.plugin == "" || ext.factory == nil:
			return fmt.Errorf("a plugin needs a name and a factory (engine.WithPlugin)")
		case inTree[ext.plugin] != nil:
			return fmt.Errorf("plugin %s: kube-scheduler %s has a plugin of that name", ext.plugin, KubernetesVersion)
		default:
			if outOfTree.registry == nil {
				outOfTree.registry = frameworkruntime.Registry{}
			}
			if err := outOfTree.registry.Register(ext.plugin, ext.factory); err != nil {
				return fmt.Errorf("plugin %s: added twice", ext.plugin)
			}
		}
	}
	return nil
}

// OutOfTreePlugins names the plugins Use added, sorted.
func OutOfTreePlugins() []string {
	outOfTree.Lock()
	defer outOfTree.Unlock()
	names := make([]string, 0, len(outOfTree.registry))
	for name := range outOfTree.registry {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// outOfTreeRegistry is a copy of the out-of-tree registry, for scheduler.New.
func outOfTreeRegistry() frameworkruntime.Registry {
	outOfTree.Lock()
	defer outOfTree.Unlock()
	r := make(frameworkruntime.Registry, len(outOfTree.registry))
	for name, f := range outOfTree.registry {
		r[name] = f
	}
	return r
}

// hasPlugin reports whether the engine's scheduler has a plugin of that
// name, in-tree or added by Use.
func hasPlugin(name string) bool {
	if _, ok := frameworkplugins.NewInTreeRegistry()[name]; ok {
		return true
	}
	outOfTree.Lock()
	defer outOfTree.Unlock()
	_, ok := outOfTree.registry[name]
	return ok
}

// YourPluginsHelp says where to read how to build a schedscope with a plugin.
const YourPluginsHelp = `README, "Your plugins"`

// checkPluginsPresent refuses a configuration that enables a plugin the
// scheduler does not have, naming the plugin and its profile, before
// anything is built of it (upstream says so only while building the
// framework, without saying what to do).
func checkPluginsPresent(cfg *config.KubeSchedulerConfiguration) error {
	for _, prof := range cfg.Profiles {
		if prof.Plugins == nil {
			continue
		}
		for _, set := range pluginSets(prof.Plugins) {
			for _, p := range set.Enabled {
				if !hasPlugin(p.Name) {
					return fmt.Errorf("profile %s enables plugin %s, which this schedscope does not have (it has kube-scheduler %s's plugins%s); build a schedscope with it: see %s",
						prof.SchedulerName, p.Name, KubernetesVersion, addedPlugins(), YourPluginsHelp)
				}
			}
		}
	}
	return nil
}

// addedPlugins names the out-of-tree plugins for checkPluginsPresent's message.
func addedPlugins() string {
	names := OutOfTreePlugins()
	if len(names) == 0 {
		return ""
	}
	return " and " + fmt.Sprint(names)
}

// pluginSets are a profile's plugin sets, MultiPoint first.
func pluginSets(p *config.Plugins) []config.PluginSet {
	return []config.PluginSet{p.MultiPoint, p.PreEnqueue, p.QueueSort, p.PreFilter, p.Filter, p.PostFilter,
		p.PreScore, p.Score, p.Reserve, p.Permit, p.PreBind, p.Bind, p.PostBind,
		p.PlacementGenerate, p.PlacementScore, p.PodGroupPostFilter}
}
