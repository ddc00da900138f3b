// The kit's JSON bounds (issue 59): depth counted on text without parsing, on parsed values iteratively, and
// canonicalJson refusing what it cannot walk. Table-driven, with hand-counted depths.
import { describe, expect, it } from "vitest";
import {
  checkJsonDepth, checkJsonText, JsonBoundsError, jsonTextDepth, MAX_JSON_DEPTH, parseBoundedJson, utf8BytesOver,
} from "./bounded-json.js";
import { canonicalJson, configHash } from "./hash.js";

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const nestedValue = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe("JSON depth", () => {
  it.each([
    ["a number", "1", 0],
    ["an empty array", "[]", 1],
    ["an object of an array", '{"a":[1,2]}', 2],
    ["brackets inside a string do not count", '{"a":"[[[{{{"}', 1],
    ["an escaped quote does not end the string", '["\\"[[[", [1]]', 2],
    ["an escaped backslash before the closing quote", '["\\\\", [[1]]]', 3],
    ["siblings are not nested", "[[1],[2],[3]]", 2],
    ["20,000 deep", nested(20_000), 20_000],
  ])("of %s", (_, text, depth) => {
    expect(jsonTextDepth(text)).toBe(depth);
    expect(() => JSON.parse(text)).not.toThrow(); // valid JSON (V8 parses any depth; walking it is what overflows)
  });

  it("stops counting past the limit it is given", () => {
    expect(jsonTextDepth(nested(20_000), 64)).toBe(65);
  });

  it.each([
    ["64 levels pass", nested(MAX_JSON_DEPTH), null],
    ["65 levels are refused, naming the input and the limit", nested(65), /^the file x nests JSON more than 64 levels deep/],
    ["20,000 levels are refused the same way", nested(20_000), /more than 64 levels deep/],
    ["17 bytes over a 16-byte limit are refused", '"0123456789abcde"', /^the file x is 17 bytes of JSON, past the kit's limit of 16 bytes/],
  ])("in text: %s", (_, text, error) => {
    const run = () => checkJsonText(text, "the file x", { maxBytes: text.length > 16 && text.length < 20 ? 16 : undefined });
    if (!error) return expect(run).not.toThrow();
    const e = (() => { try { run(); } catch (err) { return err as JsonBoundsError; } })();
    expect(e).toBeInstanceOf(JsonBoundsError);
    expect([e!.message.includes("\n"), e!.input]).toEqual([false, "the file x"]);
    expect(e!.message).toMatch(error);
  });

  it("counts UTF-8 bytes, not characters", () => {
    expect(utf8BytesOver("é".repeat(10), 15)).toBe(20);
    expect(utf8BytesOver("é".repeat(7), 15)).toBeNull();
    expect(() => parseBoundedJson(`"${"€".repeat(6)}"`, "x", { maxBytes: 19 })).toThrow(/20 bytes/);
  });

  it("of parsed values is checked without recursion, any depth", () => {
    expect(() => checkJsonDepth(nestedValue(MAX_JSON_DEPTH), "v")).not.toThrow();
    expect(() => checkJsonDepth(nestedValue(65), "v")).toThrow(JsonBoundsError);
    expect(() => checkJsonDepth(JSON.parse(nested(100_000)), "v")).toThrow(/v nests JSON more than 64/);
  });

  it("bounds canonicalJson and configHash: a typed error where the stack would overflow", () => {
    expect(canonicalJson(nestedValue(MAX_JSON_DEPTH))).toContain('{"a":[');
    for (const depth of [65, 10_000]) {
      const deep = nestedValue(depth);
      expect(() => canonicalJson(deep)).toThrow(JsonBoundsError);
      expect(() => configHash({ steps: 1, extra: deep })).toThrow(JsonBoundsError);
    }
  });
});
