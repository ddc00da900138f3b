// kit/gym/corpus: the task corpus (issue 27, spec §2.2): candidates of data/corpus/candidates.json exported in the
// jail, framed by rules, built and checked through buildTask/checkTask, headroom-checked, gated; suites by study.
export type {
  Candidate, FramingHints, ColumnProfile, TableProfile, ExportedTable, Framing, FunnelStage, StageRecord, Headroom,
  CorpusTask, SourceKind,
} from "./types.js";
export { FUNNEL_STAGES } from "./types.js";
export { corpusDir, corpusPaths } from "./paths.js";
export {
  loadManifest, parseManifest, manifestHash, defaultManifestPath, CandidateSchema, ManifestError,
} from "./manifest.js";
export { exportCandidate, ExportConfig } from "./export.js";
export { CorpusExportError } from "./corpus-jail.js";
export { frameCandidate, FramingConfig, type FramingResult } from "./framing.js";
export {
  measureHeadroom, headroomVerdict, normalisedHeadroom, HeadroomConfig, type HeadroomVerdict,
} from "./headroom.js";
export {
  mergeStudies, assignSuites, SuiteConfig, MergeConfig, type SuiteAssignment, type SuiteName,
} from "./suites.js";
export {
  buildCorpus, ensureCorpus, CorpusBuildConfig, FUNNEL_VERSION, type CorpusEvent, type CorpusBuildOptions,
  type CorpusBuildSummary,
} from "./build-corpus.js";
export {
  readCorpusIndex, writeCorpusIndex, suiteTasks, coreSuite, expandTaskList, isSuiteName, SUITES, CorpusMissingError,
  CorpusIndexError, UnknownSuiteError, type CorpusIndex, type SuiteEntry, type SuiteListName,
} from "./corpus-index.js";
export {
  recordStages, recordCorpusTasks, loadFunnel, listCorpusBuilds, type StoredFunnel, type CorpusBuild,
} from "./corpus-store.js";
export { funnelTable, FunnelConfig, type FunnelTable, type FunnelStageRow } from "./funnel.js";
export { funnelText } from "./funnel-text.js";
export { PAPER_FUNNEL } from "./paper-funnel.js";
