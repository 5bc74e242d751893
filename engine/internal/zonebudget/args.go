package zonebudget

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The args live in kube-scheduler's configuration group, as every plugin's
// do: a pluginConfig entry of plugin ZoneBudget is decoded as kind
// ZoneBudgetArgs of its apiVersion (kubescheduler.config.k8s.io/v1), then
// defaulted and converted to the internal Args the plugin reads.
var (
	groupVersion    = schema.GroupVersion{Group: "kubescheduler.config.k8s.io", Version: "v1"}
	internalVersion = schema.GroupVersion{Group: "kubescheduler.config.k8s.io", Version: runtime.APIVersionInternal}
)

// Args is what the plugin reads (the internal version).
type Args struct {
	metav1.TypeMeta
	// ZoneLabel is the node label Filter reads.
	ZoneLabel string
	// OverBudget lists the values of ZoneLabel whose nodes Filter rejects.
	OverBudget []string
	// ScoreLabel is the node label whose integer value (0 to 100) Score gives.
	ScoreLabel string
	// WaitAnnotation marks the pods Permit holds for Wait before allowing them.
	WaitAnnotation string
	Wait           time.Duration
}

// ArgsV1 is the args as a configuration file spells them.
type ArgsV1 struct {
	metav1.TypeMeta `json:",inline"`
	ZoneLabel       *string          `json:"zoneLabel,omitempty"`
	OverBudget      []string         `json:"overBudget,omitempty"`
	ScoreLabel      *string          `json:"scoreLabel,omitempty"`
	WaitAnnotation  *string          `json:"waitAnnotation,omitempty"`
	Wait            *metav1.Duration `json:"wait,omitempty"`
}

// The defaults a pluginConfig entry without them gets.
const (
	DefaultZoneLabel      = "topology.kubernetes.io/zone"
	DefaultScoreLabel     = "zonebudget.example.com/score"
	DefaultWaitAnnotation = "zonebudget.example.com/wait"
	DefaultWait           = 200 * time.Millisecond
)

// AddToScheme registers the args' versions, their defaults and conversion
// into scheme (for schedscope: engine.WithPluginArgs(zonebudget.AddToScheme)).
func AddToScheme(scheme *runtime.Scheme) error {
	scheme.AddKnownTypeWithName(groupVersion.WithKind(Name+"Args"), &ArgsV1{})
	scheme.AddKnownTypeWithName(internalVersion.WithKind(Name+"Args"), &Args{})
	scheme.AddTypeDefaultingFunc(&ArgsV1{}, func(obj any) { setDefaults(obj.(*ArgsV1)) })
	if err := scheme.AddConversionFunc((*ArgsV1)(nil), (*Args)(nil), func(a, b any, _ conversion.Scope) error {
		convertToInternal(a.(*ArgsV1), b.(*Args))
		return nil
	}); err != nil {
		return err
	}
	return scheme.AddConversionFunc((*Args)(nil), (*ArgsV1)(nil), func(a, b any, _ conversion.Scope) error {
		convertToV1(a.(*Args), b.(*ArgsV1))
		return nil
	})
}

func setDefaults(a *ArgsV1) {
	if a.ZoneLabel == nil {
		a.ZoneLabel = ptr(DefaultZoneLabel)
	}
	if a.ScoreLabel == nil {
		a.ScoreLabel = ptr(DefaultScoreLabel)
	}
	if a.WaitAnnotation == nil {
		a.WaitAnnotation = ptr(DefaultWaitAnnotation)
	}
	if a.Wait == nil {
		a.Wait = &metav1.Duration{Duration: DefaultWait}
	}
}

func convertToInternal(in *ArgsV1, out *Args) {
	*out = Args{OverBudget: append([]string(nil), in.OverBudget...)}
	out.ZoneLabel = deref(in.ZoneLabel)
	out.ScoreLabel = deref(in.ScoreLabel)
	out.WaitAnnotation = deref(in.WaitAnnotation)
	if in.Wait != nil {
		out.Wait = in.Wait.Duration
	}
}

func convertToV1(in *Args, out *ArgsV1) {
	*out = ArgsV1{OverBudget: append([]string(nil), in.OverBudget...),
		ZoneLabel: ptr(in.ZoneLabel), ScoreLabel: ptr(in.ScoreLabel), WaitAnnotation: ptr(in.WaitAnnotation),
		Wait: &metav1.Duration{Duration: in.Wait}}
}

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// DeepCopyObject implements runtime.Object.
func (a *Args) DeepCopyObject() runtime.Object {
	c := *a
	c.OverBudget = append([]string(nil), a.OverBudget...)
	return &c
}

// DeepCopyObject implements runtime.Object.
func (a *ArgsV1) DeepCopyObject() runtime.Object {
	c := ArgsV1{TypeMeta: a.TypeMeta, OverBudget: append([]string(nil), a.OverBudget...)}
	for _, p := range []struct{ from, to **string }{{&a.ZoneLabel, &c.ZoneLabel}, {&a.ScoreLabel, &c.ScoreLabel}, {&a.WaitAnnotation, &c.WaitAnnotation}} {
		if *p.from != nil {
			*p.to = ptr(**p.from)
		}
	}
	if a.Wait != nil {
		c.Wait = &metav1.Duration{Duration: a.Wait.Duration}
	}
	return &c
}
