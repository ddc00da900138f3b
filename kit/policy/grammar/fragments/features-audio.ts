import type { AudioFeatures } from "../spec.js";
import { fragment, type Fragment } from "./fragment.js";

const DEFINES = [
  "N_MELS",
  "FRAME_MS",
  "SEGMENTS",
  "N_CEPS",
  "AUDIO_EXT",
  "FILTERBANKS",
  "read_audio",
  "mel_filterbank",
  "log_mel",
  "frame_features",
  "audio_vector",
  "audio_paths",
  "build_features",
];

/**
 * Audio files from a path column or train/ and test/ folders by id: per short-time frame MFCCs, log-mel
 * energies or spectral shape, pooled over the clip (numpy/scipy only), optionally standardised.
 */
export function audioFeatures(f: AudioFeatures): Fragment[] {
  const frame =
    f.method === "mfcc"
      ? `
    return dct(log_mel(S, sr, freqs), type=2, axis=0, norm="ortho")[:N_CEPS]
`
      : f.method === "logmel"
        ? `
    return log_mel(S, sr, freqs)
`
        : `
    P = S + 1e-12
    total = P.sum(axis=0)
    centroid = (freqs[:, None] * P).sum(axis=0) / total
    bandwidth = np.sqrt((((freqs[:, None] - centroid) ** 2) * P).sum(axis=0) / total)
    rolloff = freqs[np.minimum((np.cumsum(P, axis=0) < 0.85 * total).sum(axis=0), len(freqs) - 1)]
    flatness = np.exp(np.log(P).mean(axis=0)) / P.mean(axis=0)
    bands = np.stack([b.sum(axis=0) for b in np.array_split(P, 8, axis=0)])
    return np.vstack([centroid / 1000.0, bandwidth / 1000.0, rolloff / 1000.0, flatness, np.log(total), np.log(bands)])
`;
  const what =
    f.method === "mfcc"
      ? `MFCCs (${f.nMels} mel bands)`
      : f.method === "logmel"
        ? `log-mel energies (${f.nMels} bands)`
        : "spectral shape and 8 band energies";
  const uses = ["np", "os", "DATA_DIR", "ID_COL", "feature_columns"];
  return [
    fragment(
      "features.audio",
      { defines: DEFINES, uses },
      `N_MELS, FRAME_MS, SEGMENTS, N_CEPS = ${f.nMels}, ${f.frameMs}, ${f.segments}, 13
AUDIO_EXT = (".wav", ".flac", ".ogg", ".mp3", ".aiff", ".aif")
FILTERBANKS = {}

def read_audio(path):
    """Mono float samples in [-1, 1] and the sample rate (WAV via scipy; other formats via soundfile)."""
    if path.lower().endswith(".wav"):
        from scipy.io import wavfile
        sr, x = wavfile.read(path)
        x = x.astype(np.float64) / (np.iinfo(x.dtype).max if np.issubdtype(x.dtype, np.integer) else 1.0)
    else:
        import soundfile
        x, sr = soundfile.read(path, dtype="float64")
    if x.ndim > 1:
        x = x.mean(axis=1)
    return x / (np.abs(x).max() + 1e-9), sr

def mel_filterbank(sr, freqs):
    """Triangular filters evenly spaced on the mel scale from 20 Hz to min(sr/2, 8 kHz)."""
    key = (sr, len(freqs))
    if key not in FILTERBANKS:
        mel = lambda hz: 2595.0 * np.log10(1.0 + hz / 700.0)
        hz = lambda m: 700.0 * (10 ** (m / 2595.0) - 1.0)
        edges = hz(np.linspace(mel(20.0), mel(min(sr / 2.0, 8000.0)), N_MELS + 2))
        fb = np.zeros((N_MELS, len(freqs)))
        for i in range(N_MELS):
            lo, mid, hi = edges[i], edges[i + 1], edges[i + 2]
            fb[i] = np.clip(np.minimum((freqs - lo) / (mid - lo), (hi - freqs) / (hi - mid)), 0, None)
        FILTERBANKS[key] = fb
    return FILTERBANKS[key]

def log_mel(S, sr, freqs):
    return np.log(mel_filterbank(sr, freqs) @ S + 1e-10)

def frame_features(x, sr):
    """Per-frame features (rows) of a power spectrogram with ${f.frameMs} ms hann frames, half-frame hop."""
    from scipy import signal
    from scipy.fft import dct
    nper = max(16, int(sr * FRAME_MS / 1000))
    if len(x) < nper:
        x = np.pad(x, (0, nper - len(x)))
    freqs, _, S = signal.spectrogram(x, fs=sr, window="hann", nperseg=nper, noverlap=nper // 2, mode="psd")
${frame}
def audio_vector(path):
    """Pooled over time: mean and std of each frame feature${f.segments ? `, means over ${f.segments} equal segments` : ""}${f.deltas ? ", mean and std of the deltas" : ""}."""
    F = frame_features(*read_audio(path))
    parts = [F.mean(axis=1), F.std(axis=1)]
    if SEGMENTS:
        parts += [F[:, s].mean(axis=1) if len(s) else F.mean(axis=1) for s in np.array_split(np.arange(F.shape[1]), SEGMENTS)]
${
  f.deltas
    ? `    D = np.diff(F, axis=1) if F.shape[1] > 1 else np.zeros_like(F)
    parts += [D.mean(axis=1), D.std(axis=1)]
`
    : ""
}    return np.concatenate(parts)

def audio_paths(df, split):
    """Per row: the audio file's path (a column naming audio files, else <split>/<id>.*)."""
    for c in feature_columns(df):
        vals = df[c].astype(str)
        if df[c].dtype == object and vals.str.lower().str.endswith(AUDIO_EXT).mean() > 0.5:
            return [p if os.path.exists(p) else os.path.join(DATA_DIR, split, v) for p, v in zip((os.path.join(DATA_DIR, v) for v in vals), vals)]
    folder = os.path.join(DATA_DIR, split)
    by_stem = {os.path.splitext(n)[0]: os.path.join(folder, n) for n in os.listdir(folder)} if os.path.isdir(folder) else {}
    return [by_stem[str(i)] for i in df[ID_COL]]

def build_features(tr, te, y):
    """Audio: ${what} per ${f.frameMs} ms frame, pooled over time${f.scale === "standard" ? ", standardised" : ""}."""
    X_tr = np.stack([audio_vector(p) for p in audio_paths(tr, "train")]).astype(np.float32)
    X_te = np.stack([audio_vector(p) for p in audio_paths(te, "test")]).astype(np.float32)
    X_tr, X_te = np.nan_to_num(X_tr), np.nan_to_num(X_te)
${
  f.scale === "standard"
    ? `    mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0) + 1e-6
    X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
`
    : ""
}    return X_tr, X_te
`,
    ),
  ];
}
