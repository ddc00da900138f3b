import { describe, expect, it } from "vitest";
import { backoffDelayMs, parseRetryAfterMs, retryDelayMs } from "./backoff.js";
import { callCostUsd } from "./cost.js";
import { resolveApiKey } from "./llm-config.js";

const s = { retryBaseDelayMs: 500, retryMaxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

describe("backoffDelayMs: d = min(max, base·2^k); delay = d/2 + u·d/2", () => {
  it.each([
    // [retry k, u, expected]: hand-computed
    [0, 0, 250], // d = 500
    [0, 0.5, 375],
    [1, 0, 500], // d = 1000
    [2, 0.999, 1999], // d = 2000 → 1000 + 0.999·1000
    [6, 0, 15_000], // 500·64 = 32000 → capped at 30000
    [10, 1, 30_000],
  ])("k=%i u=%f → %f ms", (k, u, expected) => {
    expect(backoffDelayMs(k, s, u)).toBeCloseTo(expected, 6);
  });
});

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    ["seconds", "3", null, 3000],
    ["fractional seconds", "0.25", null, 250],
    ["retry-after-ms wins", "3", "120", 120],
    ["HTTP date", "Thu, 01 Jan 2026 00:00:10 GMT", null, 10_000],
    ["date in the past", "Wed, 31 Dec 2025 23:59:00 GMT", null, 0],
    ["absent", null, null, null],
    ["garbage", "soon", null, null],
    ["negative", "-1", null, null],
  ])("%s", (_name, ra, ram, expected) => {
    expect(parseRetryAfterMs(ra, ram, now)).toBe(expected);
  });
});

describe("retryDelayMs", () => {
  it("uses Retry-After when the server gave one, capped", () => {
    expect(retryDelayMs(3, 2000, s, 0.9)).toBe(2000);
    expect(retryDelayMs(0, 500_000, s, 0)).toBe(120_000);
  });
  it("falls back to backoff without Retry-After", () => {
    expect(retryDelayMs(1, null, s, 0)).toBe(500);
  });
});

describe("callCostUsd", () => {
  it.each([
    [1_000_000, 0, 2, 8, 2],
    [0, 1_000_000, 2, 8, 8],
    [1500, 500, 2, 8, 0.003 + 0.004],
    [1500, 500, 0, 0, 0],
  ])("%i prompt + %i completion tokens at $%f/$%f per M → $%f", (p, c, pp, cp, expected) => {
    expect(callCostUsd(p, c, { promptPricePerMTok: pp, completionPricePerMTok: cp })).toBeCloseTo(expected, 12);
  });
});

describe("resolveApiKey", () => {
  it.each([
    ["explicit key wins", { apiKey: "k1", apiKeyEnv: "X" }, { X: "k2" }, "k1"],
    ["env var", { apiKey: "", apiKeyEnv: "X" }, { X: "k2" }, "k2"],
    ["EMPTY for local servers", { apiKey: "", apiKeyEnv: "X" }, {}, "EMPTY"],
  ])("%s", (_n, cfg, env, expected) => {
    expect(resolveApiKey(cfg, env)).toBe(expected);
  });
});
