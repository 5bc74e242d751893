package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Access is what the cluster lets a reader read of the resources asked for.
type Access struct {
	// Resources are the resources asked for that the cluster serves and the
	// reader may list, sorted by name.
	Resources []schema.GroupVersionResource
	// Skipped names (resource.group, "." for the core group) the resources
	// asked for that the cluster does not serve, sorted.
	Skipped []string
	// Served is every resource the cluster serves, asked for or not.
	Served map[schema.GroupVersionResource]bool
}

// CheckAccess makes sure every resource of gvrs the cluster serves can be
// listed, and sets aside those it does not serve. A missing permission is an
// error naming each resource and the verbs needed. It sends only reads: a
// discovery, and a list of one object per resource.
func (r *Reader) CheckAccess(ctx context.Context, gvrs []schema.GroupVersionResource) (*Access, error) {
	a := &Access{Served: map[schema.GroupVersionResource]bool{}}
	_, lists, err := r.client.Discovery().ServerGroupsAndResources()
	if err != nil && len(lists) == 0 {
		return nil, fmt.Errorf("cannot reach the cluster's API server: %w", err)
	}
	for _, list := range lists {
		gv, perr := schema.ParseGroupVersion(list.GroupVersion)
		if perr != nil {
			continue
		}
		for _, res := range list.APIResources {
			a.Served[gv.WithResource(res.Name)] = true
		}
	}
	var problems []string
	for _, gvr := range gvrs {
		if !a.Served[gvr] {
			a.Skipped = append(a.Skipped, gvr.Resource+"."+gvr.Group)
			continue
		}
		res := r.client.CoreV1().RESTClient().Get().AbsPath(apiPath(gvr)).Param("limit", "1").Do(ctx)
		if err := res.Error(); err != nil {
			if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
				problems = append(problems, fmt.Sprintf("cannot list %s: %s (schedscope needs get, list and watch on it)", ResourceName(gvr), reasonOf(err)))
				continue
			}
			return nil, fmt.Errorf("listing %s: %w", ResourceName(gvr), err)
		}
		a.Resources = append(a.Resources, gvr)
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, errors.New(strings.Join(problems, "; "))
	}
	SortResources(a.Resources)
	sort.Strings(a.Skipped)
	return a, nil
}

// ResourceName names a resource as kubectl does: resource.group, or the bare
// resource for the core group.
func ResourceName(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource
	}
	return gvr.Resource + "." + gvr.Group
}

// SortResources sorts gvrs by ResourceName.
func SortResources(gvrs []schema.GroupVersionResource) {
	sort.Slice(gvrs, func(i, j int) bool { return ResourceName(gvrs[i]) < ResourceName(gvrs[j]) })
}

func reasonOf(err error) string {
	var st apierrors.APIStatus
	if errors.As(err, &st) && st.Status().Reason != "" {
		return strings.ToLower(string(st.Status().Reason))
	}
	return err.Error()
}

func apiPath(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return "/api/" + gvr.Version + "/" + gvr.Resource
	}
	return "/apis/" + gvr.Group + "/" + gvr.Version + "/" + gvr.Resource
}
