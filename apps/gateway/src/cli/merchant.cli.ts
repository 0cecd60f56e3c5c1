import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { generatePassword, hashPassword } from '../merchant/password-hash';
import {
  defaultMerchantsFile,
  MerchantFileError,
  merchantIdProblem,
  parseMerchants,
  readMerchantsDocument,
} from '../merchant/merchant-registry';

const USAGE = 'usage: merchant add <merchantId> [--file path]';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface NewMerchantCredentials {
  readonly password: string;
  readonly notificationSecret: string;
}

/**
 * Write-then-rename, so that a running gateway or a crash never sees half a file. The file holds
 * hashes and notification secrets: a new one is private to its owner, an existing one keeps its mode.
 */
function writeAtomically(file: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Adds a merchant with fresh credentials; the clear password exists only in the return value. */
export async function addMerchant(
  file: string,
  merchantId: string,
): Promise<NewMerchantCredentials> {
  const idProblem = merchantIdProblem(merchantId);
  if (idProblem) throw new MerchantFileError(idProblem);
  const document = existsSync(file) ? readMerchantsDocument(file) : { merchants: [] };
  // Refuse to extend a file the gateway would not load.
  const existing = parseMerchants(document, file);
  if (existing.some((m) => m.id === merchantId)) {
    throw new MerchantFileError(`merchant '${merchantId}' already exists in ${file}`);
  }
  const password = generatePassword();
  const notificationSecret = generatePassword().toUpperCase();
  const entry = {
    id: merchantId,
    passwordHash: await hashPassword(password),
    enabled: true,
    notificationSecret,
  };
  // Other top-level members of the file are kept as they are.
  const merchants = [...(document as { merchants: unknown[] }).merchants, entry];
  writeAtomically(file, JSON.stringify({ ...(document as object), merchants }, null, 2) + '\n');
  return { password, notificationSecret };
}

function parseArgs(args: readonly string[]): { merchantId: string; file?: string } | undefined {
  const [command, merchantId, ...options] = args;
  if (command !== 'add' || !merchantId || merchantId.startsWith('--')) return undefined;
  if (options.length === 0) return { merchantId };
  if (options.length === 2 && options[0] === '--file' && options[1]) {
    return { merchantId, file: options[1] };
  }
  return undefined;
}

/** Runs `merchant add <merchantId> [--file path]`; returns the process exit code. */
export async function runMerchantCli(
  args: readonly string[],
  output: CliOutput = { out: console.log, err: console.error },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const parsed = parseArgs(args);
  if (!parsed) {
    output.err(USAGE);
    return 2;
  }
  const { merchantId } = parsed;
  const file = parsed.file ? resolve(parsed.file) : defaultMerchantsFile(env);
  try {
    const { password, notificationSecret } = await addMerchant(file, merchantId);
    output.out(`Added merchant ${merchantId} to ${file}.`);
    output.out(`API password (shown only this once): ${password}`);
    output.out(`Notification secret: ${notificationSecret}`);
    if (!merchantId.startsWith('TEST')) {
      output.out(
        'Note: only merchants whose id starts with TEST can transact (simulated acquirer).',
      );
    }
    output.out('Restart the gateway to load the new merchant.');
    return 0;
  } catch (error) {
    if (!(error instanceof MerchantFileError)) throw error;
    output.err(`merchant add: ${error.message}`);
    return 1;
  }
}

if (require.main === module) {
  runMerchantCli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      console.error(`merchant add failed: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
