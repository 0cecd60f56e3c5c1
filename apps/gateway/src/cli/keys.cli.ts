import { join, resolve } from 'node:path';
import { KEY_FILES, type KeyRole } from '../config/data-dir-keys';
import { KeyFileError, readKeyFile } from '../config/key-file';
import { writeKeysFile } from '../config/keys-file';
import type { CliOutput } from './merchant.cli';

const USAGE = `usage: keys new --out <file> [--from-data-dir <dir>]
  new   writes a keys file with every role's key, for GATEWAY_KEYS_FILE on every node;
        --from-data-dir takes the keys a data directory already holds (the others are new)`;

class UsageError extends Error {}

/** `--name value` pairs; each option at most once, nothing else. */
function optionsOf(args: readonly string[]): Map<string, string> {
  const options = new Map<string, string>();
  for (let at = 0; at < args.length; at += 2) {
    const [name, value] = [args[at], args[at + 1]];
    if (!['--out', '--from-data-dir'].includes(name) || !value || options.has(name))
      throw new UsageError();
    options.set(name, value);
  }
  return options;
}

/** The key files a data directory holds, by role: a single node's keys carried into a cluster. */
function dataDirKeys(dir: string): Partial<Record<KeyRole, Buffer>> {
  const keys: Partial<Record<KeyRole, Buffer>> = {};
  for (const [role, file] of Object.entries(KEY_FILES)) {
    const key = readKeyFile(join(dir, file));
    if (key) keys[role as KeyRole] = key;
  }
  return keys;
}

/** Runs `keys new …`; returns the process exit code. */
export function runKeysCli(
  args: readonly string[],
  output: CliOutput = { out: console.log, err: console.error },
): number {
  const [command, ...rest] = args;
  try {
    const options = optionsOf(rest);
    const out = options.get('--out');
    if (command !== 'new' || !out) throw new UsageError();
    const from = options.get('--from-data-dir');
    const given = from ? dataDirKeys(resolve(from)) : {};
    const file = resolve(out);
    writeKeysFile(file, given);
    const taken = Object.keys(given);
    output.out(`Wrote ${file} (readable by its owner only).`);
    if (from)
      output.out(
        `Taken from ${resolve(from)}: ${taken.join(', ') || 'none'}; every other role has a new key.`,
      );
    output.out(
      'Give this same file to every gateway node as GATEWAY_KEYS_FILE, and back it up: the keys cannot be made again.',
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(USAGE);
      return 2;
    }
    if (!(error instanceof KeyFileError)) throw error;
    output.err(`keys ${command}: ${error.message}`);
    return 1;
  }
}

if (require.main === module) process.exitCode = runKeysCli(process.argv.slice(2));
