import type { AuditedLog, LedgerOutput } from '../ledger-context';
import { UsageError } from '../ledger-args';
import { publicKeyText, signCheckpoint } from '../proofs/checkpoint';
import { keepCheckpoint } from '../proofs/checkpoints-file';
import { loadSigningKey } from '../proofs/signing-key';
import { verify } from './verify.command';

/**
 * `checkpoint`: checks the hash chain (as `verify` does), then signs the log's head with the
 * ledger key and keeps it in the data directory (run it from cron: every later audit export of a
 * range holding that position carries it). A log that fails the check is not signed for.
 */
export async function checkpoint(
  audited: AuditedLog,
  dataDir: string,
  io: LedgerOutput,
): Promise<number> {
  const log = embeddedLog(audited);
  const key = loadSigningKey(dataDir);
  if ((await verify(audited, undefined, dataDir, io)) !== 0) {
    io.err.write('not signed: the log fails its check\n');
    return 1;
  }
  const head = await log.headPosition();
  if (head === undefined) {
    io.err.write('the log is empty: nothing to sign\n');
    return 1;
  }
  const [row] = log.chainedRows(head, head);
  const signed = signCheckpoint(key, {
    position: String(head),
    hash: row.hash,
    signedAt: new Date().toISOString(),
  });
  keepCheckpoint(dataDir, signed);
  io.out.write(
    `signed checkpoint position ${signed.position} hash ${signed.hash} at ${signed.signedAt}\n` +
      `public key ${publicKeyText(key)}\n`,
  );
  return 0;
}

/** `public-key`: the public half of the ledger key, to give auditors (out of band). */
export function publicKey(dataDir: string, io: LedgerOutput): number {
  io.out.write(`${publicKeyText(loadSigningKey(dataDir))}\n`);
  return 0;
}

/** Signed checkpoints cover the embedded store's log-wide chain; KurrentDB chains streams only. */
export function embeddedLog(audited: AuditedLog) {
  if (audited.kind !== 'sqlite')
    throw new UsageError(
      'signed checkpoints need the embedded store: on KurrentDB each stream is chained alone, no head covers the log',
    );
  return audited.log;
}
