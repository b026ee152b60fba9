// Preloaded (`node --require`) by the Node processes the Pulumi harness starts itself: the
// dynamic-provider host (test/helpers/pulumi-host.ts `startPulumiHost`) and the capture
// (test/helpers/pulumi-capture.js). Not by anything the real engine starts.
//
// `@pulumi/pulumi` loads two large packages on its first require whether or not they are used:
// `typescript` (its closure serializer parses function text with it) and `@npmcli/arborist` (its
// code-path computation for function serialization reads the package tree with it): some 0.5 of
// the 0.75 CPU-s a host takes to start on this project's machine (docs/SPEED.md, "The test
// suite's time"). The dynamic-provider host never serializes a function, so it never uses
// either. Here a require of either from inside `@pulumi/pulumi` returns a stand-in that loads the
// real module at its first use (a property read, `in`, its keys), and forwards everything
// to it from then on: what the SDK does is unchanged, only when the module is loaded moves. A
// capture serializes the provider, so there `typescript` loads at the first serialization.
"use strict";
const Module = require("node:module");

const LAZY = new Set(["typescript", "@npmcli/arborist"]);
const PULUMI_SDK = /[\\/]node_modules[\\/]@pulumi[\\/]pulumi[\\/]/;
const load = Module._load;

Module._load = function lazyLoad(request, parent, isMain) {
  if (!LAZY.has(request) || !parent || !PULUMI_SDK.test(parent.filename ?? "")) return load.apply(this, arguments);
  let real;
  const get = () => (real ??= load.call(Module, request, parent, isMain));
  // Both modules are plain objects (namespaces), so the stand-in is one.
  return new Proxy({}, {
    // tsc's `__importStar` keeps a module marked `__esModule` as it is instead of copying its
    // keys (which would load it at once); the real module answers every other property.
    get: (_t, key) => (key === "__esModule" ? true : Reflect.get(get(), key)),
    has: (_t, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), key);
      if (d) d.configurable = true;
      return d;
    },
  });
};
