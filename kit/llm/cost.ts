/** USD cost of one call: tokens × price per million tokens, prompt and completion priced apart. */
export interface TokenPrices {
  readonly promptPricePerMTok: number;
  readonly completionPricePerMTok: number;
}

export function callCostUsd(promptTokens: number, completionTokens: number, prices: TokenPrices): number {
  return (promptTokens * prices.promptPricePerMTok + completionTokens * prices.completionPricePerMTok) / 1_000_000;
}
