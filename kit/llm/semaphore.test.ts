import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.js";

describe("Semaphore", () => {
  it("admits `limit` holders, then serves waiters first come first served", async () => {
    const sem = new Semaphore(2);
    const order: string[] = [];
    const a = await sem.acquire();
    const b = await sem.acquire();
    const c = sem.acquire().then((r) => (order.push("c"), r));
    const d = sem.acquire().then((r) => (order.push("d"), r));
    expect([sem.inUse, sem.waiting]).toEqual([2, 2]);
    a();
    a(); // releasing twice is a no-op
    const rc = await c;
    expect([sem.inUse, sem.waiting, order]).toEqual([2, 1, ["c"]]);
    b();
    (await d)();
    rc();
    expect([sem.inUse, sem.waiting, order]).toEqual([0, 0, ["c", "d"]]);
  });

  it("releases its slot when the task throws", async () => {
    const sem = new Semaphore(1);
    await expect(sem.run(async () => { throw new Error("x"); })).rejects.toThrow("x");
    expect(sem.inUse).toBe(0);
  });

  it.each([0, -1, 1.5])("refuses limit %f, naming the config field", (n) => {
    expect(() => new Semaphore(n)).toThrow(/llm.concurrency/);
  });
});
