package narrate

import (
	"fmt"
	"math"
	"strings"
)

// maxNodeScore is the framework's highest score (framework.MaxNodeScore).
const maxNodeScore = 100

// scoredResources are the resources NodeResourcesFit and
// NodeResourcesBalancedAllocation score by default, each of weight 1.
var scoredResources = []string{"cpu", "memory"}

// Arithmetic is how a plugin's raw score on a node comes from what the
// cycle recorded: Lines word the computation; Matches says it gives the
// recorded raw score. When it does not, the profile scores otherwise (a
// strategy, resources or weights of its own): Lines then give the inputs
// only.
type Arithmetic struct {
	Lines   []string
	Matches bool
}

// ScoreInputs are what a cycle recorded of a node and its pod that a
// resource plugin scores: the node's allocatable, what is placed on it
// (NodeUse.Requested, and NodeUse.NonZero when it differs) and the pod's
// requests (Cycle.Requests, and Cycle.NonZeroRequests when they differ).
type ScoreInputs struct {
	Allocatable, Requested, NonZeroRequested map[string]int64
	Pod, NonZeroPod                          map[string]int64
}

// ScoreArithmetic works out plugin's raw score on a node, by the default
// scoring of NodeResourcesFit (LeastAllocated) and
// NodeResourcesBalancedAllocation over cpu and memory (BalancedAllocation
// as kube-scheduler 1.37 scores it: how the pod changes the node's balance
// between the two). NodeResourcesFit counts a container without a cpu or
// memory request at the scheduler's defaults, 100m and 200Mi, on the node
// and in the pod; BalancedAllocation counts requests as they are. ok is
// false for another plugin, or when an input is missing.
func ScoreArithmetic(plugin string, in ScoreInputs, raw int64) (Arithmetic, bool) {
	allocatable, requested, pod := in.Allocatable, in.Requested, in.Pod
	if allocatable == nil || pod == nil {
		return Arithmetic{}, false
	}
	defaulted := false
	if plugin == "NodeResourcesFit" {
		if in.NonZeroRequested != nil {
			requested, defaulted = in.NonZeroRequested, true
		}
		if in.NonZeroPod != nil {
			pod, defaulted = in.NonZeroPod, true
		}
	}
	type res struct {
		name              string
		alloc, used, want int64
	}
	var rs []res
	for _, r := range scoredResources {
		rs = append(rs, res{r, allocatable[r], requested[r], pod[r]})
	}
	qty := func(r string, v int64) string { return Quantity(r, v) }
	var a Arithmetic
	switch plugin {
	case "NodeResourcesFit":
		var parts []string
		var sum int64
		for _, r := range rs {
			total := r.used + r.want
			s := int64(0)
			if r.alloc > 0 && total <= r.alloc {
				s = (r.alloc - total) * maxNodeScore / r.alloc
			}
			sum += s
			parts = append(parts, fmt.Sprintf("%s (%s − %s − %s)×100/%s = %d", r.name, qty(r.name, r.alloc), qty(r.name, r.used), qty(r.name, r.want), qty(r.name, r.alloc), s))
		}
		got := sum / int64(len(rs))
		a.Matches = got == raw
		a.Lines = []string{"LeastAllocated, free share after this pod: " + strings.Join(parts, ", "),
			fmt.Sprintf("mean of %d = %d", len(rs), got)}
		if defaulted {
			a.Lines = append(a.Lines, "a container without a cpu or memory request is counted at the scheduler's defaults, 100m and 200Mi")
		}
	case "NodeResourcesBalancedAllocation":
		// kube-scheduler 1.37 scores how the pod changes the node's
		// balance: the balance after it against the balance before.
		balance := func(with bool) (int64, string) {
			var fr []float64
			var parts []string
			for _, r := range rs {
				if r.alloc == 0 {
					continue
				}
				used, text := r.used, qty(r.name, r.used)
				if with {
					used += r.want
					text += " + " + qty(r.name, r.want)
				}
				f := math.Min(float64(used)/float64(r.alloc), 1)
				fr = append(fr, f)
				parts = append(parts, fmt.Sprintf("%s (%s)/%s = %.2f", r.name, text, qty(r.name, r.alloc), f))
			}
			std := 0.0
			if len(fr) == 2 {
				std = math.Abs(fr[0]-fr[1]) / 2
			}
			b := int64((1 - std) * maxNodeScore)
			return b, strings.Join(parts, ", ") + fmt.Sprintf(": balance %d", b)
		}
		after, afterText := balance(true)
		before, beforeText := balance(false)
		got := maxNodeScore/2 + (maxNodeScore/2+after-before)/2
		a.Matches = got == raw
		a.Lines = []string{"used share after this pod: " + afterText, "before it: " + beforeText,
			fmt.Sprintf("50 + (50 + %d − %d)/2 = %d: 75 leaves the balance as it was; toward 100 the pod evens the node out, toward 50 it tips it", after, before, got)}
	default:
		return Arithmetic{}, false
	}
	if !a.Matches {
		a.Lines = append(a.Lines, fmt.Sprintf("not the recorded %d: the profile scores otherwise (its own strategy, resources or weights)", raw))
	}
	return a, true
}

// Quantity spells an amount of resource r as allocatable lists it: cpu in
// cores or millicores, memory and ephemeral storage in binary units,
// others as counts; below zero (an overcommitted node's free) with a
// minus sign.
func Quantity(r string, v int64) string {
	if v < 0 {
		return "−" + Quantity(r, -v)
	}
	switch r {
	case "cpu":
		if v%1000 == 0 {
			return fmt.Sprintf("%d", v/1000)
		}
		return fmt.Sprintf("%dm", v)
	case "memory", "ephemeral-storage":
		const gi, mi = 1 << 30, 1 << 20
		switch {
		case v == 0:
			return "0"
		case v >= gi && v%gi == 0:
			return fmt.Sprintf("%dGi", v/gi)
		case v >= gi:
			return fmt.Sprintf("%.1fGi", float64(v)/gi)
		case v >= mi:
			return fmt.Sprintf("%dMi", v/mi)
		case v >= 1<<10:
			return fmt.Sprintf("%dKi", v/(1<<10))
		}
	}
	return fmt.Sprintf("%d", v)
}
