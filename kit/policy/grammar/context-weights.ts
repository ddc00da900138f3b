/**
 * The default context-label weights (option key → label → weight), measured on the built-in core suite.
 * Not yet measured: empty.
 */
export const CONTEXT_WEIGHTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {};
