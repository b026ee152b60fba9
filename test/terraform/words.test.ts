/**
 * The kinds speak through the face's words (src/kit/provider/words.ts; docs/ARCHITECTURE.md, "The
 * provider kit"): no kind's provider and none of the kit's guards writes a Pulumi word into a
 * message itself, and the messages built with Terraform's words (src/terraform/plugin/server.ts
 * TERRAFORM_WORDS) carry none — while Pulumi's words give the messages Pulumi users always read.
 * The messages as OpenTofu shows them: test/terraform/real-tofu-words.test.ts.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { identityMismatch } from "../../src/kit/provider/checks";
import { OtherAccountError, onDeleteFailures } from "../../src/kit/provider/guards";
import { PULUMI_WORDS } from "../../src/kit/provider/words";
import { TERRAFORM_WORDS } from "../../src/terraform/plugin/server";
import { driftSummary } from "../../src/kit/provider/session";
import { pulumiWordsIn } from "../helpers/real-tofu";

const ROOT = path.resolve(__dirname, "..", "..");
const SOURCES = [
  ...readdirSync(path.join(ROOT, "src", "kinds"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join("src", "kinds", d.name, "provider.ts")),
  "src/kit/provider/guards.ts",
  "src/kit/provider/checks.ts",
];

/** The text of a source without its comments. */
const code = (file: string): string =>
  readFileSync(path.join(ROOT, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");

/** Pulumi's words as a message would hold them (not as a property name in code). */
const PULUMI_PHRASES = [/`pulumi [a-z]/, /wavix:[a-z]/, /onDelete: \\?"/, /this stack\b/, /the stack\b/, /outside Pulumi/, /set passwordVersion/];

describe("messages in the face's words", () => {
  it.each(SOURCES)("%s writes no Pulumi word into a message itself", (file) => {
    const text = code(file);
    expect(PULUMI_PHRASES.filter((re) => re.test(text)).map(String)).toEqual([]);
  });

  it("the kit's refusals say Terraform's words under Terraform, Pulumi's under Pulumi", () => {
    const tf = [
      identityMismatch("SubAccount", "2001", '"A"', '"B"', TERRAFORM_WORDS).message,
      new OtherAccountError("SubAccount \"A\"", "disabled", 1000, 1001, TERRAFORM_WORDS).message,
      onDeleteFailures({ onDelete: "never" }, undefined, TERRAFORM_WORDS)[0].reason,
      driftSummary(TERRAFORM_WORDS.command),
    ];
    for (const m of tf) expect(pulumiWordsIn(m), m).toEqual([]);
    expect(tf[0]).toContain('(base_url in the provider "wavix" block, api_key in the provider "wavix" block), or it changed outside OpenTofu/Terraform');
    expect(tf[0]).toContain("`tofu state rm` the resource (`terraform state rm`) and import it again (`tofu import`, or an `import` block)");
    expect(tf[1]).toContain("recorded when the configuration took it on");
    expect(tf[2]).toBe('on_delete must be "delete" or "retain", got "never"');

    // Pulumi's words give the messages as they always were.
    expect(identityMismatch("SubAccount", "2001", '"A"', '"B"', PULUMI_WORDS).message).toContain(
      "the stack may point at another account or base URL (wavix:baseUrl, wavix:apiKey), or it changed outside Pulumi; refusing to read or write it. Check the stack's config; if the change is intended, `pulumi state delete` the resource and run `pulumi up` to adopt it again",
    );
    expect(new OtherAccountError("SubAccount \"A\"", "disabled", 1000, 1001).message).toContain("but the stack's API key (wavix:apiKey) now belongs to account 1001");
    expect(onDeleteFailures({ onDelete: "never" })[0].reason).toBe('onDelete must be "delete" or "retain", got "never"');
  });
});
