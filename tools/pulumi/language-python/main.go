// The Python language host for the tests' Pulumi CLI (test-only; `npm run pulumi:cli` builds it as
// `pulumi-language-python` beside the CLI, where the engine looks for it first, with Pulumi's own
// `pulumi-language-python-exec` script beside it).
//
// Why a stand-in: the Go module of Pulumi's own host
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3) is not served by the module
// proxy this project can reach. The script that actually runs a program is served: it ships in the
// sdk/v3 module at the pinned version (python/cmd/pulumi-language-python-exec), and
// scripts/pulumi-cli.js copies it beside this host, as Pulumi's installation lays it out. This
// program does for it what Pulumi's host does, step by step
// (sdk/python/cmd/pulumi-language-python/main.go in pulumi/pulumi, v3.259), with the same sdk/v3
// packages where Pulumi's host uses them (python/toolchain for the virtualenv, rpcutil to serve):
//
//   - `main`: flags `-tracing`, `-use-executor`, `-version`; the executor is
//     `pulumi-language-python-exec` beside this executable unless `-use-executor` names one; the
//     first argument is the engine's address, health-checked (rpcutil.Healthcheck) so the host stops
//     with the engine; serve the LanguageRuntime service (rpcutil.ServeWithOptions) and print its port;
//   - `Handshake`: remember the engine's address and health-check it;
//   - `Run`: `parseOptions` (runtime options `virtualenv`, `toolchain`; `typechecker` is refused),
//     `constructArguments` (`--monitor --engine --project --root_directory --stack --pwd --dry_run
//     --parallel --tracing --organization <entry point> <args>`), `constructConfig`
//     (`PULUMI_CONFIG`), `constructConfigSecretKeys` (`PULUMI_CONFIG_SECRET_KEYS`), then
//     `toolchain.ResolveToolchain`, `ValidateVenv` and `Command(exec, args…)`: the project's
//     virtualenv's python runs the executor; the Cancel RPC interrupts it; exit code 32 is a bail (the
//     program already showed the user an actionable message), another non-zero code is "program
//     exited with non-zero exit code: N";
//   - `GetRequiredPlugins` / `GetRequiredPackages`: none — Pulumi's host reads the installed
//     packages' pulumi-plugin.json to install plugins ahead; the engine loads a provider plugin
//     anyway on the first registration that names its package and version (found on PATH or by
//     `plugins.providers[].path`), so the tests lose nothing;
//   - `GetPluginInfo`: the pinned version; `Cancel`: cancels running programs.
//
// Left out, because no test needs them: the debugger, typecheckers, OpenTelemetry, and the
// dependency-installation, plugin-running, code-generation, packing and linking methods
// (answered UNIMPLEMENTED).
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

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

const (
	version = "3.259.0"
	// pythonDefaultExec is the script that runs a program, installed beside the host.
	pythonDefaultExec = "pulumi-language-python-exec"
	// bail: the program already showed the user an actionable message.
	bail = 32
)

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	exec    string
	tracing string

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

// healthcheck stops the host when the engine is gone, as Pulumi's host does.
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

// parseOptions reads the project's runtime options as Pulumi's host does (programs, not plugins).
func parseOptions(root, programDir string, options map[string]any) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{Root: root, ProgramDir: programDir}
	if v, ok := options["virtualenv"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, errors.New("virtualenv option must be a string")
		}
		opts.Virtualenv = s
	}
	if _, ok := options["typechecker"]; ok {
		return opts, errors.New("the typechecker option is not supported by this test host (tools/pulumi/language-python)")
	}
	if v, ok := options["toolchain"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, errors.New("toolchain option must be a string")
		}
		switch s {
		case "pip":
			opts.Toolchain = toolchain.Pip
		case "poetry":
			opts.Toolchain = toolchain.Poetry
		case "uv":
			opts.Toolchain = toolchain.Uv
		default:
			return opts, fmt.Errorf("unsupported toolchain option: %s", s)
		}
	}
	return opts, nil
}

func (h *host) constructArguments(req *pulumirpc.RunRequest) []string {
	var args []string
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.engineAddress())
	add("project", req.GetProject())
	add("root_directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetPwd())
	add("dry_run", strconv.FormatBool(req.GetDryRun()))
	add("parallel", strconv.Itoa(int(req.GetParallel())))
	add("tracing", h.tracing)
	add("organization", req.GetOrganization())
	args = append(args, req.GetInfo().GetEntryPoint())
	return append(args, req.GetArgs()...)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	opts, err := parseOptions(info.GetRootDirectory(), info.GetProgramDirectory(), info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	args := append([]string{h.exec}, h.constructArguments(req)...)
	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration secret keys: %w", err)
	}

	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	// Cancelled by the Cancel RPC or when the request ends.
	runCtx, runCancel := context.WithCancel(h.cancelCtx)
	defer runCancel()
	context.AfterFunc(ctx, runCancel)
	cmd, err := tc.Command(runCtx, args...)
	if err != nil {
		return nil, err
	}
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	if req.GetConfig() != nil {
		env = append(env, "PULUMI_CONFIG="+string(config))
	}
	cmd.Env = append(env, "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))

	if err := cmd.Run(); err != nil {
		_ = os.Stdout.Sync()
		_ = os.Stderr.Sync()
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if status, ok := exitErr.Sys().(syscall.WaitStatus); ok {
				switch status.ExitStatus() {
				case 0:
					err = fmt.Errorf("program exited unexpectedly: %w", exitErr)
				case bail:
					return &pulumirpc.RunResponse{Bail: true}, nil
				default:
					err = fmt.Errorf("program exited with non-zero exit code: %d", status.ExitStatus())
				}
			} else {
				err = fmt.Errorf("program exited unexpectedly: %w", exitErr)
			}
		} else {
			err = fmt.Errorf("problem executing program (could not run language executor): %w", err)
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	showVersion := flag.Bool("version", false, "Print the current plugin version and exit")
	givenExecutor := flag.String("use-executor", "", "Use the given program as the executor")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		return
	}
	executor := *givenExecutor
	if executor == "" {
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintf(os.Stderr, "could not determine current executable: %v\n", err)
			os.Exit(1)
		}
		executor = filepath.Join(filepath.Dir(self), pythonDefaultExec)
		if _, err := os.Stat(executor); err != nil {
			fmt.Fprintf(os.Stderr, "missing executor %s: %v\n", executor, err)
			os.Exit(1)
		}
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
	h := &host{exec: executor, tracing: *tracing, engine: engine, cancelCtx: ctx, cancelFunc: cancel}
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
