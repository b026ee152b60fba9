// The Go language host for the tests' Pulumi CLI (test-only; `npm run pulumi:cli` builds it as
// `pulumi-language-go` beside the CLI, where the engine looks for it first).
//
// Why a stand-in: the Go module of Pulumi's own host
// (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3) is not served by the module proxy this
// project can reach. This program does what Pulumi's host does to run a program, step by step
// (sdk/go/pulumi-language-go/main.go in pulumi/pulumi, v3.259), with the same sdk/v3 packages
// where Pulumi's host uses them (rpcutil to serve and health-check, the SDK's environment names):
//
//   - `main`, `mainCmd.Run`: flags `-tracing`, `-version`; the first argument is the engine's
//     address, health-checked so the host stops with the engine; serve the LanguageRuntime service
//     and print its port;
//   - `Handshake`: remember the engine's address and health-check it;
//   - `Run`: `parseOptions` (runtime options `binary`, `buildTarget`), `constructEnv`
//     (PULUMI_ORGANIZATION, PULUMI_PROJECT, PULUMI_ROOT_DIRECTORY, PULUMI_STACK, PULUMI_CONFIG,
//     PULUMI_CONFIG_SECRET_KEYS, PULUMI_DRY_RUN, PULUMI_PARALLEL, PULUMI_MONITOR, PULUMI_ENGINE);
//     with `binary` the named executable runs; else `compileProgram`: `go build -buildvcs=false -o
//     <temp file> -trimpath -ldflags "-w -s"` in the program directory (the engine is told
//     "Compiling the program ..." and "Finished compiling"), then `runProgram` runs the binary in
//     the request's pwd; the Cancel RPC interrupts it; the SDK's "logged error" exit code is a bail,
//     another non-zero code "program exited with non-zero exit code: N"; the temp binary is removed;
//   - `GetRequiredPlugins` / `GetRequiredPackages`: none — Pulumi's host reads the program's modules'
//     pulumi-plugin.json to install plugins ahead; the engine loads a provider plugin anyway on the
//     first registration that names its package and version (found on PATH or by
//     `plugins.providers[].path`), so the tests lose nothing;
//   - `GetPluginInfo`: the pinned version; `Cancel`: cancels running programs.
//
// Left out, because no test needs them: the debugger, `PULUMI_GO_USE_RUN`, OpenTelemetry, and the
// dependency-installation, plugin-running, code-generation, packing and linking methods (answered
// UNIMPLEMENTED). The program's `go build` inherits the environment: the tests set
// GOFLAGS=-mod=mod so that a program's go.sum is completed from the module cache.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
)

const version = "3.259.0"

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu         sync.Mutex
	engine     string
	cancelCtx  context.Context
	cancelFunc context.CancelFunc
}

func (h *host) engineAddress() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engine
}

func healthcheck(engine string) (chan bool, error) {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		cancel()
		close(cancelChannel)
	}()
	if engine != "" {
		if err := rpcutil.Healthcheck(ctx, engine, 5*time.Minute, cancel); err != nil {
			return nil, fmt.Errorf("could not start health check host RPC server: %w", err)
		}
	}
	return cancelChannel, nil
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req == nil || req.GetEngineAddress() == "" {
		return nil, errors.New("Must contain address in request")
	}
	h.mu.Lock()
	h.engine = req.GetEngineAddress()
	h.mu.Unlock()
	if _, err := healthcheck(req.GetEngineAddress()); err != nil {
		return nil, err
	}
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

func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancelFunc()
	return &emptypb.Empty{}, nil
}

// log tells the engine a passing (ephemeral) message, as Pulumi's host does while compiling.
func (h *host) log(ctx context.Context, message string) {
	conn, err := grpc.NewClient(h.engineAddress(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return
	}
	defer conn.Close()
	_, _ = pulumirpc.NewEngineClient(conn).Log(ctx, &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_INFO, Message: message, Ephemeral: true})
}

type goOptions struct {
	binary      string
	buildTarget string
}

func parseOptions(options map[string]any) (goOptions, error) {
	var o goOptions
	if v, ok := options["binary"]; ok {
		s, ok := v.(string)
		if !ok {
			return o, errors.New("binary option must be a string")
		}
		o.binary = s
	}
	if v, ok := options["buildTarget"]; ok {
		s, ok := v.(string)
		if !ok {
			return o, errors.New("buildTarget option must be a string")
		}
		o.buildTarget = s
	}
	if o.binary != "" && o.buildTarget != "" {
		return o, errors.New("binary and buildTarget cannot both be specified")
	}
	return o, nil
}

func (h *host) constructEnv(req *pulumirpc.RunRequest) ([]string, error) {
	env := os.Environ()
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	if req.GetConfig() != nil {
		config, err := json.Marshal(req.GetConfig())
		if err != nil {
			return nil, err
		}
		add(pulumi.EnvConfig, string(config))
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	add(pulumi.EnvOrganization, req.GetOrganization())
	add(pulumi.EnvProject, req.GetProject())
	add(pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory())
	add(pulumi.EnvStack, req.GetStack())
	add(pulumi.EnvConfigSecretKeys, string(secretJSON))
	add(pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun()))
	add(pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel())))
	add(pulumi.EnvMonitor, req.GetMonitorAddress())
	add(pulumi.EnvEngine, h.engineAddress())
	return env, nil
}

// compileProgram builds the program as Pulumi's host does; returns the binary's path.
func (h *host) compileProgram(ctx context.Context, dir, outfile string) (string, error) {
	h.log(ctx, "Compiling the program ...")
	if matches, err := filepath.Glob(filepath.Join(dir, "*.go")); err != nil || len(matches) == 0 {
		return "", fmt.Errorf("Failed to find go files for 'go build' matching %s", filepath.Join(dir, "*.go"))
	}
	if outfile == "" {
		f, err := os.CreateTemp("", "pulumi-go.*")
		if err != nil {
			return "", fmt.Errorf("unable to create go program temp file: %w", err)
		}
		if err := f.Close(); err != nil {
			return "", fmt.Errorf("unable to close go program temp file: %w", err)
		}
		outfile = f.Name()
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("unable to find 'go' executable: %w", err)
	}
	build := exec.Command(gobin, "build", "-buildvcs=false", "-o", outfile, "-trimpath", "-ldflags", "-w -s")
	build.Dir = dir
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("error in compiling Go: unable to run `go build`: %w", err)
	}
	h.log(ctx, "Finished compiling")
	return outfile, nil
}

func (h *host) runProgram(ctx context.Context, pwd, bin string, env []string) *pulumirpc.RunResponse {
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = pwd
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("command errored unexpectedly: %v", err)}
	}
	status, ok := exitErr.Sys().(syscall.WaitStatus)
	if !ok {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited unexpectedly: %v", err)}
	}
	if status.ExitStatus() == constant.ExitStatusLoggedError {
		return &pulumirpc.RunResponse{Bail: true}
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", status.ExitStatus())}
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if h.engineAddress() == "" {
		return nil, errors.New("when debugging or running explicitly, must call Handshake before Run")
	}
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	env, err := h.constructEnv(req)
	if err != nil {
		return nil, fmt.Errorf("failed to prepare environment: %w", err)
	}
	runCtx, runCancel := context.WithCancel(h.cancelCtx)
	defer runCancel()
	context.AfterFunc(ctx, runCancel)
	if opts.binary != "" {
		bin, err := exec.LookPath(opts.binary)
		if err != nil {
			return nil, fmt.Errorf("unable to find '%s' executable: %w", opts.binary, err)
		}
		return h.runProgram(runCtx, req.GetPwd(), bin, env), nil
	}
	program, err := h.compileProgram(ctx, req.GetInfo().GetProgramDirectory(), opts.buildTarget)
	if err != nil {
		return nil, err
	}
	if opts.buildTarget == "" {
		defer os.Remove(program)
	}
	return h.runProgram(runCtx, req.GetPwd(), program, env), nil
}

func main() {
	flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	showVersion := flag.Bool("version", false, "Print the current plugin version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		return
	}
	var engine string
	if args := flag.Args(); len(args) > 0 {
		engine = args[0]
	}
	cancelChannel, err := healthcheck(engine)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &host{engine: engine, cancelCtx: ctx, cancelFunc: cancel}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "could not start language host RPC server: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "language host RPC stopped serving: %v\n", err)
		os.Exit(1)
	}
}
