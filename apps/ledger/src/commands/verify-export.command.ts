import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../ledger-args';
import type { LedgerOutput } from '../ledger-context';
import { publicKeyOf } from '../proofs/checkpoint';
import { AuditVerifier } from '../proofs/verify-audit';

/**
 * `verify-export FILE --public-key K`: an auditor's offline check of an audit export (no data
 * directory, no store, no gateway): prints each problem naming its line; exit 1 when there is any.
 * K is the ledger's public key as `ledger public-key` prints it, or a file holding it.
 */
export async function verifyExport(
  positional: readonly string[],
  publicKey: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  if (positional.length !== 1) throw new UsageError('verify-export takes one FILE');
  if (publicKey === undefined) throw new UsageError('verify-export needs --public-key K');
  const [file] = positional;
  if (!existsSync(file)) throw new UsageError(`no file ${file}`);
  const verifier = new AuditVerifier(keyOf(publicKey));
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) verifier.add(line);
  const report = verifier.finish();
  for (const problem of report.problems) io.out.write(`FAILED ${problem}\n`);
  const range = report.header
    ? `positions ${report.header.firstPosition} to ${report.header.lastPosition}`
    : 'no header';
  io.out.write(
    `${report.events} events (${range}), ${report.checkpoints} signed checkpoints: ` +
      `${report.problems.length ? 'NOT verified' : 'verified'}\n`,
  );
  return report.problems.length ? 1 : 0;
}

function keyOf(text: string): KeyObject {
  const direct = publicKeyOf(text);
  if (direct) return direct;
  const inFile = existsSync(text) ? publicKeyOf(readFileSync(text, 'utf8').trim()) : undefined;
  if (inFile) return inFile;
  throw new UsageError(
    '--public-key must be the ledger public key (44 characters of base64, as `ledger public-key` prints it) or a file holding it',
  );
}
