// The engine's floor for the Pulumi bench (bench/pulumi.js, docs/SPEED.md "The floor"): a no-op
// resource provider named `wavix`, on Pulumi's own Go provider helpers (sdk/v3 go/pulumi/provider
// Main), serving the same package schema as pulumi-resource-wavix (schema.json beside the binary)
// and answering every call at once without looking at the values: Check returns the inputs it
// was given, Diff says nothing changed, Read returns the state it was given, Create and Update echo
// their inputs. What a program of N PhoneNumbers costs on this engine with a provider that does no
// work is the floor against which the bench sets our plugin. Test-only: nothing ships it.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

type floor struct {
	pulumirpc.UnimplementedResourceProviderServer
	schema string
	ids    atomic.Int64
}

func (p *floor) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "0.0.1"}, nil
}

func (p *floor) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	return &pulumirpc.GetSchemaResponse{Schema: p.schema}, nil
}

func (p *floor) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (p *floor) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

func (p *floor) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
}

func (p *floor) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (p *floor) Diff(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

func (p *floor) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	return &pulumirpc.CreateResponse{Id: strconv.FormatInt(p.ids.Add(1), 10), Properties: req.GetProperties()}, nil
}

func (p *floor) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: req.GetProperties(), Inputs: req.GetInputs()}, nil
}

func (p *floor) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	return &pulumirpc.UpdateResponse{Properties: req.GetNews()}, nil
}

func (p *floor) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (p *floor) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func main() {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-wavix (floor): %v\n", err)
		os.Exit(1)
	}
	schema, err := os.ReadFile(filepath.Join(filepath.Dir(exe), "schema.json"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-wavix (floor): the schema beside the binary: %v\n", err)
		os.Exit(1)
	}
	err = provider.Main("wavix", func(*provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &floor{schema: string(schema)}, nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-wavix (floor): %v\n", err)
		os.Exit(1)
	}
}
