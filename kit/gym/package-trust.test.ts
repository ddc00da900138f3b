import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { PackageJailUnavailableError } from "./errors.js";
import { inspectMetric } from "./load-task.js";
import { configurePackageJail, trustPackages } from "./package-harness.js";

// Where the jail cannot be had (here: bubblewrap pointed at a missing binary), package code is refused with
// the fix, unless packages are trusted; then it runs on the host with one warning.
const METRIC = join(import.meta.dirname, "test-helpers", "paper-task", "utils", "metric.py");

afterEach(() => {
  configurePackageJail({ bwrap: "bwrap" });
  trustPackages(process.env.OPENMLE_TRUST_PACKAGES === "1");
  vi.restoreAllMocks();
});

describe("no jail", () => {
  test("package code is refused, naming the stage, the file and both fixes", async () => {
    configurePackageJail({ bwrap: "/nonexistent/bwrap" });
    trustPackages(false);
    const err = await inspectMetric(METRIC).catch((e) => e);
    expect(err).toBeInstanceOf(PackageJailUnavailableError);
    expect(err.message).toMatch(/^metric inspect: refusing to run .*metric\.py: a package's code runs only in the jail/);
    expect(err.message).toMatch(/install bubblewrap/);
    expect(err.message).toMatch(/trustPackages\(true\) \(or set OPENMLE_TRUST_PACKAGES=1\)/);
  });

  test("trusted: it runs on the host, with a warning", async () => {
    configurePackageJail({ bwrap: "/nonexistent/bwrap" });
    trustPackages(true);
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const info = await inspectMetric(METRIC);
    expect(info.class_name).toBe("ChurnAucScore");
    expect(write.mock.calls.map((c) => String(c[0])).join("")).toMatch(/WARNING: running package code .* WITHOUT a jail/);
  }, 60_000);

  test("unknown jail settings are errors", () => {
    expect(() => configurePackageJail({ memoryMB: 1 } as never)).toThrow(/memoryMB/);
  });
});
