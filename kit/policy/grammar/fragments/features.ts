import type { FeatureSpec } from "../spec.js";
import { audioFeatures } from "./features-audio.js";
import { imageFeatures } from "./features-image.js";
import { tabularFeatures, textFeatures } from "./features-table.js";
import { timeSeriesFeatures } from "./features-time-series.js";
import type { Fragment } from "./fragment.js";

/** The fragments that define `build_features(train, test, y) -> (X_train, X_test)`, one set per modality. */
export function featureFragments(f: FeatureSpec): Fragment[] {
  switch (f.kind) {
    case "tabular":
      return tabularFeatures(f);
    case "text":
      return textFeatures(f);
    case "image":
      return imageFeatures(f);
    case "time_series":
      return timeSeriesFeatures(f);
    case "audio":
      return audioFeatures(f);
  }
}
