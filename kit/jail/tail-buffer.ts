/**
 * Keeps the last `capBytes` bytes of a stream (plus the first `headBytes`), so a program that
 * prints gigabytes costs a bounded amount of memory. `text()` marks what was dropped.
 */
export class TailBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;

  constructor(
    readonly capBytes: number,
    readonly headBytes = 0,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headLen < this.headBytes) {
      const take = chunk.subarray(0, this.headBytes - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    // Compact once the kept tail is twice the cap (amortised O(1) per byte).
    if (this.tailLen > 2 * this.capBytes) {
      const all = Buffer.concat(this.tail);
      const kept = all.subarray(all.length - this.capBytes);
      this.tail = [Buffer.from(kept)];
      this.tailLen = kept.length;
    }
  }

  get truncated(): boolean {
    return this.total > this.headLen + Math.min(this.tailLen, this.capBytes);
  }

  text(): string {
    const tail = Buffer.concat(this.tail);
    const kept = tail.length > this.capBytes ? tail.subarray(tail.length - this.capBytes) : tail;
    const dropped = this.total - this.headLen - kept.length;
    const head = Buffer.concat(this.head).toString("utf8");
    return dropped > 0
      ? `${head}[... ${dropped} bytes dropped ...]\n${kept.toString("utf8")}`
      : head + kept.toString("utf8");
  }
}
