// The nodejs language host for the tests' Pulumi CLI (test-only; `npm run pulumi:cli` builds it as
// `pulumi-language-nodejs` beside the CLI, where the engine looks for it first).
//
// Why a stand-in: the Go module of Pulumi's own host
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is not served by the module
// proxy this project can reach. What the engine needs of a language host to run a program is small,
// and this program does exactly what Pulumi's host does for it, step by step
// (sdk/nodejs/cmd/pulumi-language-nodejs/main.go in pulumi/pulumi, v3.259). It is written in Go, as
// Pulumi's is, so that the engine starts it as fast as it starts Pulumi's (a Node.js stand-in took
// about 170 ms to serve, twice per operation; the bench's timings would have carried that).
//
//   - start: flags `-tracing`, `-runtime` (ignored); the first argument is the engine's address;
//     serve the LanguageRuntime service on a free loopback port and print the port on stdout;
//   - `Handshake`: remember the engine's address;
//   - `GetRequiredPlugins` / `GetRequiredPackages`: none (our projects use no provider package; the
//     engine loads the dynamic-provider plugin on the first registration that names it);
//   - `Run` (`Run`, `execRuntime`, `constructArguments`, `constructConfig`): locate
//     `@pulumi/pulumi/cmd/run` from the program directory with node's `require.resolve`, then run
//     `node [nodeargs] <runPath> --monitor … --engine … --organization … --project …
//     --root-directory … --stack … --pwd <program dir> [--dry-run] --parallel N <entry point>
//     <args>` with `PULUMI_CONFIG` (keys as `<namespace>:config:<name>`),
//     `PULUMI_CONFIG_SECRET_KEYS` and `PULUMI_NODEJS_TYPESCRIPT=true` unless the project's runtime
//     options say `typescript: false` (`tsconfig` → `PULUMI_NODEJS_TSCONFIG_PATH`); exit code 32 is
//     a "bail" (the program already printed an actionable message), another non-zero code is
//     "Program exited with non-zero exit code: N";
//   - `Cancel`: interrupt the program (SIGINT);
//   - `GenerateProgram` (what `pulumi import --out` asks for the code of what it imported): parse the
//     PCL files, bind them with the engine's schema loader (`schema.NewLoaderClient`), output-
//     versioned invokes preferred and non-strict when asked, then pkg/v3's `codegen/nodejs`
//     `GenerateProgramWithOptions` — Pulumi's host calls the same functions.
//
// Left out, because no test needs them: the monitor proxy and synchronous-invoke pipes (the runner
// talks to the engine's monitor directly; our programs make no synchronous invokes), tracing, the
// debugger, bun, and the other code generation, packing and dependency-installation methods
// (answered UNIMPLEMENTED). It exits when the engine that started it is gone.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

const (
	version = "3.259.0"
	bail    = 32
)

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	mu      sync.Mutex
	engine  string
	running map[*exec.Cmd]struct{}
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	h.engine = req.GetEngineAddress()
	h.mu.Unlock()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GenerateProgram follows Pulumi's nodejs host (sdk/nodejs/cmd/pulumi-language-nodejs/main.go, v3.259).
func (h *host) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := hclsyntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, errors.New("internal error program was nil")
	}
	files, diags, err := codegen.GenerateProgramWithOptions(program, codegen.ProgramOptions{Runtime: "nodejs"})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)}, nil
}

// locateRun finds `@pulumi/pulumi/cmd/run` as node resolves it from the program's folder.
func locateRun(node, programDir string) (string, error) {
	cmd := exec.Command(node, "-e", "console.log(require.resolve('@pulumi/pulumi/cmd/run'))")
	cmd.Dir = programDir
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("It looks like the Pulumi SDK has not been installed. Have you run pulumi install?")
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(_ context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH: " + err.Error()}, nil
	}
	runPath, err := locateRun(node, info.GetProgramDirectory())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	options := map[string]interface{}{}
	if o := info.GetOptions(); o != nil {
		options = o.AsMap()
	}

	var args []string
	if s, ok := options["nodeargs"].(string); ok {
		args = append(args, strings.Fields(s)...)
	}
	args = append(args, runPath)
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	h.mu.Lock()
	engine := h.engine
	h.mu.Unlock()
	add("monitor", req.GetMonitorAddress())
	add("engine", engine)
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("root-directory", info.GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	add("parallel", fmt.Sprint(req.GetParallel()))
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	config := map[string]string{}
	for k, v := range req.GetConfig() {
		if i := strings.Index(k, ":"); i >= 0 {
			config[k[:i]+":config:"+k[i+1:]] = v
		} else {
			config[k] = v
		}
	}
	configJSON, _ := json.Marshal(config)
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, _ := json.Marshal(secretKeys)
	env := append(os.Environ(), "PULUMI_CONFIG="+string(configJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))
	if ts, ok := options["typescript"].(bool); !ok || ts {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig, ok := options["tsconfig"].(string); ok {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	cmd := exec.Command(node, args...)
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: "Problem executing program (could not run language executor): " + err.Error()}, nil
	}
	h.mu.Lock()
	h.running[cmd] = struct{}{}
	h.mu.Unlock()
	err = cmd.Wait()
	h.mu.Lock()
	delete(h.running, cmd)
	h.mu.Unlock()
	if err == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if exit.ExitCode() == bail {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		code := fmt.Sprint(exit.ExitCode())
		if status, ok := exit.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			code = status.Signal().String()
		}
		return &pulumirpc.RunResponse{Error: "Program exited with non-zero exit code: " + code}, nil
	}
	return &pulumirpc.RunResponse{Error: err.Error()}, nil
}

func (h *host) signal(sig os.Signal) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for cmd := range h.running {
		_ = cmd.Process.Signal(sig)
	}
}

func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.signal(os.Interrupt)
	return &emptypb.Empty{}, nil
}

func main() {
	var engine string
	for _, a := range os.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			engine = a
			break
		}
	}
	h := &host{engine: engine, running: map[*exec.Cmd]struct{}{}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(os.Stderr, "could not start language host RPC server: %v\n", err)
		os.Exit(1)
	}
	server := grpc.NewServer(grpc.MaxRecvMsgSize(400 * 1024 * 1024))
	pulumirpc.RegisterLanguageRuntimeServer(server, h)
	fmt.Println(lis.Addr().(*net.TCPAddr).Port)

	// Pulumi's host health-checks the engine and stops with it; here: stop when the parent is gone.
	parent := os.Getppid()
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				h.signal(os.Kill)
				os.Exit(0)
			}
		}
	}()
	if err := server.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "language host: %v\n", err)
		os.Exit(1)
	}
}
