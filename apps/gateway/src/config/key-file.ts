import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A 256-bit key, written as base64 (44 characters); surrounding whitespace is ignored. */
export const KEY_TEXT = /^[A-Za-z0-9+/]{43}=$/;
export const KEY_BYTES = 32;

/** A key file that cannot be used: the message names the file and what is wrong with it. */
export class KeyFileError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`Key file ${file} ${problem}`);
    this.name = 'KeyFileError';
  }
}

/** The key a file holds; undefined when there is no such file. Never a key it does not hold. */
export function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new KeyFileError(file, `cannot be read (${code ?? (error as Error).message})`);
  }
  // Lengths only: the message must never quote what may be (part of) a secret.
  if (!text) throw new KeyFileError(file, `is empty: ${WHAT_IT_HOLDS}`);
  if (!KEY_TEXT.test(text))
    throw new KeyFileError(file, `holds ${text.length} characters: ${WHAT_IT_HOLDS}`);
  return Buffer.from(text, 'base64');
}

const WHAT_IT_HOLDS = `it must hold a ${KEY_BYTES * 8}-bit key as 44 characters of base64`;

/**
 * Makes a new random key in `file` unless a key is there already, and returns the one the file
 * then holds. The key is written and fsynced under a name of its own, then linked into place:
 * link() refuses to replace, so of processes racing on a fresh directory exactly one key wins,
 * the others read it, and no one ever sees a half-written file.
 */
export function makeKeyFile(file: string): Buffer {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(8).toString('hex')}.new`);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, randomBytes(KEY_BYTES).toString('base64'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    syncDirectory(dirname(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KeyFileError(file, `cannot be made (${code ?? (error as Error).message})`);
  } finally {
    unlinkQuietly(temp);
  }
  return readKeyFile(file)!;
}

/** The new directory entry survives a power cut only once the directory itself is synced. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Never made (the open failed): nothing to remove.
  }
}
