import { sampleIndex, type Rng } from "../util/rng.js";
import type { EvolveConfig } from "./config.js";
import { debugDecision } from "./debug-chain.js";
import { fitnessSoftmax, globalNormalisedFitness } from "./fitness-selection.js";
import { islandMembers, loopGeneration } from "./islands.js";
import { selectionWeights, threeFactorSelection, type SelectionCandidate } from "./three-factor-selection.js";
import type { Action, EvoNode } from "./types.js";

/** The pure inputs of one step of the island harnesses (OpenMLE-Evo and AIRA-Evo). */
export interface StepInput {
  readonly nodes: readonly EvoNode[];
  readonly step: number;
  /** The last node this worker produced (its Debug chain continues from it). */
  readonly last: EvoNode | null;
  readonly pending: readonly Action[];
  readonly rng: Rng;
  readonly config: EvolveConfig;
}

/**
 * Probabilities over an island's members: three-factor (openmle) or fitness softmax (aira-evo: utility =
 * the fitness normalised by the global min/max over every scored node of `all`, see fitness-selection.ts).
 */
export function parentProbabilities(
  members: readonly EvoNode[],
  all: readonly EvoNode[],
  cfg: EvolveConfig,
): { nodeId: string; utility: number; probability: number }[] {
  if (cfg.harness === "aira-evo") {
    const scored = [...all, ...members]
      .filter((n) => n.fitness !== null && Number.isFinite(n.fitness))
      .map((n) => n.fitness!);
    const lo = Math.min(...scored);
    const hi = Math.max(...scored);
    const p = fitnessSoftmax(
      members.map((m) => m.fitness!),
      scored,
      cfg.airaTemperature,
    );
    return members.map((m, i) => ({
      nodeId: m.nodeId,
      utility: globalNormalisedFitness(m.fitness, lo, hi),
      probability: p[i]!,
    }));
  }
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  // N_f: the island members' cards of the candidate's family, the candidate itself excluded.
  const famCount = new Map<string, number>();
  for (const n of members) famCount.set(n.methodFamily, (famCount.get(n.methodFamily) ?? 0) + 1);
  const cands: SelectionCandidate[] = members.map((m) => {
    const pf = m.parents.map((p) => byId.get(p)?.fitness ?? null).filter((f): f is number => f !== null);
    return {
      nodeId: m.nodeId,
      fitness: m.fitness!,
      bestParentFitness: pf.length ? Math.max(...pf) : null,
      familyCount: famCount.get(m.methodFamily)! - 1,
    };
  });
  return threeFactorSelection(cands, selectionWeights(cfg.selection), cfg.selection.normalisation);
}

/**
 * One step of the island loop (the paper's Fig. 5, reference code):
 * 1. a buggy last node continues its Debug chain (or drafts afresh after terminal failures);
 * 2. the step's island (steps rotate over islands) is in loop generation g = floor(individuals /
 *    gen0Drafts); generation 0 drafts;
 * 3. later generations: Crossover with probability `crossoverProb` once g >= `crossoverMinGeneration`
 *    (and the island has two members), else Improve, parents sampled by the harness's selection.
 */
export function evoStep(inp: StepInput): Action {
  const { nodes, config: cfg, rng, pending } = inp;
  const island = inp.step % cfg.islands;
  if (inp.last && cfg.debugMaxAttempts > 0) {
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const d = debugDecision(inp.last, byId, {
      maxAttempts: cfg.debugMaxAttempts,
      timeCapS: cfg.debugTimeCapS,
      sameSignatureDraft: cfg.sameSignatureDraft,
    });
    if (d === "debug")
      return {
        operator: "debug",
        parents: [inp.last.nodeId],
        island: inp.last.island,
        generation: inp.last.generation,
      };
    if (d === "draft")
      return {
        operator: "draft",
        parents: [],
        island: inp.last.island,
        generation: loopGeneration(nodes, pending, inp.last.island, cfg.gen0Drafts),
      };
  }
  const generation = loopGeneration(nodes, pending, island, cfg.gen0Drafts);
  if (generation === 0) return { operator: "draft", parents: [], island, generation };
  const members = islandMembers(nodes, cfg.islands, cfg.islandMaxSize)[island]!;
  if (members.length === 0) return { operator: "draft", parents: [], island, generation };
  const probs = parentProbabilities(members, nodes, cfg);
  const first = sampleIndex(
    rng,
    probs.map((p) => p.probability),
  );
  const crossover = members.length >= 2 && generation >= cfg.crossoverMinGeneration && rng.next() < cfg.crossoverProb;
  if (!crossover)
    return { operator: "improve", parents: [members[first]!.nodeId], island, generation, selection: probs };
  const rest = probs.map((p, i) => (i === first ? 0 : p.probability));
  const second = sampleIndex(rng, rest);
  return {
    operator: "crossover",
    parents: [members[first]!.nodeId, members[second]!.nodeId],
    island,
    generation,
    selection: probs,
  };
}
