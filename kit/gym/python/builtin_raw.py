"""Materialise the raw data of a built-in task from installed packages (npm, Debian).

  builtin_raw.py <out dir> <options json>
options: {"kind": ..., "path": source file, folder or program, "dataset": sklearn name, "n": subsample size, "seed": int}
Writes <out dir>/table.csv (and <out dir>/files/ for file-based tasks). Deterministic.
Prints `OPENMLE_RESULT <json>`.
"""
import email
import gzip
import json
import os
import re
import sys

import numpy as np
import pandas as pd


def snake(name):
    s = re.sub(r"\(([^)]*)\)", r"\1", str(name))
    return re.sub(r"[^0-9a-zA-Z]+", "_", s).strip("_").lower()


def from_records(o):
    df = pd.read_json(o["path"]) if o["path"].endswith(".json") else pd.read_csv(o["path"])
    return df.rename(columns=snake)


def from_sklearn(o):
    from sklearn import datasets
    name = o["dataset"]
    if name == "diabetes":
        b = datasets.load_diabetes(as_frame=True, scaled=False)
        df = b.frame.rename(columns={"target": "progression"})
    else:
        b = getattr(datasets, f"load_{name}")(as_frame=True)
        df = b.frame.copy()
        names = [str(x) for x in b.target_names]
        df["target"] = [names[int(i)] for i in df["target"]]
        df = df.rename(columns={"target": {"breast_cancer": "diagnosis", "wine": "cultivar", "digits": "digit"}.get(name, "label")})
        if name == "digits":
            df["digit"] = df["digit"].astype(int)
    return df.rename(columns=snake)


FASHION = ["t-shirt/top", "trouser", "pullover", "dress", "coat", "sandal", "shirt", "sneaker", "bag", "ankle boot"]


def from_fashion_mnist(o, out):
    from PIL import Image
    with gzip.open(os.path.join(o["path"], "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(os.path.join(o["path"], "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)
    pick = np.sort(np.random.RandomState(o.get("seed", 0)).choice(len(labels), o.get("n", 2000), replace=False))
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    rows = []
    for i in pick:
        name = f"fm{int(i):05d}.png"
        Image.fromarray(images[i], mode="L").save(os.path.join(out, "files", name), optimize=False)
        rows.append({"image": name, "label": FASHION[int(labels[i])]})
    return pd.DataFrame(rows)


def from_sentiment(o):
    rows = []
    for src in ["amazon", "imdb", "yelp"]:
        with open(os.path.join(o["path"], f"{src}.json")) as f:
            for r in json.load(f):
                text = (r.get("text") or "").strip()
                if text and r.get("class") in (0, 1):
                    rows.append({"source": src, "text": text, "sentiment": "positive" if r["class"] == 1 else "negative"})
    df = pd.DataFrame(rows)
    # One row per distinct sentence, so that no document is on both sides of the split.
    key = df["text"].str.lower().str.replace(r"\W+", " ", regex=True).str.strip()
    return df[~key.duplicated()].reset_index(drop=True)


def strip_headers(raw):
    """Subject and body only: the other headers (X-Spam-*, Received, ...) leak the label."""
    msg = email.message_from_string(raw)
    subject = str(msg.get("Subject", "") or "").strip()
    parts = []
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.get_content_maintype() == "text":
            payload = part.get_payload(decode=True)
            if payload is not None:
                parts.append(payload.decode("latin-1", errors="replace"))
    body = re.sub(r"\s+", " ", " ".join(parts)).strip()
    return subject, body[:3000]


def from_spam_assassin(o):
    base = o["path"]
    with open(os.path.join(base, "file_list.json")) as f:
        files = json.load(f)
    rng = np.random.RandomState(o.get("seed", 0))
    pick = sorted(rng.choice(len(files), o.get("n", 1500), replace=False))
    rows = []
    for i in pick:
        rel = files[i]
        with open(os.path.join(base, rel[:-4] + ".json")) as f:
            rec = json.load(f)
        subject, body = strip_headers(rec["text"])
        rows.append({"subject": subject, "body": body, "is_spam": "spam" if rel.startswith("spam") else "ham"})
    df = pd.DataFrame(rows)
    key = (df["subject"] + " " + df["body"]).str.lower()
    return df[~key.duplicated()].reset_index(drop=True)


DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def espeak_utterance(espeak, voice, speed, pitch, text, word_gap):
    """16-bit mono samples of espeak-ng saying `text`, and the sample rate. espeak-ng streams a WAV
    to stdout with placeholder sizes: the samples are everything after the data chunk's header."""
    import subprocess
    cmd = [espeak, "-v", voice, "-s", str(speed), "-p", str(pitch), "-g", str(word_gap), "--stdout", text]
    b = subprocess.run(cmd, check=True, capture_output=True).stdout
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE" or b[36:40] != b"data":
        raise ValueError(f"{espeak} did not write a 44-byte-header WAV for {voice!r}")
    rate, channels, bits = int.from_bytes(b[24:28], "little"), int.from_bytes(b[22:24], "little"), int.from_bytes(b[34:36], "little")
    if channels != 1 or bits != 16:
        raise ValueError(f"{espeak} wrote {channels} channels of {bits} bits; expected 16-bit mono")
    return np.frombuffer(b[44:], dtype="<i2").astype(np.float64), rate


def split_words(x, sr, n):
    """The n words of a recording whose words are separated by long pauses: cut at the n-1 longest
    silences (samples below 2% of the peak); each word is trimmed to its loud samples."""
    loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
    gaps = np.diff(loud)
    cuts = np.sort(np.argsort(gaps, kind="stable")[::-1][: n - 1])
    if len(cuts) != n - 1 or gaps[cuts].min() < 0.2 * sr:
        raise ValueError(f"cannot split the synthesised take into {n} words (shortest pause {gaps[cuts].min() / sr if len(cuts) else 0:.2f} s)")
    starts, ends = np.concatenate([[loud[0]], loud[cuts + 1]]), np.concatenate([loud[cuts], [loud[-1]]])
    return [x[s: e + 1] for s, e in zip(starts, ends)]


def from_espeak_digits(o, out):
    """Synthesised spoken digits (the recipe, also in data/README.md). Every (accent, variant) voice
    reads the ten digit words `takes` times; each take is one espeak-ng call with the words in a seeded
    random order, 600 ms pauses between them (-g 60) and a seeded speed (120-200 words/min) and pitch
    (25-75), cut into words at the nine longest pauses. Each word is then resampled to `rate` Hz,
    convolved with a synthetic room response (exponentially decaying noise, RT60 0.05-0.5 s), given
    50-250 ms of leading silence, mixed with noise (white and 1/f in a random proportion) at an SNR of
    0-20 dB, peak-normalised to half scale and written as 16-bit PCM WAV; every draw comes from one
    RandomState(seed), in this order, so the files are byte-identical across runs."""
    import wave
    from concurrent.futures import ThreadPoolExecutor
    from scipy.signal import fftconvolve, resample_poly
    rng = np.random.RandomState(o.get("seed", 0))
    rate, takes = o["rate"], o["takes"]
    jobs = []
    for accent in o["accents"]:
        for variant in o["variants"]:
            for take in range(takes):
                order = [int(i) for i in rng.permutation(len(DIGIT_WORDS))]
                speed, pitch = int(rng.randint(120, 201)), int(rng.randint(25, 76))
                words = [(float(rng.uniform(0.05, 0.25)), float(rng.uniform(0.05, 0.5)), float(rng.uniform(0, 20)), float(rng.uniform()), int(rng.randint(2**31 - 1))) for _ in order]
                jobs.append((f"{accent}+{variant}", take, order, speed, pitch, words))
    text = lambda order: " ".join(DIGIT_WORDS[i] for i in order)
    with ThreadPoolExecutor(max_workers=2) as pool:
        speech = list(pool.map(lambda j: espeak_utterance(o["path"], j[0], j[3], j[4], text(j[2]), 60), jobs))
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    rows = []
    for (speaker, take, order, speed, pitch, words), (x, sr) in zip(jobs, speech):
        for digit, w, (lead, rt60, snr, pink, seed) in zip(order, split_words(x, sr, len(order)), words):
            r = np.random.RandomState(seed)
            g = np.gcd(rate, sr)
            w = resample_poly(w, rate // g, sr // g)
            t = np.arange(int(rt60 * rate)) / rate
            room = r.standard_normal(len(t)) * np.exp(-6.9 * t / rt60)
            room[0] = 1.0
            w = fftconvolve(w, room)[: len(w) + int(0.1 * rate)]
            w = np.concatenate([np.zeros(int(round(lead * rate))), w, np.zeros(int(0.05 * rate))])
            white = r.standard_normal(len(w))
            spectrum = np.fft.rfft(r.standard_normal(len(w)))
            spectrum[1:] /= np.sqrt(np.arange(1, len(spectrum)))
            spectrum[0] = 0.0
            one_over_f = np.fft.irfft(spectrum, len(w))
            noise = (1 - pink) * white / white.std() + pink * one_over_f / (one_over_f.std() + 1e-12)
            w = w + noise / noise.std() * np.sqrt(np.mean(w ** 2) / 10 ** (snr / 10))
            pcm = np.clip(np.round(w * (0.5 * 32767 / np.abs(w).max())), -32768, 32767).astype("<i2")
            name = f"{speaker.replace('+', '_')}_{take}_{digit}.wav"
            with wave.open(os.path.join(out, "files", name), "wb") as f:
                f.setnchannels(1)
                f.setsampwidth(2)
                f.setframerate(rate)
                f.writeframes(pcm.tobytes())
            rows.append({"audio": name, "speaker": speaker, "digit": digit})
    return pd.DataFrame(rows).sort_values("audio", kind="stable").reset_index(drop=True)


def main(out, o):
    os.makedirs(out, exist_ok=True)
    kind = o["kind"]
    if kind == "records":
        df = from_records(o)
    elif kind == "sklearn":
        df = from_sklearn(o)
    elif kind == "fashion-mnist":
        df = from_fashion_mnist(o, out)
    elif kind == "sentiment":
        df = from_sentiment(o)
    elif kind == "spam-assassin":
        df = from_spam_assassin(o)
    elif kind == "espeak-digits":
        df = from_espeak_digits(o, out)
    else:
        raise ValueError(f"unknown raw kind {kind!r}")
    df.to_csv(os.path.join(out, "table.csv"), index=False)
    return {"ok": True, "rows": int(len(df)), "columns": [str(c) for c in df.columns]}


if __name__ == "__main__":
    try:
        res = main(sys.argv[1], json.loads(sys.argv[2]))
    except Exception as e:
        res = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(res) + "\n")
