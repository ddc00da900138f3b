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


def espeak_utterance(espeak, voice, speed, pitch, text):
    """16-bit mono samples of espeak-ng saying `text`, and the sample rate. espeak-ng streams a WAV
    to stdout with placeholder sizes: the samples are everything after the data chunk's header."""
    import subprocess
    b = subprocess.run([espeak, "-v", voice, "-s", str(speed), "-p", str(pitch), "--stdout", text], check=True, capture_output=True).stdout
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE" or b[36:40] != b"data":
        raise ValueError(f"{espeak} did not write a 44-byte-header WAV for {voice!r}")
    rate, channels, bits = int.from_bytes(b[24:28], "little"), int.from_bytes(b[22:24], "little"), int.from_bytes(b[34:36], "little")
    if channels != 1 or bits != 16:
        raise ValueError(f"{espeak} wrote {channels} channels of {bits} bits; expected 16-bit mono")
    return np.frombuffer(b[44:], dtype="<i2").astype(np.float64), rate


def from_espeak_digits(o, out):
    """Synthesised spoken digits (the recipe, also in data/README.md): every (accent, variant) voice
    says each digit word `takes` times, each take at a speed, pitch, onset, room and noise level
    drawn from a seeded RNG. A take is trimmed to the speech, resampled to `rate` Hz, convolved with
    a synthetic room response (exponentially decaying noise, RT60 0.05-0.5 s), given 50-250 ms of
    leading silence, mixed with noise (white and 1/f in a random proportion) at an SNR of 0-20 dB,
    peak-normalised to half scale and written as 16-bit PCM WAV."""
    import wave
    from concurrent.futures import ThreadPoolExecutor
    from scipy.signal import fftconvolve, resample_poly
    rng = np.random.RandomState(o.get("seed", 0))
    rate, takes = o["rate"], o["takes"]
    jobs = []
    for accent in o["accents"]:
        for variant in o["variants"]:
            for take in range(takes):
                for digit, word in enumerate(DIGIT_WORDS):
                    speed, pitch = int(rng.randint(120, 201)), int(rng.randint(25, 76))
                    lead, rt60, snr, pink = (float(v) for v in (rng.uniform(0.05, 0.25), rng.uniform(0.05, 0.5), rng.uniform(0, 20), rng.uniform()))
                    jobs.append((accent, variant, take, digit, word, speed, pitch, lead, rt60, snr, pink, int(rng.randint(2**31 - 1))))
    with ThreadPoolExecutor(max_workers=2) as pool:
        speech = list(pool.map(lambda j: espeak_utterance(o["path"], f"{j[0]}+{j[1]}", j[5], j[6], j[4]), jobs))
    os.makedirs(os.path.join(out, "files"), exist_ok=True)
    rows = []
    for (accent, variant, take, digit, word, speed, pitch, lead, rt60, snr, pink, seed), (x, sr) in zip(jobs, speech):
        r = np.random.RandomState(seed)
        loud = np.flatnonzero(np.abs(x) > 0.02 * np.abs(x).max())
        x = x[loud[0]: loud[-1] + 1]
        g = np.gcd(rate, sr)
        x = resample_poly(x, rate // g, sr // g)
        t = np.arange(int(rt60 * rate)) / rate
        room = r.standard_normal(len(t)) * np.exp(-6.9 * t / rt60)
        room[0] = 1.0
        x = fftconvolve(x, room)[: len(x) + int(0.1 * rate)]
        x = np.concatenate([np.zeros(int(round(lead * rate))), x, np.zeros(int(0.05 * rate))])
        white = r.standard_normal(len(x))
        spectrum = np.fft.rfft(r.standard_normal(len(x)))
        spectrum[1:] /= np.sqrt(np.arange(1, len(spectrum)))
        spectrum[0] = 0.0
        one_over_f = np.fft.irfft(spectrum, len(x))
        noise = (1 - pink) * white / white.std() + pink * one_over_f / (one_over_f.std() + 1e-12)
        x = x + noise / noise.std() * np.sqrt(np.mean(x ** 2) / 10 ** (snr / 10))
        pcm = np.clip(np.round(x * (0.5 * 32767 / np.abs(x).max())), -32768, 32767).astype("<i2")
        speaker = f"{accent}+{variant}"
        name = f"{speaker.replace('+', '_')}_{take}_{digit}.wav"
        with wave.open(os.path.join(out, "files", name), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(pcm.tobytes())
        rows.append({"audio": name, "speaker": speaker, "digit": digit})
    return pd.DataFrame(rows)


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
