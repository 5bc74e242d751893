package recorder

// ClusterState is what a fixture run's controllers (engine/controllers)
// leave at its end, as data: where each workload's pods went, each
// disruption budget's status, each volume claim's phase and volume.
// narrate words it; export carries it.
type ClusterState struct {
	Workloads []WorkloadState `json:"workloads"`
	Budgets   []BudgetState   `json:"budgets"`
	Claims    []ClaimState    `json:"claims"`
}

// WorkloadState is one workload and its pods at the end of a run.
type WorkloadState struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Desired is how many pods the workload asks for at once: replicas, a
	// Job's parallelism, the nodes a DaemonSet should run on.
	Desired int32         `json:"desired"`
	Pods    []WorkloadPod `json:"pods"`
}

// A WorkloadPod is one pod of a workload: its node, "" while pending.
type WorkloadPod struct {
	Name string `json:"name"`
	Node string `json:"node,omitempty"`
}

// Pending counts the workload's pods without a node.
func (w WorkloadState) Pending() int {
	n := 0
	for _, p := range w.Pods {
		if p.Node == "" {
			n++
		}
	}
	return n
}

// BudgetState is a PodDisruptionBudget's status at the end of a run, as the
// disruption controller computed it.
type BudgetState struct {
	Namespace          string `json:"namespace"`
	Name               string `json:"name"`
	DisruptionsAllowed int32  `json:"disruptionsAllowed"`
	CurrentHealthy     int32  `json:"currentHealthy"`
	DesiredHealthy     int32  `json:"desiredHealthy"`
	ExpectedPods       int32  `json:"expectedPods"`
	// Error is why the disruption controller could not compute the
	// budget (its DisruptionAllowed condition's SyncFailed message).
	Error string `json:"error,omitempty"`
}

// ClaimState is a PersistentVolumeClaim at the end of a run.
type ClaimState struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Phase     string `json:"phase"`
	// Volume is the PersistentVolume it is bound to.
	Volume       string `json:"volume,omitempty"`
	StorageClass string `json:"storageClass,omitempty"`
	// SelectedNode is the node the scheduler chose for a
	// WaitForFirstConsumer claim.
	SelectedNode string `json:"selectedNode,omitempty"`
}
