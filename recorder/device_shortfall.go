package recorder

// PluginDynamicResources is the filter whose rejections say a node cannot
// allocate a pod's ResourceClaims ("cannot allocate all claims").
const PluginDynamicResources = "DynamicResources"

// A DeviceShortfall is one request of one of a cycle's pod's ResourceClaims
// that a node DynamicResources rejected had too few devices for: the
// devices the request asks for against the devices of its DeviceClass (and
// its own selectors) the node's ResourceSlices publish and those already
// allocated to claims, as the cluster held them when the pod failed.
type DeviceShortfall struct {
	// Claim is the claim (namespace/name), Request its request's name.
	Claim   string `json:"claim"`
	Request string `json:"request"`
	Class   string `json:"class"`
	Asked   int64  `json:"asked"`
	// Published counts the devices that match on the node; Allocated those
	// of them allocated to claims already.
	Published int64 `json:"published"`
	Allocated int64 `json:"allocated"`
}

// Free is how many matching devices the node had unallocated.
func (d DeviceShortfall) Free() int64 { return d.Published - d.Allocated }

// Short is by how many devices the request exceeds what was free.
func (d DeviceShortfall) Short() int64 { return d.Asked - d.Free() }
