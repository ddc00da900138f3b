import { describe, expect, it } from "vitest";
import type { TaskPackage } from "../../gym/types.js";
import { searchSubset } from "./loop.js";

const tasks = ["e", "a", "d", "c", "b"].map((id) => ({ meta: { id } }) as unknown as TaskPackage);
const ids = (ts: readonly TaskPackage[]) => ts.map((t) => t.meta.id);

describe("searchSubset", () => {
  // Hand-ordered: already searched, then normalisable, then the rest; by id within each.
  it.each([
    { n: 3, norm: [], first: [], want: ["a", "b", "c"] },
    { n: 0, norm: [], first: [], want: ["a", "b", "c", "d", "e"] },
    { n: 3, norm: ["e", "c"], first: [], want: ["c", "e", "a"] },
    { n: 2, norm: ["e", "c", "d"], first: [], want: ["c", "d"] },
    { n: 3, norm: ["e", "c"], first: ["b", "a"], want: ["a", "b", "c"] },
    { n: 9, norm: ["d"], first: ["e"], want: ["e", "d", "a", "b", "c"] },
  ])("n $n, normalisable $norm, searched $first → $want", ({ n, norm, first, want }) => {
    expect(ids(searchSubset(tasks, n, new Set(norm), new Set(first)))).toEqual(want);
  });
});
