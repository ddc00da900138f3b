import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { moveIntoPlace } from "./build-task.js";
import { makeBuildTemp, removeStaleBuildTemps } from "./build-temp.js";
import { TaskSpecError } from "./errors.js";
import { inferModality, inferTaskType } from "./infer-meta.js";
import { loadTask, packagePaths, profilePublic, TASK_JSON } from "./load-task.js";
import { projectRoot } from "./python.js";
import { runPrepare } from "./run-prepare.js";
import type { TaskMeta, TaskPackage } from "./types.js";

/** The bundled MLE-bench Lite leaderboards (data/mlebench-lite/<id>/leaderboard.csv). */
export function liteLeaderboardPath(competitionId: string): string | undefined {
  const p = join(projectRoot(), "data", "mlebench-lite", competitionId, "leaderboard.csv");
  return existsSync(p) ? p : undefined;
}

/** The 22 MLE-bench Lite competition ids (data/mlebench-lite/competitions.txt). */
export function liteCompetitions(): string[] {
  const f = join(projectRoot(), "data", "mlebench-lite", "competitions.txt");
  return existsSync(f)
    ? readFileSync(f, "utf8")
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** MLE-bench's rule: lower is better when the first (best-ranked) score is below the last one. */
export function leaderboardHigherIsBetter(csv: string): boolean {
  const lines = csv.trim().split("\n");
  const col = lines[0]!.split(",").indexOf("score");
  const scores = lines
    .slice(1)
    .map((l) => Number(l.split(",")[col]))
    .filter((x) => Number.isFinite(x));
  return !(scores.length > 1 && scores[0]! < scores.at(-1)!);
}

const wrapperPrepare = (
  answers: string,
) => `"""OpenMLE wrapper around the MLE-bench prepare.py (kept verbatim in mlebench_prepare.py)."""
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mlebench_prepare import prepare as _mlebench_prepare  # noqa: E402

ANSWERS = ${JSON.stringify(answers)}


def prepare(raw: Path, public: Path, private: Path):
    public.mkdir(parents=True, exist_ok=True)
    private.mkdir(parents=True, exist_ok=True)
    _mlebench_prepare(Path(raw), Path(public), Path(private))
    src = Path(private) / ANSWERS
    if not src.exists():
        raise FileNotFoundError(f"MLE-bench prepare wrote no private/{ANSWERS}. Fix: name the answers file in config.yaml (answers: ...).")
    if src.name != "test_answer.csv":
        shutil.copyfile(src, Path(private) / "test_answer.csv")
`;

const wrapperMetric = (
  value: string,
  hib: boolean,
) => `"""OpenMLE wrapper: the MLE-bench grade(submission, answers) of mlebench_grade.py as a metric class."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mlebench_grade  # noqa: E402


class MlebenchGrade:
    def __init__(self, value: str = ${JSON.stringify(value)}, higher_is_better: bool = ${hib ? "True" : "False"}):
        self.value = value
        self.higher_is_better = higher_is_better

    def evaluate(self, y_true, y_pred) -> float:
        return float(mlebench_grade.grade(y_pred, y_true))

    def validate_submission(self, submission, ground_truth):
        mlebench_grade.grade(submission, ground_truth)  # raises on an invalid submission
`;

/**
 * Convert an MLE-bench competition folder (description.md, prepare.py, grade.py, optional
 * config.yaml and leaderboard.csv) plus the user's raw data into a task package that carries its
 * leaderboard (the folder's own, else the bundled Lite one). Built in a temporary folder and moved
 * into place only when complete.
 */
export async function importMlebench(
  competitionDir: string,
  opts: { raw: string; outDir: string; overwrite?: boolean },
): Promise<TaskPackage> {
  const comp = resolve(competitionDir);
  const id = basename(comp);
  for (const f of ["description.md", "prepare.py", "grade.py"]) {
    if (!existsSync(join(comp, f)))
      throw new TaskSpecError(
        `${join(comp, f)} is missing. Fix: pass an MLE-bench competition folder (description.md, ` +
          `prepare.py, grade.py).`,
        join(comp, f),
      );
  }
  const raw = resolve(opts.raw);
  if (!existsSync(raw) || !statSync(raw).isDirectory() || readdirSync(raw).length === 0) {
    throw new TaskSpecError(
      `raw data folder ${raw} is missing or empty. Fix: download the competition's data (kaggle ` +
        `competitions download -c ${id}) and pass its folder with --raw.`,
      raw,
    );
  }
  const board = existsSync(join(comp, "leaderboard.csv")) ? join(comp, "leaderboard.csv") : liteLeaderboardPath(id);
  const config = existsSync(join(comp, "config.yaml")) ? readFileSync(join(comp, "config.yaml"), "utf8") : "";
  const answers = basename(/^\s*answers:\s*(\S+)/m.exec(config)?.[1] ?? "test.csv");
  const hib = board ? leaderboardHigherIsBetter(readFileSync(board, "utf8")) : true;

  const out = resolve(opts.outDir);
  if (existsSync(out) && !opts.overwrite)
    throw new TaskSpecError(`${out} already exists. Fix: pass --force or choose another --out folder.`, out);
  mkdirSync(dirname(out), { recursive: true });
  removeStaleBuildTemps(out); // a killed import's answers must not stay behind (build-temp.ts)
  const { tmp, mode } = makeBuildTemp(out);
  try {
    const p = packagePaths(tmp);
    cpSync(raw, p.raw, { recursive: true });
    mkdirSync(dirname(p.prepare), { recursive: true });
    copyFileSync(join(comp, "prepare.py"), join(tmp, "utils", "mlebench_prepare.py"));
    copyFileSync(join(comp, "grade.py"), join(tmp, "utils", "mlebench_grade.py"));
    writeFileSync(p.prepare, wrapperPrepare(answers));
    await runPrepare(p.prepare, p.raw, p.publicDir, p.privateDir, { stage: "import" });
    copyFileSync(join(comp, "description.md"), join(p.publicDir, "description.txt"));
    if (board) copyFileSync(board, join(tmp, "leaderboard.csv"));
    const profile = await profilePublic(p.publicDir);
    writeFileSync(p.metric, wrapperMetric(profile.targetColumns[0] ?? "", hib));
    const metric = `mlebench:${id}`;
    const meta: TaskMeta = {
      id,
      name: id,
      modality: inferModality(profile),
      taskType: inferTaskType(profile, metric),
      idColumn: profile.idColumn,
      targetColumns: profile.targetColumns,
      trainTarget: profile.trainTarget ?? profile.targetColumns[0] ?? "",
      metric,
      higherIsBetter: hib,
      files: {
        train: existsSync(join(p.publicDir, "train.csv")) ? "train.csv" : "train",
        test: existsSync(join(p.publicDir, "test.csv")) ? "test.csv" : "test",
        sampleSubmission: "sample_submission.csv",
      },
      columns: profile.columns,
      nTrain: profile.nTrain,
      nTest: profile.nTest,
      competitionId: id,
      source: `MLE-bench competition ${id}`,
    };
    writeFileSync(join(tmp, TASK_JSON), `${JSON.stringify(meta, null, 2)}\n`);
    chmodSync(tmp, mode); // published like any new folder here
    moveIntoPlace(tmp, out, !!opts.overwrite);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return loadTask(out);
}
