// kit/gym/corpus: the task corpus (issue 27, the paper's Fig. 3): candidates of data/corpus/candidates.json exported
// in the jail, framed by rules, built and checked through buildTask/checkTask, headroom-checked, gated; suites by
// study.
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
export { framingChoices, type FramingChoice } from "./framing-reasons.js";
export { frameTable, TableFraming, type TableFramingInput, type FramedTable } from "./frame-table.js";
export {
  measureHeadroom, headroomVerdict, normalisedHeadroom, HeadroomConfig, type HeadroomVerdict,
} from "./headroom.js";
export {
  assignSuites, SuiteConfig, type SuiteAssignment, type SuiteName,
} from "./suites.js";
export { SUITE_NAMES, suiteCounts, type SuiteCount, type StratumCount } from "./suites.js";
export {
  buildCorpus, ensureCorpus, CorpusBuildConfig, FUNNEL_VERSION, type CorpusEvent, type CorpusBuildOptions,
  type CorpusBuildSummary,
} from "./build-corpus.js";
export {
  readCorpusIndex, writeCorpusIndex, suiteTasks, coreSuite, expandTaskList, isSuiteName, SUITES, CorpusMissingError,
  CorpusIndexError, UnknownSuiteError, type CorpusIndex, type SuiteEntry, type SuiteListName,
} from "./corpus-index.js";
export { canonicalSuite, SUITE_ALIASES, type ExpandTaskListOptions } from "./corpus-index.js";
export {
  SealedSuiteError, SEALED_RULE, confirmTaskIds, assertNotConfirm, peekConfirmIds, itemTaskIds, assertItemNotConfirm,
  sealedSuiteError, type SuitedIds,
} from "./sealed-suite.js";
export {
  recordStages, recordCorpusTasks, loadFunnel, listCorpusBuilds, type StoredFunnel, type CorpusBuild,
} from "./corpus-store.js";
export { funnelTable, FunnelConfig, type FunnelTable, type FunnelStageRow } from "./funnel.js";
export { funnelText } from "./funnel-text.js";
export { PAPER_FUNNEL } from "./paper-funnel.js";
export { contentProfile, ContentProfileConfig, type ContentProfile, type ContentColumn } from "./content-profile.js";
export {
  studyEvidence, StudyIdentityConfig, splitBase, type ContentStudyItem, type StudyEvidence, type StudyEvidenceKind,
} from "./study-identity.js";
export { mergeStudiesByContent, type StudyMerge, type StudyMerges } from "./study-merge.js";
export {
  loadContentProfile, readTableBounded, readStudies, writeStudies, studiesPath, evidenceText, StudiesFile,
  type StudiesRecord,
} from "./studies-file.js";
