package commands

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine"
)

// NewCmdRBAC prints the ClusterRole live mode needs.
func NewCmdRBAC(streams genericiooptions.IOStreams) *cobra.Command {
	var configPath string
	var metrics bool
	var gates featureGatesFlag
	cmd := &cobra.Command{
		Use:   "rbac [--config FILE] [--feature-gates …] [--metrics]",
		Short: "Print the read-only ClusterRole that live and snapshot need",
		Long: "rbac prints a ClusterRole granting get, list and watch on exactly the resources the scheduler reads\n" +
			"(for the given KubeSchedulerConfiguration), plus the PriorityClasses, RuntimeClasses and LimitRanges a\n" +
			"snapshot carries so that its pods are admitted as the cluster admitted them. Bind it to the user or service account that runs schedscope:\n" +
			"  kubectl schedscope rbac | kubectl apply -f -\n" +
			"  kubectl create clusterrolebinding schedscope --clusterrole=schedscope-reader --user=NAME\n" +
			"With --feature-gates, the resources the scheduler reads under those gates (GenericWorkload: pod groups);\n" +
			"with --metrics, also a GET of the API server's /metrics, where live reads the cluster's feature gates.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			silenceKlog()
			cfg, err := engine.LoadConfigFile(configPath)
			if err != nil {
				return err
			}
			role, err := clusterRole(cmd.Context(), &engine.Options{Config: cfg})
			if err != nil {
				return err
			}
			if metrics {
				role.Rules = append(role.Rules, metricsRule)
			}
			out, err := yaml.Marshal(role)
			if err != nil {
				return err
			}
			_, err = streams.Out.Write(out)
			return err
		},
	}
	cmd.Flags().StringVar(&configPath, "config", "", "KubeSchedulerConfiguration file (default: kube-scheduler's default profile)")
	cmd.Flags().BoolVar(&metrics, "metrics", false, "also grant get on the API server's /metrics, where live reads the cluster's feature gates (kubernetes_feature_enabled)")
	gates.addFlag(cmd.Flags())
	return cmd
}

// metricsRule grants what live reads the cluster's feature gates with: a
// GET of /metrics (rbac --metrics).
var metricsRule = rbacv1.PolicyRule{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}

// ClusterRoleName names the ClusterRole rbac prints.
const ClusterRoleName = "schedscope-reader"

func clusterRole(ctx context.Context, opts *engine.Options) (*rbacv1.ClusterRole, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gvrs, err := engine.SnapshotResources(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("listing what the scheduler reads: %w", err)
	}
	byGroup := map[string][]string{}
	var groups []string
	for _, g := range gvrs {
		if _, ok := byGroup[g.Group]; !ok {
			groups = append(groups, g.Group)
		}
		if !slices.Contains(byGroup[g.Group], g.Resource) {
			byGroup[g.Group] = append(byGroup[g.Group], g.Resource)
		}
	}
	slices.Sort(groups)
	role := &rbacv1.ClusterRole{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"},
		ObjectMeta: metav1.ObjectMeta{Name: ClusterRoleName},
	}
	for _, g := range groups {
		res := byGroup[g]
		slices.Sort(res)
		role.Rules = append(role.Rules, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: res, Verbs: []string{"get", "list", "watch"}})
	}
	return role, nil
}
