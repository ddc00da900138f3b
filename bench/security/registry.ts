// The adversarial suite's registry: each attempt module exports `attempts`; add a module to
// ATTEMPT_MODULES to include it. An attempt tries one escape and says whether the defence held
// (its shape: attempt.ts, which the modules import; they never import this file).
import type { Attempt } from "./attempt.js";
import { attempts as sandbox } from "./attempts/sandbox.js";
import { attempts as hostLimits } from "./attempts/host-limits.js";
import { attempts as queue } from "./attempts/queue.js";
import { attempts as queueTrust } from "./attempts/queue-trust.js";
import { attempts as keys } from "./attempts/keys.js";
import { attempts as cliStore } from "./attempts/cli-store.js";
import { attempts as specData } from "./attempts/spec-data.js";
import { attempts as packageCode } from "./attempts/package-code.js";
import { attempts as quotaCaps } from "./attempts/quota-caps.js";
import { attempts as cliInput } from "./attempts/cli-input.js";
import { attempts as warmStart } from "./attempts/warm-start.js";
import { attempts as warmLeak } from "./attempts/warm-leak.js";
import { attempts as packageBounds } from "./attempts/package-bounds.js";
import { attempts as queueBounds } from "./attempts/queue-bounds.js";
import { attempts as parquetBounds } from "./attempts/parquet-bounds.js";
import { attempts as cliSurface } from "./attempts/cli-surface.js";
import { attempts as reviewWarm } from "./attempts/review-warm.js";
import { attempts as reviewQueue } from "./attempts/review-queue.js";

/** Every attempt module, in the order the report lists them. */
export const ATTEMPT_MODULES: readonly { readonly group: string; readonly attempts: readonly Attempt[] }[] = [
  { group: "sandbox", attempts: sandbox },
  { group: "host-limits", attempts: hostLimits },
  { group: "queue", attempts: queue },
  { group: "queue-trust", attempts: queueTrust },
  { group: "keys", attempts: keys },
  { group: "cli-store", attempts: cliStore },
  { group: "spec-data", attempts: specData },
  { group: "package-code", attempts: packageCode },
  { group: "quota-caps", attempts: quotaCaps },
  { group: "cli-input", attempts: cliInput },
  { group: "warm-start", attempts: warmStart },
  { group: "warm-leak", attempts: warmLeak },
  { group: "package-bounds", attempts: packageBounds },
  { group: "queue-bounds", attempts: queueBounds },
  { group: "parquet-bounds", attempts: parquetBounds },
  { group: "cli-surface", attempts: cliSurface },
  { group: "warm-review", attempts: reviewWarm },
  { group: "queue-review", attempts: reviewQueue },
];
