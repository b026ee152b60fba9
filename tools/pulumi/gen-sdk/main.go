// gen-sdk writes the TypeScript, Python and Go SDKs of a Pulumi package from its schema, with the
// code generators of Pulumi's own pkg/v3 (the module pinned in tools/pulumi/go.mod) — what
// `pulumi package gen-sdk` runs inside each language host (their GeneratePackage methods), called
// directly so that no language host has to be installed. `npm run sdk` runs it (scripts/gen-sdk.js);
// docs/PULUMI-TOOLING.md says how to use it.
//
//	gen-sdk -schema schema.json -out DIR [-version X.Y.Z] [-lang nodejs,python,go]
//
// It writes DIR/nodejs, DIR/python and DIR/go, each emptied first, so that what a schema no longer
// declares disappears. The output is deterministic (the generators print no time or host; files are
// written in sorted order), so a test can regenerate and diff.
//
// Version stamp: a generated SDK registers its resources with its own package version, which the
// engine takes as the provider plugin's version; the schema's `version` (or -version) is stamped into
// every SDK with `respectSchemaVersion` (package.json, pyproject.toml, go's pulumi-plugin.json).
//
// Defaults where the schema's `language` section is silent (a schema may set its own):
//   - nodejs: packageName `@wavix-sync/pulumi-<name>`;
//   - python: packageName `pulumi_<name>`;
//   - go: importBasePath `wavix-sync/sdk/go/<name>`: the generated go.mod (in DIR/go) declares the
//     module one up, `wavix-sync/sdk/go` — a path for a `replace`, not a download.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool names the generator in each file's header, as Pulumi's hosts name themselves.
const tool = "pulumi-language-%s"

// noReferences answers every package reference with an error: our schema refers to no other package.
type noReferences struct{}

func (noReferences) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdk loads no other package", pkg)
}

func (noReferences) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdk loads no other package", d.Name)
}

func (noReferences) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdk loads no other package", pkg)
}

func (noReferences) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdk loads no other package", d.Name)
}

// languageOptions merges our defaults under what the schema says for one language, plus the version stamp.
func languageOptions(spec *schema.PackageSpec, lang string, defaults map[string]any) error {
	options := map[string]any{}
	for k, v := range defaults {
		options[k] = v
	}
	if raw, ok := spec.Language[lang]; ok && len(raw) > 0 {
		var given map[string]any
		if err := json.Unmarshal(raw, &given); err != nil {
			return fmt.Errorf("language.%s: %w", lang, err)
		}
		for k, v := range given {
			options[k] = v
		}
	}
	options["respectSchemaVersion"] = true
	raw, err := json.Marshal(options)
	if err != nil {
		return err
	}
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	spec.Language[lang] = raw
	return nil
}

// bind reads and binds the schema afresh (each generator records its own language data on the package).
func bind(schemaPath, version, lang string) (*schema.Package, error) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if version != "" {
		spec.Version = version
	}
	if spec.Version == "" {
		return nil, fmt.Errorf("%s has no version and none was given (-version): a generated SDK needs one to name its plugin", schemaPath)
	}
	name := spec.Name
	var defaults map[string]any
	switch lang {
	case "nodejs":
		defaults = map[string]any{"packageName": "@wavix-sync/pulumi-" + name}
	case "python":
		defaults = map[string]any{"packageName": "pulumi_" + name}
	case "go":
		defaults = map[string]any{"importBasePath": "wavix-sync/sdk/go/" + name}
	}
	// What `pulumi package gen-sdk` asks of a package meant to be installed from a folder: versions
	// written out (Python's get_version, Go's default options), pulumi-plugin.json filled in, Go's
	// go.mod generated, Python's pyproject.toml.
	if spec.Meta == nil {
		spec.Meta = &schema.MetadataSpec{}
	}
	spec.Meta.SupportPack = true
	if err := languageOptions(&spec, lang, defaults); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}
	return pkg, nil
}

func generate(lang string, pkg *schema.Package) (map[string][]byte, error) {
	name := fmt.Sprintf(tool, lang)
	switch lang {
	case "nodejs":
		return nodejs.GeneratePackage(name, pkg, nil, nil, false, noReferences{})
	case "python":
		return python.GeneratePackage(name, pkg, nil, noReferences{})
	case "go":
		return gogen.GeneratePackage(name, pkg, nil)
	}
	return nil, fmt.Errorf("unknown language %q (nodejs, python, go)", lang)
}

// write replaces DIR with the files, in sorted order.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func run() error {
	schemaPath := flag.String("schema", "", "the package schema (JSON)")
	out := flag.String("out", "", "the folder to write nodejs/, python/ and go/ into")
	version := flag.String("version", "", "the version to stamp (default: the schema's)")
	langs := flag.String("lang", "nodejs,python,go", "the languages to generate")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		return errors.New("usage: gen-sdk -schema schema.json -out DIR [-version X.Y.Z] [-lang nodejs,python,go]")
	}
	for _, lang := range strings.Split(*langs, ",") {
		pkg, err := bind(*schemaPath, *version, lang)
		if err != nil {
			return err
		}
		files, err := generate(lang, pkg)
		if err != nil {
			return fmt.Errorf("%s SDK: %w", lang, err)
		}
		if err := write(filepath.Join(*out, lang), files); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdk: %v\n", err)
		os.Exit(1)
	}
}
