// End to end: openmle experiment register → run → show → list on the built-in penguins task with real programs in
// the sandbox (2 arms × 1 task × 2 draws), a re-run that is not the registered result, and a changed plan that is a
// new registration. The commands run in this process (buildProgram), so the test pays no CLI start-up per command.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildProgram } from "./program.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-experiment-cli-"));
const ws = join(dir, "ws");

/** Runs one command in-process; returns what it printed on stdout and stderr. */
async function cli(...args: string[]): Promise<{ out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
  try {
    await buildProgram().exitOverride().parseAsync(args, { from: "user" });
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { out: out.join(""), err: err.join("") };
}
afterEach(() => vi.restoreAllMocks());

const writePlan = (name: string, seed: number) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      question: "does the default grammar draft better than uniform on penguins?",
      arms: [
        { name: "uniform", params: "uniform" },
        { name: "default", params: "default" },
      ],
      tasks: ["penguins"],
      level: { kind: "drafts", draws: 2 },
      seed,
      measures: ["valid_rate", "win_rate"],
      decision: { measure: "win_rate", comparison: ["default", "uniform"] },
      timeout_s: 60,
      memory_mb: 2048,
    }),
  );
  return path;
};

describe("openmle experiment (CLI)", () => {
  it("register → run → show → list; a re-run; a changed plan", async () => {
    const plan = writePlan("smoke", 1);
    const reg = await cli("experiment", "register", plan, "--workspace", ws);
    const id = /^(exp-[0-9a-f]{12}) \(exploratory: the plan names no confirm task\)$/m.exec(reg.out)?.[1];
    expect(id, reg.out).toBeDefined();
    expect(reg.out).toMatch(/^plan hash [0-9a-f]{64}, kit \S+, registered at \d{4}-\d\d-\d\dT/m);
    expect(reg.out).toMatch(/^power: /m);
    expect(reg.out).toContain(`run it: openmle experiment run ${id} --workspace ${ws}`);

    const run = await cli("experiment", "run", id!, "--workspace", ws, "--jobs", "2");
    expect(run.out).toMatch(new RegExp(`^run ${id}-r1 completed: 4 cells \\(4 run now\\); the first result of ${id} \\(exploratory\\)$`, "m"));
    expect(run.err).toMatch(/^run \S+-r1: 4 cells$/m);
    expect(run.err).toMatch(/^cell 4 of 4: arm \S+, task penguins, draw 1: (test \S+|no graded score)$/m);

    const show = await cli("experiment", "show", id!, "--workspace", ws);
    expect(show.out.split("\n")[0]).toBe("exploratory");
    expect(show.out).toMatch(/^arm +valid_rate +win_rate$/m);
    expect(show.out).toMatch(/^decision: default − uniform on win_rate: .* \(90 % interval, 1 task\); claim > 0 at α 0\.05: /m);
    expect(show.out).toContain(`look 1 of ${id} logged`);

    const looks = async () => {
      const list = JSON.parse((await cli("experiment", "list", "--workspace", ws, "--json")).out);
      return list.find((h: { registration: { registration_id: string } }) => h.registration.registration_id === id);
    };
    expect(await looks()).toMatchObject({ looks: 1 });
    const again = JSON.parse((await cli("experiment", "show", id!, "--workspace", ws, "--json")).out);
    expect(again).toMatchObject({ label: "exploratory", run: { run_id: `${id}-r1`, is_registered_result: true } });
    expect(await looks()).toMatchObject({ looks: 2 });

    // A re-run: a new run, not the registered result (the registered result stays run 1).
    const rerun = JSON.parse((await cli("experiment", "run", id!, "--workspace", ws, "--jobs", "2", "--json")).out);
    expect(rerun).toMatchObject({ run_id: `${id}-r2`, is_registered_result: false, resumed: false });
    const h = await looks();
    expect(h.runs.map((r: { run_number: number; status: string; is_registered_result: boolean }) =>
      [r.run_number, r.status, r.is_registered_result])).toEqual([[1, "completed", true], [2, "completed", false]]);
    const text = (await cli("experiment", "list", "--workspace", ws)).out;
    expect(text).toMatch(new RegExp(`^${id} +smoke +exploratory +\\S+ +r1 completed \\(registered result\\), r2 completed +2 `, "m"));

    // The same plan registered again is the same registration; a changed plan is a new one.
    expect((await cli("experiment", "register", plan, "--workspace", ws)).out).toContain(`${id} was registered before`);
    const changed = await cli("experiment", "register", writePlan("smoke-seed2", 2), "--workspace", ws, "--json");
    const other = JSON.parse(changed.out).registration.registration_id;
    expect(other).toMatch(/^exp-[0-9a-f]{12}$/);
    expect(other).not.toBe(id);
  }, 120_000);

  it("refuses what it cannot do in one line each", async () => {
    await expect(cli("experiment", "run", "exp-nope", "--workspace", ws)).rejects.toThrow(
      /^no registration "exp-nope" in /,
    );
    await expect(cli("experiment", "show", "exp-nope", "--workspace", join(dir, "missing"))).rejects.toThrow(
      /^no workspace at .*missing: register a plan first/,
    );
    await expect(cli("experiment", "run", "exp-nope", "--workspace", ws, "--jobs", "abc")).rejects.toThrow(
      /^--jobs abc is not a number/,
    );
  });
});
