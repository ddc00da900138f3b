// A small file the kit reads whole (a queue key, a params file) read with a byte limit: only a regular file, and
// never more than the limit plus one byte. readFileSync follows its argument anywhere: /dev/zero reads until
// memory runs out and a FIFO nobody writes blocks forever (issue 59.5).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { KitError } from "./kit-error.js";

/** The file is not a regular file, or longer than the limit; `reason` says which. */
export class BoundedFileError extends KitError {
  constructor(
    message: string,
    readonly path: string,
    readonly reason: "not-a-file" | "too-large",
  ) {
    super(message);
  }
}

/**
 * The text (UTF-8) of the regular file at `path` when it holds at most `maxBytes` bytes; BoundedFileError otherwise
 * (its message names the file and the limit, without advice: the caller adds its own). Links are followed (a key
 * file may be a link), but what they reach must be a regular file. Opened non-blocking, so a FIFO is refused
 * instead of waiting for a writer. Other errors (missing, unreadable) are Node's own, for the caller to word.
 */
export function readBoundedText(path: string, maxBytes: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new BoundedFileError(
        `${path} is not a regular file (a device, FIFO, socket or folder)`,
        path,
        "not-a-file",
      );
    // Read to the end or one byte past the limit, whatever fstat said (the file may grow meanwhile).
    const chunks: Buffer[] = [];
    let n = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - n));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      n += got;
      if (n > maxBytes)
        throw new BoundedFileError(`${path} holds more than ${maxBytes} bytes, the limit for it`, path, "too-large");
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
