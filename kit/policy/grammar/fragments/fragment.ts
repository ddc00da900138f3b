import { FragmentOrderError } from "./fragment-order-error.js";

/**
 * One Python unit of a grammar program (the imports, the data loading, one modality's features, the model
 * list, the validation split, ...): its text exactly as it goes into main.py, and the top-level names it
 * shares with the other fragments. A program is a list of fragments; `composeProgram` checks the names.
 */
export interface Fragment {
  /** What the fragment is, for errors: "features.tabular", "validation.splits". */
  readonly name: string;
  /** Every top-level name its code binds: assignments, loop targets, def, class, import. */
  readonly defines: readonly string[];
  /** The names its code reads that an earlier fragment must define (Python builtins are not listed). */
  readonly uses: readonly string[];
  /**
   * Names read only by code this program never runs (`meta_model` when nothing is stacked), so nothing
   * need define them: listed to keep the declarations truthful, exempt from the defined-earlier check.
   */
  readonly dormant: readonly string[];
  /** The Python text: whole top-level statements, each line ending in a newline. */
  readonly code: string;
}

/** A fragment from its name, its names and its code (names default to none). */
export function fragment(
  name: string,
  names: { defines?: readonly string[]; uses?: readonly string[]; dormant?: readonly string[] },
  code: string,
): Fragment {
  return { name, defines: names.defines ?? [], uses: names.uses ?? [], dormant: names.dormant ?? [], code };
}

/**
 * A section comment (`# 5. Models ----`), after a blank line. The rule widths differ a little between
 * sections, as they always have: rendered programs stay byte-identical.
 */
export function section(title: string, width = 77): Fragment {
  return fragment(`section ${title}`, {}, `\n# ${title} ${"-".repeat(width - title.length - 3)}\n`);
}

/**
 * The program text of `fragments` in order. Every name a fragment uses must be defined by an earlier
 * fragment: a fragment that reads a name nothing before it binds throws FragmentOrderError, at render
 * time, instead of a NameError when the program runs.
 */
export function composeProgram(fragments: readonly Fragment[]): string {
  const defined = new Set<string>();
  fragments.forEach((f, i) => {
    const missing = f.uses.find((n) => !defined.has(n));
    if (missing !== undefined) {
      const later = fragments.slice(i).find((g) => g.defines.includes(missing));
      throw new FragmentOrderError(f.name, missing, later?.name ?? null);
    }
    for (const n of f.defines) defined.add(n);
  });
  return fragments.map((f) => f.code).join("");
}

/** Python literals of TypeScript values: strings as JSON (a subset of Python's), booleans, lists. */
export const pyStr = (s: string): string => JSON.stringify(s);
export const pyBool = (b: boolean): string => (b ? "True" : "False");
export const pyList = (xs: readonly (string | number)[]): string =>
  `[${xs.map((x) => (typeof x === "number" ? String(x) : pyStr(x))).join(", ")}]`;

/** One import line of main.py and the name it binds. */
export interface PyImport {
  readonly line: string;
  readonly binds: string;
}

export const fromImport = (module: string, name: string): PyImport => ({
  line: `from ${module} import ${name}`,
  binds: name,
});
export const importAs = (module: string, alias: string): PyImport => ({
  line: `import ${module} as ${alias}`,
  binds: alias,
});
