import { KitError } from "../util/index.js";

/** Base class of kit/eval errors: user-facing (the CLI prints the message without a stack). */
export class EvalError extends KitError {}

/** A competition id that has no bundled leaderboard. */
export class UnknownCompetitionError extends EvalError {
  constructor(
    readonly competitionId: string,
    readonly valid: readonly string[],
  ) {
    super(`unknown competition "${competitionId}". Valid ids (MLE-bench Lite): ${valid.join(", ")}`);
  }
}

/** A score that is not a finite number. */
export class InvalidScoreError extends EvalError {
  constructor(readonly value: unknown) {
    super(`score ${JSON.stringify(String(value))} is not a finite number. Pass a numeric score such as 0.85.`);
  }
}

/** A leaderboard that cannot be graded against (missing columns, too few rows, bad cells). */
export class LeaderboardFormatError extends EvalError {
  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`leaderboard ${source}: ${detail}`);
  }
}
