#!/usr/bin/env bash
# One-time setup of a fresh Debian machine for the OpenMLE kit. Idempotent: each step
# checks whether its result is already present and skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Debian packages: the sandbox's Python ML stack, Jupyter for notebooks, bubblewrap for
#    isolation, Chromium for report rendering, Redis for the sandbox queue, docker.io for the
#    Docker executor's tests, espeak-ng for the synthesised spoken-digits task, R and the R data
#    packages the gym corpus reads its data sets from (issue 27, data/corpus/README.md).
APT_PACKAGES=(
  python3-sklearn python3-pandas python3-numpy python3-scipy python3-xgboost python3-torch
  python3-torchvision python3-statsmodels python3-pil python3-soundfile
  python3-venv jupyter-nbconvert jupyter-client python3-ipykernel jupyter-notebook
  bubblewrap chromium redis-server docker.io dataset-fashion-mnist espeak-ng
  r-base-core r-cran-mass r-cran-aer r-cran-mlbench r-cran-modeldata r-cran-cardata
  r-cran-palmerpenguins r-cran-hsaur3 r-cran-survival r-cran-rpart r-cran-dslabs r-cran-tm
  r-cran-janeaustenr r-cran-boot r-cran-vcd r-cran-mlmrev r-cran-gss
)
missing=()
[ "${OPENMLE_SKIP_APT:-0}" = "1" ] && APT_PACKAGES=()  # for images that bring their own stack
for p in "${APT_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages present"
fi

# 2. npm dependencies, reinstalled only when package-lock.json changed.
stamp=node_modules/.openmle-lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
else
  say "node_modules up to date"
fi

# 3. Build the kit to dist/ (the CLI and the notebooks load it from there).
say "build"
npm run --silent build

# 4. Notebooks import "openmle": tslab resolves packages the old Node way (no self-reference),
#    so node_modules/openmle links back to the project root.
ln -sfn .. node_modules/openmle

# 5. The tslab kernel. This project's own kernelspec (.jupyter/kernels/tslab, this clone's tslab)
#    is what the notebook runner uses: it puts .jupyter first on JUPYTER_PATH, so clones never
#    re-point each other's kernels. For Jupyter started by hand, a global "tslab" kernel is
#    registered only when none exists (against Debian's python3, which has jupyter_client;
#    OPENMLE_JUPYTER_PYTHON may name another); an existing one is left alone.
TSLAB_BIN="$ROOT/node_modules/.bin/tslab"
say "project tslab kernel: $(node scripts/kernel.mjs)"
if jupyter kernelspec list --json 2>/dev/null | /usr/bin/python3 -c \
  'import json,sys; sys.exit(0 if "tslab" in json.load(sys.stdin)["kernelspecs"] else 1)'; then
  say "a global tslab kernel exists; left as is (npm run notebook uses this clone's: JUPYTER_PATH=$ROOT/.jupyter)"
else
  say "registering a global tslab kernel"
  "$TSLAB_BIN" install --python="${OPENMLE_JUPYTER_PYTHON:-/usr/bin/python3}" --binary="$TSLAB_BIN"
fi
# 6. The unprivileged account sandboxed programs run as when the kit runs as root
#    (kit/sandbox/sandbox-user.ts); bubblewrap maps the program's uid to it.
if id -u openmle-sandbox >/dev/null 2>&1; then
  say "sandbox user openmle-sandbox present"
else
  say "creating the sandbox user openmle-sandbox"
  $SUDO useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin openmle-sandbox
fi
say "done"
