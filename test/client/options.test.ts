import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_BASE_URL,
  InsecureBaseUrlError,
  MissingApiKeyError,
  WavixClient,
  isLoopbackHost,
  resolveBaseUrl,
  resolveRetryOptions,
} from "../../src/client";

const saved = { key: process.env.WAVIX_API_KEY, url: process.env.WAVIX_BASE_URL };
afterEach(() => {
  for (const [name, value] of [["WAVIX_API_KEY", saved.key], ["WAVIX_BASE_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("base URL", () => {
  it("defaults to https://api.wavix.com, or WAVIX_BASE_URL", () => {
    expect(resolveBaseUrl(undefined, {})).toBe(DEFAULT_BASE_URL);
    expect(resolveBaseUrl(undefined, { WAVIX_BASE_URL: "https://api.example.test/" })).toBe("https://api.example.test");
    expect(resolveBaseUrl("http://127.0.0.1:8080", { WAVIX_BASE_URL: "https://x.test" })).toBe("http://127.0.0.1:8080");
  });

  it("allows plain http only to loopback", () => {
    for (const ok of ["http://127.0.0.1:1", "http://127.5.6.7", "http://localhost:3000", "http://[::1]:9"]) {
      expect(() => resolveBaseUrl(ok, {})).not.toThrow();
    }
    expect(() => resolveBaseUrl("http://api.wavix.com", {})).toThrow(InsecureBaseUrlError);
    expect(() => resolveBaseUrl("http://10.0.0.1", {})).toThrow(/only allowed to a loopback host/);
    expect(() => resolveBaseUrl("ftp://127.0.0.1", {})).toThrow(InsecureBaseUrlError);
    expect(() => resolveBaseUrl("https://user:pw@api.wavix.com", {})).toThrow(/credentials/);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
  });

  it("the client refuses an insecure WAVIX_BASE_URL", () => {
    process.env.WAVIX_BASE_URL = "http://api.wavix.com";
    expect(() => new WavixClient({ apiKey: "k" })).toThrow(InsecureBaseUrlError);
  });
});

describe("api key", () => {
  it("comes from the option or WAVIX_API_KEY, else MissingApiKeyError", () => {
    delete process.env.WAVIX_API_KEY;
    expect(() => new WavixClient({ baseUrl: "http://127.0.0.1:1" })).toThrow(MissingApiKeyError);
    process.env.WAVIX_API_KEY = "from-env";
    expect(() => new WavixClient({ baseUrl: "http://127.0.0.1:1" })).not.toThrow();
  });

  it("is refused with control characters, without echoing it", () => {
    expect(() => new WavixClient({ apiKey: "abc\r\nsecret-part", baseUrl: "http://127.0.0.1:1" })).toThrow(
      /^(?!.*secret-part).*control characters/,
    );
  });

  it("never shows in the client's JSON", () => {
    const client = new WavixClient({ apiKey: "json-secret", baseUrl: "http://127.0.0.1:1" });
    expect(JSON.stringify(client)).not.toContain("json-secret");
    expect(JSON.stringify(client.withApiKey("child-secret"))).not.toContain("child-secret");
  });
});

describe("retry options", () => {
  it("fills defaults and rejects nonsense", () => {
    expect(resolveRetryOptions(undefined)).toMatchObject({
      limit: 4,
      methods: ["GET", "PUT", "DELETE", "PATCH"],
      statusCodes: [429, 500, 502, 503, 504],
      afterStatusCodes: [429],
    });
    expect(resolveRetryOptions({ limit: 1, jitter: undefined }).jitter).toBe(true);
    expect(() => resolveRetryOptions({ limit: -1 })).toThrow(RangeError);
  });
});
