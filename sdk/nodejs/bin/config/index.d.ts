export * from "./vars";
//# sourceMappingURL=index.d.ts.map