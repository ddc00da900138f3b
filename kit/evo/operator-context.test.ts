import { describe, expect, it } from "vitest";
import { createOpenAIModel, replies, startReplayServer } from "../llm/index.js";
import { renderShown } from "../policy/shown-context.js";
import { experienceBoard } from "./board-store.js";
import { boardLines, shownBoard } from "./board-lines.js";
import { buildContext } from "./build-context.js";
import { EvolveConfig } from "./config.js";
import { memoryPrompt, synthesizeMemory } from "./memory-synthesis.js";
import { BOARD_TREE, seededWorkspace } from "./test-helpers/board-tree.js";
import type { Action } from "./types.js";

// Issue 14 point 5 (OpenMLE-Evo context per operator) and point 6 (AIRA-Evo memory), on BOARD_TREE
// stored in DuckDB: n0 sklearn 0.6, n1 xgboost 0.8, n2 fails (import_error), n3 improve n0 → 0.7,
// n4 debug n2 fails (import_error), n5 crossover n1+n3 → ensemble 0.85.
const BOARD = [
  "Current best: n5 [ensemble] validation 0.85",
  "Families (tried, succeeded, best validation): ensemble 1, 1, 0.85; xgboost 1, 1, 0.8; sklearn 3, 2, 0.7; lightgbm 1, 0, -",
  "Under-explored families (at most 2 tries, not all failed): ensemble, xgboost", // lightgbm only failed, sklearn 3 tries
  "Repeated errors: import_error ×2 (n2, n4)",
  // n3: 0.7 − 0.6; n5: 0.85 − max(0.8, 0.7)
  "Score-delta trend (last 2 Improve/Crossover children, gain over the best parent, oldest first): +0.1, +0.05; mean +0.075, improving",
  "Complementary: n5 [ensemble] 0.85 and n1 [xgboost] 0.8 are the best of different families; a crossover may combine their strengths.",
];
const budget = { remainingSteps: 4, remainingTimeS: 60, perRunTimeLimitS: 30 };
const act = (operator: Action["operator"], ...parents: string[]): Action => ({ operator, parents, island: 0 });

describe("OpenMLE-Evo: each operator gets its own context", () => {
  it("the board lines, hand-computed", async () => {
    const ws = await seededWorkspace();
    try {
      const b = await experienceBoard(ws, "r1");
      expect(shownBoard(b).lines).toEqual(BOARD);
      expect(boardLines(shownBoard(b))).toEqual(BOARD);
      expect(shownBoard(b, 1).lines[4]).toBe("Score-delta trend (last 1 Improve/Crossover children, gain over the best parent, oldest first): +0.05; mean +0.05, improving");
    } finally {
      ws.close();
    }
  });

  it.each([
    { op: "draft" as const, parents: [], board: false, ideas: true },
    { op: "improve" as const, parents: ["n3"], board: true, ideas: false },
    { op: "crossover" as const, parents: ["n1", "n3"], board: true, ideas: false },
    { op: "debug" as const, parents: ["n4"], board: false, ideas: false },
  ])("$op: board lines $board, explored ideas $ideas", async ({ op, parents, board, ideas }) => {
    const ws = await seededWorkspace();
    try {
      const ctx = await buildContext(ws, "r1", EvolveConfig.parse({}), act(op, ...parents), BOARD_TREE, budget, {});
      const lines = ctx.memory!.split("\n");
      const at = lines.indexOf("Experience board:");
      if (board) expect(lines.slice(at + 1, at + 1 + BOARD.length)).toEqual(BOARD);
      else expect(ctx.memory).not.toMatch(/Experience board|Current best/);
      expect(ctx.memory!.includes("Previously explored ideas")).toBe(ideas);
      if (op === "draft") {
        // Non-Debug nodes, most recent first: n4 (debug) is left out.
        expect(lines.slice(1, 6)).toEqual([
          "- [ensemble] plan of n5 → validation 0.85", "- [sklearn] plan of n3 → validation 0.7",
          "- [sklearn] plan of n2 → runtime_error (import_error)", "- [xgboost] plan of n1 → validation 0.8", "- [sklearn] plan of n0 → validation 0.6",
        ]);
        expect(ctx.parents).toEqual([]);
      }
      if (op === "debug") {
        // Same error signature first (n2), then the most recent nodes whatever their outcome.
        expect(ctx.failures!.map((n) => n.nodeId)).toEqual(["n2", "n5", "n3", "n1", "n0"]);
        expect(ctx.memory).toContain("Related nodes (same error signature first, then the most recent):");
      }
    } finally {
      ws.close();
    }
  });

  it("a context rebuilt for an earlier step (ERL segments) sees the board as it stood then", async () => {
    const ws = await seededWorkspace();
    try {
      const ctx = await buildContext(ws, "r1", EvolveConfig.parse({}), act("improve", "n3"), BOARD_TREE.slice(0, 4), budget, {});
      const lines = ctx.memory!.split("\n");
      const at = lines.indexOf("Experience board:");
      expect(lines.slice(at + 1, at + 7)).toEqual([
        "Current best: n1 [xgboost] validation 0.8",
        "Families (tried, succeeded, best validation): xgboost 1, 1, 0.8; sklearn 3, 2, 0.7",
        "Under-explored families (at most 2 tries, not all failed): xgboost",
        "Repeated errors: none",
        "Score-delta trend (last 1 Improve/Crossover children, gain over the best parent, oldest first): +0.1; mean +0.1, improving",
        "Complementary: n1 [xgboost] 0.8 and n3 [sklearn] 0.7 are the best of different families; a crossover may combine their strengths.",
      ]);
    } finally {
      ws.close();
    }
  });

  it("the memory model's prompt compares a node with its parent(s)", async () => {
    const server = await startReplayServer((req) => replies.text(`summary #${req.index}`));
    const ws = await seededWorkspace();
    try {
      const model = createOpenAIModel({ baseURL: server.baseURL, model: "replay-model", maxRetries: 0 });
      const out = await synthesizeMemory(ws, "r1", ["n0", "n3", "n5"], { model, operator: "improve" });
      expect([...out.keys()]).toEqual(["n0", "n3", "n5"]);
      const user = (i: number) => server.requests[i]!.messages.find((m) => m.role === "user")!.content as string;
      expect(server.requests[0]!.messages[0]!.content).toContain("comparing it with its parent");
      expect(user(0)).toContain("Parent: none (a fresh draft).");
      expect(user(1)).toBe(
        "Node: n3 improve from n0 [sklearn] plan of n3 → success: validation 0.7000 (+0.100 vs best parent)\nPlan:\nplan of n3\n\n" +
        "Parent: n0 draft [sklearn] plan of n0 → success: validation 0.6000\nPlan:\nplan of n0",
      );
      expect(user(2)).toMatch(/^Node: n5 crossover from n1\+n3[^]*\n\nParent A: n1 draft \[xgboost\][^]*\n\nParent B: n3 improve from n0/);
    } finally {
      ws.close();
      await server.close();
    }
  });

  it("memoryPrompt is pure", () => {
    const c = { node_id: "a", operator: "draft", method_family: "cv", plan: "p", analysis: "ok", parents: [] };
    expect(memoryPrompt(c, [])).toEqual(memoryPrompt(c, []));
  });
});

describe("AIRA-Evo memory as published", () => {
  it.each([
    { op: "draft" as const, parents: [], shown: ["n0", "n1", "n3", "n5"] },
    { op: "improve" as const, parents: ["n3"], shown: ["n0", "n1", "n3", "n5"] },
    { op: "crossover" as const, parents: ["n1", "n3"], shown: ["n0", "n1", "n3", "n5"] },
    { op: "debug" as const, parents: ["n4"], shown: ["n2"] }, // ancestral memory: the failing node's ancestors
  ])("$op shows $shown", async ({ op, parents, shown }) => {
    const ws = await seededWorkspace();
    try {
      const ctx = await buildContext(ws, "r1", EvolveConfig.parse({ harness: "aira-evo" }), act(op, ...parents), BOARD_TREE, budget, {});
      expect([...ctx.memory!.matchAll(/^- (n\d+)$/gm)].map((m) => m[1])).toEqual(shown);
      expect(ctx.parents.map((p) => p.nodeId)).toEqual(parents);
      if (op === "improve") {
        expect(ctx.memory).toContain("- n3\n  Design: plan of n3\n  Validation metric: 0.7\n  Analysis: success: validation 0.7000 (+0.100 vs best parent)");
      }
      if (op === "debug") expect(ctx.memory).toContain("- n2\n  Design: plan of n2\n  Validation metric: none (runtime_error, import_error)\n  Analysis: runtime_error [import_error]");
    } finally {
      ws.close();
    }
  });
});

// Every harness assembles what it shows as data and renders memory from it (renderShown); the OpenMLE-Evo
// text is the one it printed before ContextShown, plus the memory synthesis block (Improve/Crossover/Debug).
const BUDGET_LINE = "Budget: 4 steps and 60 s remain; each program may run at most 30 s.";
const OPENMLE: Record<Action["operator"], string[]> = {
  draft: [
    "Previously explored ideas (most recent first):", "- [ensemble] plan of n5 → validation 0.85",
    "- [sklearn] plan of n3 → validation 0.7", "- [sklearn] plan of n2 → runtime_error (import_error)",
    "- [xgboost] plan of n1 → validation 0.8", "- [sklearn] plan of n0 → validation 0.6",
  ],
  improve: [
    "Experience board:", ...BOARD, "Ancestors (nearest first):",
    "- n0 draft [sklearn] plan of n0 → success: validation 0.6000",
  ],
  crossover: [
    "Experience board:", ...BOARD, "Branch A contributes xgboost (n1, validation 0.8): plan of n1",
    "Branch B contributes sklearn (n3, validation 0.7): plan of n3",
    "  ancestor n0 draft [sklearn] plan of n0 → success: validation 0.6000",
  ],
  debug: [
    "Related nodes (same error signature first, then the most recent):",
    "- n2 draft [sklearn] plan of n2 → runtime_error [import_error]",
    "- n5 crossover from n1+n3 [ensemble] plan of n5 → success: validation 0.8500 (+0.0500 vs best parent)",
    "- n3 improve from n0 [sklearn] plan of n3 → success: validation 0.7000 (+0.100 vs best parent)",
    "- n1 draft [xgboost] plan of n1 → success: validation 0.8000",
    "- n0 draft [sklearn] plan of n0 → success: validation 0.6000",
  ],
};
// Improve/Crossover: n0 (a draft, no gain) is all they show, so only the board's under-explored families;
// Debug: n3 +0.1 and n5 +0.05 (over their best parents) worked, n2 failed; no board, no open ideas.
const SYNTHESIS: Record<Action["operator"], string[]> = {
  draft: [],
  improve: ["Memory synthesis:", "Open ideas: try ensemble; try xgboost"],
  crossover: ["Memory synthesis:", "Open ideas: try ensemble; try xgboost"],
  debug: [
    "Memory synthesis:", "What worked: n3: plan of n3 (+0.1); n5: plan of n5 (+0.05)",
    "What failed: n2: plan of n2 (runtime_error, import_error)",
  ],
};
const OPS = [["draft"], ["improve", "n3"], ["crossover", "n1", "n3"], ["debug", "n4"]] as const;
const ROLES: Record<string, Record<Action["operator"], string>> = {
  openmle: { draft: "idea", improve: "ancestor", crossover: "ancestor", debug: "related" },
  "aira-evo": { draft: "good", improve: "good", crossover: "good", debug: "ancestor" },
  aide: { draft: "history", improve: "history", crossover: "history", debug: "history" },
  mcts: { draft: "history", improve: "history", crossover: "history", debug: "history" },
};

describe("every harness renders its memory from what it shows (ContextShown)", () => {
  it.each(["openmle", "aira-evo", "aide", "mcts"] as const)("%s, every operator", async (harness) => {
    const ws = await seededWorkspace();
    try {
      for (const [op, ...parents] of OPS) {
        for (const priors of [undefined, "- prior line"]) {
          const cfg = EvolveConfig.parse({ harness });
          const ctx = await buildContext(ws, "r1", cfg, act(op, ...parents), BOARD_TREE, budget, { priors });
          expect(ctx.shown!.budget).toBe(true);
          expect(ctx.memory).toBe(renderShown(ctx.shown!, ctx.budget));
          expect(ctx.memory!.startsWith("Priors from earlier tasks:\n- prior line\n")).toBe(priors !== undefined);
          expect(ctx.shown!.priors).toBe(priors);
          if (harness !== "openmle") expect(ctx.shown!.synthesis).toBeUndefined();
          else {
            const head = priors ? ["Priors from earlier tasks:", priors] : [];
            expect(ctx.memory).toBe([...head, ...OPENMLE[op], ...SYNTHESIS[op], BUDGET_LINE].join("\n"));
          }
          const roles = new Set(ctx.shown!.sections.flatMap((s) => s.entries.map((e) => e.role)));
          expect([...roles]).toEqual([ROLES[harness][op]]);
        }
      }
    } finally {
      ws.close();
    }
  });

  it("the board reaches OpenMLE-Evo's Improve as data, and its gains and ideas as fields", async () => {
    const ws = await seededWorkspace();
    try {
      const ctx = await buildContext(ws, "r1", EvolveConfig.parse({}), act("debug", "n4"), BOARD_TREE, budget, {});
      expect(ctx.shown!.board).toBeUndefined();
      const n3 = ctx.shown!.sections[0]!.entries.find((e) => e.nodeId === "n3")!;
      expect([n3.idea, n3.methodFamily, n3.status, n3.validScore]).toEqual(["plan of n3", "sklearn", "success", 0.7]);
      expect(n3.gain).toBeCloseTo(0.1, 12);
      const imp = await buildContext(ws, "r1", EvolveConfig.parse({}), act("improve", "n3"), BOARD_TREE, budget, {});
      expect(imp.shown!.board!.lines).toEqual(BOARD);
      expect(imp.shown!.board!.currentBest).toEqual({ nodeId: "n5", methodFamily: "ensemble", score: 0.85 });
    } finally {
      ws.close();
    }
  });
});
