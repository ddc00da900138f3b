// Numeric flags of the CLI, parsed once: every numeric flag of every command goes through intFlag or
// numberFlag with a range bounded by what the kit can hold, so `--steps 1e12` is one line naming the
// flag and its range instead of an allocation that crashes Node.
import { UsageError } from "./run-cli.js";

/** The values a numeric flag accepts; `why` ends the message (e.g. "Node timers cannot wait longer"). */
export interface FlagRange {
  readonly min: number;
  readonly max: number;
  readonly why?: string;
}

/** A decimal number as a person types it: sign, digits, a point, an exponent (no hex, no blanks). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The number `value` names, checked against `range`. Rule: the text must be a decimal number
 * (`1e3` reads as 1000; "", " ", "0x10", "Infinity" and "NaN" are refused), an integer when
 * `integer`, and min <= n <= max. A refusal is one usage error:
 * `--steps 1e12 is out of range: use an integer from 1 to 100000.`
 */
export function numericFlag(name: string, value: string, range: FlagRange, integer: boolean): number {
  const kind = integer ? "an integer" : "a number";
  const use = `use ${kind} from ${range.min} to ${range.max}${range.why ? ` (${range.why})` : ""}.`;
  const shown = value.trim() === "" ? JSON.stringify(value) : value;
  const n = DECIMAL.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${name} ${shown} is not a number: ${use}`);
  if (integer && !Number.isInteger(n)) throw new UsageError(`--${name} ${shown} is not an integer: ${use}`);
  if (n < range.min || n > range.max) throw new UsageError(`--${name} ${shown} is out of range: ${use}`);
  return n;
}

/** An integer flag within `range` (see numericFlag). */
export const intFlag = (name: string, value: string, range: FlagRange): number => numericFlag(name, value, range, true);

/** A real-valued flag within `range` (see numericFlag). */
export const numberFlag = (name: string, value: string, range: FlagRange): number =>
  numericFlag(name, value, range, false);

/**
 * Seeds: any integer JavaScript holds exactly (beyond 2^53 neighbouring integers collapse into one).
 */
export const SEED_RANGE: FlagRange = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** TCP ports (0: any free port). */
export const PORT_RANGE: FlagRange = { min: 0, max: 65535 };
