/** Where the committed package schema lives, relative to the package root (src/pulumi/plugin/schema.ts writes it). */
export const SCHEMA_FILE = "schemas/pulumi/schema.json";
