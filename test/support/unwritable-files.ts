import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Files a process cannot write, and a disk that is full, without mounts: CI runs as root, which
 * ignores file modes, so a file is made read-only with chmod and, under root, the immutable
 * attribute (`chattr +i`, which root must obey); a full disk is a file-size limit set on the
 * running process (`prlimit --fsize`: writes past it fail with EFBIG, which SQLite reports as a
 * full disk or an I/O error), lifted again to free the "disk".
 */
const root = process.getuid?.() === 0;

function missing(): string | undefined {
  if (spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status !== 0)
    return 'prlimit (util-linux) is missing';
  if (!root) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'chattr-'));
  const file = join(dir, 'probe');
  writeFileSync(file, '');
  try {
    execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'running as root, and chattr +i is not permitted here (CAP_LINUX_IMMUTABLE, or a file system without it)';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `describe`, or a loudly skipped one where files cannot be made unwritable (a failure under CI). */
export function describeWithUnwritableFiles(): jest.Describe {
  const reason = missing();
  if (!reason) return describe;
  if (process.env.CI === 'true') throw new Error(`unwritable-file suites cannot run: ${reason}`);
  console.warn(`SKIPPING an unwritable-file suite: ${reason}`);
  return describe.skip;
}

export function makeReadOnly(file: string): void {
  chmodSync(file, 0o444);
  if (root) execFileSync('chattr', ['+i', file]);
}

export function makeWritable(file: string): void {
  if (root) execFileSync('chattr', ['-i', file]);
  chmodSync(file, 0o644);
}

/** Writes by process `pid` to any file fail past `bytes` (1: every write), as on a full disk. */
export function fillDisk(pid: number, bytes = 1): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:`]);
}

export function freeDisk(pid: number): void {
  execFileSync('prlimit', ['--pid', String(pid), '--fsize=unlimited:']);
}
