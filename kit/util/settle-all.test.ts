import { describe, expect, it } from "vitest";
import { settleAll } from "./settle-all.js";

const after = <T>(ms: number, v: T, fail = false) =>
  new Promise<T>((res, rej) => setTimeout(() => (fail ? rej(v) : res(v)), ms));

describe("settleAll", () => {
  it("resolves with every value in input order", async () => {
    expect(await settleAll([after(20, "a"), after(1, 2)])).toEqual(["a", 2]);
  });

  it("rejects only after the slower jobs have ended, with the first rejection in input order", async () => {
    let slowDone = false;
    const slow = after(60, "slow").then((v) => ((slowDone = true), v));
    const err = await settleAll([after(1, new Error("quick"), true), slow, after(5, new Error("second"), true)]).catch(
      (e: Error) => e,
    );
    expect((err as Error).message).toBe("quick");
    expect(slowDone).toBe(true);
  });
});
