import { KitError } from "../../../util/index.js";

/**
 * A grammar program whose fragments do not fit together: `fragment` reads `missing`, which no fragment
 * before it defines (the program would stop with a NameError). A bug of a composition, or a spec whose
 * parts do not belong together (a torch CNN without image features reads SIDE).
 */
export class FragmentOrderError extends KitError {
  constructor(
    readonly fragment: string,
    readonly missing: string,
    readonly definedLaterBy: string | null,
  ) {
    super(
      `grammar program: fragment "${fragment}" reads "${missing}", which no earlier fragment defines: ` +
        (definedLaterBy
          ? `fragment "${definedLaterBy}" defines it later, move it before "${fragment}"`
          : `no fragment defines it, add one before "${fragment}" (or drop what reads it)`),
    );
  }
}
