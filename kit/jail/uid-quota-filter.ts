import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeDeadProcessEntries } from "../util/index.js";

/**
 * Calls whose kernel quota is kept per host uid, per seccomp audit arch: the keyrings (add_key, request_key, keyctl:
 * 200 keys a uid), inotify instances (inotify_init, inotify_init1: 128 a uid) and POSIX message queues (mq_open: 800
 * KiB a uid). Every sandboxed process runs as the same host uid, so one job holding a quota would stop every other
 * job using it (issue 59). x86-64 also runs i386 and x32 calls (x32: the x86-64 numbers with bit 30 set); arm64 also
 * runs 32-bit ARM (arm64 has no inotify_init).
 */
const X64 = [248, 249, 250, 253, 294, 240];
export const UID_QUOTA_CALLS: Readonly<Record<string, readonly (readonly [number, readonly number[]])[]>> = {
  x64: [
    [0xc000003e, [...X64, ...X64.map((n) => 0x40000000 | n)]],
    [0x40000003, [286, 287, 288, 291, 332, 277]],
  ],
  arm64: [
    [0xc00000b7, [217, 218, 219, 26, 180]],
    [0x40000028, [309, 310, 311, 316, 360, 274]],
  ],
};

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000; // SECCOMP_RET_ALLOW
const EPERM = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM

/**
 * A seccomp program (classic BPF, `struct sock_filter` little-endian: u16 code, u8 jt, u8 jf, u32 k) that refuses
 * the per-uid quota calls with EPERM and allows every other call (issue 59). For each ABI `a` with numbers n₁…n_k:
 *
 *     ld arch; jeq a ? next : skip(1 + 2k + 1); ld nr; (jeq nᵢ ? next : skip 1; ret EPERM)ᵢ; ret ALLOW
 *
 * then `ret ALLOW` for an arch not listed (none exists on these kernels). Refusing beats a per-job share: the
 * kernel has no per-job count for these, only per uid. Docker's default profile refuses the keyring calls too;
 * ML programs use none of them. Null where no table exists for `arch`.
 */
export function uidQuotaFilter(arch: string = process.arch): Buffer | null {
  const abis = UID_QUOTA_CALLS[arch];
  if (!abis) return null;
  const prog: [number, number, number, number][] = [];
  for (const [audit, nrs] of abis) {
    prog.push([LD_W_ABS, 0, 0, 4], [JEQ_K, 0, 1 + 2 * nrs.length + 1, audit], [LD_W_ABS, 0, 0, 0]);
    for (const nr of nrs) prog.push([JEQ_K, 0, 1, nr], [RET_K, 0, 0, EPERM]);
    prog.push([RET_K, 0, 0, ALLOW]);
  }
  prog.push([RET_K, 0, 0, ALLOW]);
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}

let filterFile: string | null | undefined;

/**
 * A read-only fd of the uid-quota filter for one bubblewrap start (`--seccomp FD` reads it to the end), or null
 * where there is no filter for this architecture. The bytes live in one file per user and architecture,
 * `<tmp>/openmle-seccomp-<uid>/uid-quota-<arch>.bpf`, in a folder only this user may enter (checked: a folder
 * someone else made, or opened up, is not used; a private mkdtemp folder is). One file, however many processes:
 * nothing accumulates when a process is killed. The caller hands the fd to the child and closes its copy.
 */
export function openUidQuotaFilter(): number | null {
  if (filterFile === undefined) {
    const bytes = uidQuotaFilter();
    filterFile = bytes ? writeFilter(bytes) : null;
  }
  return filterFile === null ? null : openSync(filterFile, "r");
}

function writeFilter(bytes: Buffer): string {
  const uid = process.getuid?.() ?? 0;
  let dir = join(tmpdir(), `openmle-seccomp-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    /* there already: checked below */
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    // someone else's folder: a private one of this process's, swept by a later process once this one is gone
    removeDeadProcessEntries(tmpdir(), /^openmle-seccomp-p(\d+)-/);
    dir = mkdtempSync(join(tmpdir(), `openmle-seccomp-p${process.pid}-`));
  }
  const file = join(dir, `uid-quota-${process.arch}.bpf`);
  if (!existsSync(file) || !readFileSync(file).equals(bytes)) {
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return file;
}

/** `--seccomp N` for bubblewrap when `fd` (to be the child's fd N) is open; nothing otherwise. */
export function seccompArgs(fd: number | null, childFd: number): string[] {
  return fd === null ? [] : ["--seccomp", String(childFd)];
}

/** Close the parent's copy once the child has it (a no-op for null). */
export function closeFilter(fd: number | null): void {
  if (fd !== null) closeSync(fd);
}
