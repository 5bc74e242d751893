// Package e2e runs schedscope's live mode against a real kube-apiserver and
// etcd, started by the tests on 127.0.0.1, next to the real kube-scheduler.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apiserver/pkg/storage/etcd3/testserver"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/component-base/configz"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	schedapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/schedscope/schedscope/engine/cluster"
)

// Tokens the API server accepts (--token-auth-file).
const (
	schedscopeToken = "schedscope-token"
	schedscopeUser  = "schedscope"
	nobodyToken     = "nobody-token"
	nobodyUser      = "nobody"
)

// controlPlane is etcd and kube-apiserver running in this process.
type controlPlane struct {
	admin    *rest.Config
	client   kubernetes.Interface
	auditLog string
	dir      string
	// sched is the real kube-scheduler, once startScheduler started it.
	sched *scheduler.Scheduler
}

// startControlPlane starts etcd and kube-apiserver. Admission plugins that need
// controllers this test does not run are off: TaintNodesByCondition would keep
// new nodes tainted not-ready, and ServiceAccount would reject pods until a
// default service account exists. Authorization is RBAC, so schedscope runs
// with exactly the ClusterRole it documents. extra are more kube-apiserver
// flags (--runtime-config, --feature-gates).
func startControlPlane(t testing.TB, extra ...string) *controlPlane {
	t.Helper()
	dir := t.TempDir()
	etcdCfg := testserver.NewTestConfig(t)
	testserver.RunEtcd(t, etcdCfg)
	storage := storagebackend.NewDefaultConfig("/schedscope-e2e/registry", nil)
	storage.Transport.ServerList = []string{etcdCfg.ListenClientUrls[0].String()}

	tokens := filepath.Join(dir, "tokens.csv")
	write(t, tokens, fmt.Sprintf("%s,%s,100\n%s,%s,101\n", schedscopeToken, schedscopeUser, nobodyToken, nobodyUser))
	policy := filepath.Join(dir, "audit-policy.yaml")
	write(t, policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  omitStages: [RequestReceived]\n")
	auditLog := filepath.Join(dir, "audit.log")

	flags := []string{
		"--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + tokens,
		"--audit-policy-file=" + policy,
		"--audit-log-path=" + auditLog,
		"--audit-log-mode=blocking",
	}
	flags = append(flags, extra...)
	server, err := kubeapiservertesting.StartTestServer(t, &kubeapiservertesting.TestServerInstanceOptions{DisableInvariantChecks: true}, flags, storage)
	if err != nil {
		t.Fatalf("the control plane did not start: %v", err)
	}
	t.Cleanup(server.TearDownFn)
	client, err := kubernetes.NewForConfig(server.ClientConfig)
	if err != nil {
		t.Fatal(err)
	}
	return &controlPlane{admin: server.ClientConfig, client: client, auditLog: auditLog, dir: dir}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// userConfig is a REST config for a token user, optionally through another
// host (a proxy in front of the API server).
func (cp *controlPlane) userConfig(token, host string) *rest.Config {
	cfg := rest.AnonymousClientConfig(cp.admin)
	cfg.BearerToken = token
	if host != "" {
		cfg.Host = host
	}
	return cfg
}

// reader is a read-only connection for a token user, optionally through
// another host; name names the cluster.
func (cp *controlPlane) reader(t testing.TB, token, host, name string) *cluster.Reader {
	t.Helper()
	r, err := cluster.New(cp.userConfig(token, host), name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// kubeconfig writes a kubeconfig file for cfg and returns its path.
func (cp *controlPlane) kubeconfig(t testing.TB, name string, cfg *rest.Config) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["e2e"] = &clientcmdapi.Cluster{Server: "https://" + strings.TrimPrefix(cfg.Host, "https://"),
		CertificateAuthorityData: cfg.TLSClientConfig.CAData, TLSServerName: cfg.TLSClientConfig.ServerName}
	kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: cfg.BearerToken}
	kc.Contexts[name] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: name, Namespace: "default"}
	kc.CurrentContext = name
	path := filepath.Join(cp.dir, name+".kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// startScheduler runs the real kube-scheduler in this process against the
// control plane until the test ends, built from its own options and flags and
// started through app.Setup and app.Run, as the kube-scheduler command does.
// (The command itself installs a process-wide signal handler, once only.)
func (cp *controlPlane) startScheduler(t testing.TB, ctx context.Context, flags ...string) {
	t.Helper()
	cp.startSchedulerWith(t, ctx, nil, flags...)
}

// startSchedulerWith is startScheduler for a kube-scheduler built with
// out-of-tree plugins, as a main.go passes app.WithPlugin options to
// app.NewSchedulerCommand (which hands them to app.Setup).
func (cp *controlPlane) startSchedulerWith(t testing.TB, ctx context.Context, plugins []schedapp.Option, flags ...string) {
	t.Helper()
	kc := cp.kubeconfig(t, "scheduler", cp.admin)
	opts := options.NewOptions()
	fs := pflag.NewFlagSet("kube-scheduler", pflag.ContinueOnError)
	for _, f := range opts.Flags.FlagSets {
		fs.AddFlagSet(f)
	}
	args := []string{"--kubeconfig=" + kc, "--leader-elect=false", "--secure-port=0", "--authentication-skip-lookup=true"}
	if err := fs.Parse(append(args, flags...)); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	cc, sched, err := schedapp.Setup(sctx, opts, plugins...)
	if err != nil {
		cancel()
		t.Fatalf("kube-scheduler did not start: %v", err)
	}
	cp.sched = sched
	done := make(chan error, 1)
	go func() { done <- schedapp.Run(sctx, cc, sched) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Errorf("kube-scheduler did not stop")
		}
		configz.Delete("componentconfig")
	})
}

// auditEvent is the part of an audit event the tests read.
type auditEvent struct {
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
}

// requestsBy reads the audit log and returns user's requests.
func (cp *controlPlane) requestsBy(t testing.TB, user string) []auditEvent {
	t.Helper()
	f, err := os.Open(cp.auditLog)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	defer f.Close()
	var out []auditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev auditEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue
		}
		if ev.User.Username == user {
			out = append(out, ev)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading audit log: %v", err)
	}
	return out
}

// proxy forwards TCP connections to an address and can cut them all and
// refuse new ones, to take the API server away from a client and give it back.
type proxy struct {
	target string
	ln     net.Listener
	addr   string

	mu    sync.Mutex
	conns []net.Conn
	up    bool
}

func startProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: target, ln: ln, addr: ln.Addr().String(), up: true}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.cut() })
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		up := p.up
		if up {
			p.conns = append(p.conns, c)
		}
		p.mu.Unlock()
		if !up {
			c.Close()
			continue
		}
		go func() {
			s, err := net.DialTimeout("tcp", p.target, 5*time.Second)
			if err != nil {
				c.Close()
				return
			}
			p.mu.Lock()
			p.conns = append(p.conns, s)
			p.mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			io.Copy(c, s)
			c.Close()
		}()
	}
}

// cut closes every connection and refuses new ones until restore.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = false
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *proxy) restore() {
	p.mu.Lock()
	p.up = true
	p.mu.Unlock()
}
