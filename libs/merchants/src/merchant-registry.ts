import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { CARD_MASKS, holdsCardNumber, redactCardLikeRuns, type CardMask } from '@gateway/domain';
import {
  certificateProblem,
  normaliseCertificate,
  type CertificateMatch,
} from './certificate-match';
import { isEncodedHash, unmatchableHash, verifyPassword } from './password-hash';

export interface Merchant {
  readonly id: string;
  readonly passwordHash: string;
  readonly enabled: boolean;
  /** Sent as X-Notification-Secret with webhooks, and keys their signature. */
  readonly notificationSecret: string;
  /** Behaviour notes: ids starting with TEST are test merchants, served by the simulated acquirer. */
  readonly test: boolean;
  /** The client certificate that authenticates this merchant, if any. */
  readonly certificate?: CertificateMatch;
  readonly permissions: readonly Permission[];
  /** How card numbers show to this merchant under certificate authentication (spec, 6.4 masking). */
  readonly cardMask: CardMask;
  /** Requests per second this merchant may make (0: no limit); GATEWAY_RATE_LIMIT when absent. */
  readonly rateLimit?: number;
}

/** UNMASK: may receive bank account numbers and IBANs in clear (with certificate authentication). */
export const PERMISSIONS = ['UNMASK'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export class MerchantFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerchantFileError';
  }
}

/** The file the gateway and the CLI use unless told otherwise. */
export function defaultMerchantsFile(env = process.env, cwd = process.cwd()): string {
  const file = env.GATEWAY_MERCHANTS_FILE || 'config/merchants.json';
  return isAbsolute(file) ? file : resolve(cwd, file);
}

/**
 * Spec: merchant ids are 1-40 characters from 0-9 a-z A-Z - _. A merchant id is in every path,
 * event and log line, so it must not hold a card number. Returns the problem, if any.
 */
export function merchantIdProblem(id: string): string | undefined {
  if (!/^[0-9A-Za-z_-]{1,40}$/.test(id))
    return `merchant id '${redactCardLikeRuns(id)}' is invalid: use 1-40 characters from 0-9 a-z A-Z - _`;
  if (holdsCardNumber(id))
    return 'a merchant id is invalid: it holds a number that could be a card number';
  return undefined;
}

/** Visible ASCII, as it travels in an HTTP header; long enough to be unguessable. */
const NOTIFICATION_SECRET = /^[\x21-\x7e]{16,256}$/;
const FIELDS = new Set([
  'id',
  'passwordHash',
  'enabled',
  'notificationSecret',
  'certificate',
  'permissions',
  'masking',
  'rateLimit',
]);
const MAX_RATE_LIMIT = 1_000_000;

/** An entry of the merchants file; `test` follows from the id. */
interface MerchantEntry {
  readonly id: string;
  readonly passwordHash: string;
  readonly enabled?: boolean;
  readonly notificationSecret: string;
  readonly certificate?: CertificateMatch;
  readonly permissions?: Permission[];
  readonly masking?: { readonly cardNumber?: CardMask };
}

/** The problems of the optional fields: certificate, permissions, masking. */
function accessProblems(entry: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  const { certificate, permissions, masking } = entry;
  if (certificate !== undefined) {
    const problem = certificateProblem(certificate);
    if (problem) problems.push(`${at}.certificate${problem}`);
  }
  if (
    permissions !== undefined &&
    (!Array.isArray(permissions) ||
      !permissions.every((p) => (PERMISSIONS as readonly unknown[]).includes(p)))
  )
    problems.push(`${at}.permissions must be a list of ${PERMISSIONS.join(', ')}`);
  if (masking !== undefined) {
    const { cardNumber, ...other } = (masking ?? {}) as Record<string, unknown>;
    if (
      typeof masking !== 'object' ||
      masking === null ||
      Object.keys(other).length ||
      (cardNumber !== undefined && !(CARD_MASKS as readonly unknown[]).includes(cardNumber))
    )
      problems.push(`${at}.masking must be { "cardNumber": one of ${CARD_MASKS.join(', ')} }`);
  }
  return problems;
}

/** The problems of one entry of the file, other than a duplicate id. */
function entryProblems(entry: Record<string, unknown>, at: string): string[] {
  const problems = Object.keys(entry)
    .filter((key) => !FIELDS.has(key))
    .map((key) => `${at}.${key} is not a known field`);
  const { id, passwordHash, enabled = true, notificationSecret } = entry;
  if (typeof id !== 'string') problems.push(`${at}.id is missing`);
  else if (merchantIdProblem(id)) problems.push(`${at}: ${merchantIdProblem(id)}`);
  if (passwordHash === undefined) problems.push(`${at}.passwordHash is missing`);
  else if (typeof passwordHash !== 'string' || !isEncodedHash(passwordHash)) {
    problems.push(`${at}.passwordHash is not a scrypt$N$r$p$salt$hash string`);
  }
  if (typeof enabled !== 'boolean') problems.push(`${at}.enabled must be true or false`);
  if (notificationSecret === undefined) problems.push(`${at}.notificationSecret is missing`);
  else if (
    typeof notificationSecret !== 'string' ||
    !NOTIFICATION_SECRET.test(notificationSecret)
  ) {
    problems.push(`${at}.notificationSecret must be 16-256 visible ASCII characters`);
  }
  const { rateLimit } = entry;
  if (
    rateLimit !== undefined &&
    !(
      Number.isInteger(rateLimit) &&
      (rateLimit as number) >= 0 &&
      (rateLimit as number) <= MAX_RATE_LIMIT
    )
  ) {
    problems.push(
      `${at}.rateLimit must be a whole number of requests per second from 0 to ${MAX_RATE_LIMIT}`,
    );
  }
  return [...problems, ...accessProblems(entry, at)];
}

/** The merchant an entry without problems describes. */
function merchantOf(entry: MerchantEntry): Merchant {
  const { certificate, permissions, masking, enabled, ...rest } = entry;
  return {
    ...rest,
    enabled: enabled ?? true,
    test: entry.id.startsWith('TEST'),
    ...(certificate ? { certificate: normaliseCertificate(certificate) } : {}),
    permissions: [...new Set(permissions ?? [])],
    cardMask: masking?.cardNumber ?? '6.4',
  };
}

/**
 * Checks a parsed merchants file and reports every problem at once. Unknown fields are refused
 * so that a misspelt one ("passwordhash") cannot be silently ignored.
 */
export function parseMerchants(document: unknown, source: string): Merchant[] {
  const entries = (document as { merchants?: unknown } | null)?.merchants;
  if (typeof document !== 'object' || !Array.isArray(entries)) {
    throw new MerchantFileError(`${source}: expected an object with a "merchants" array`);
  }
  const problems: string[] = [];
  const merchants: Merchant[] = [];
  const firstIndex = new Map<string, number>();
  entries.forEach((entry: unknown, index) => {
    const at = `merchants[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const own = entryProblems(entry as Record<string, unknown>, at);
    const valid = entry as MerchantEntry; // trusted only once `own` is empty
    const { id } = valid;
    if (typeof id === 'string' && firstIndex.has(id)) {
      own.push(`${at}.id '${id}' duplicates merchants[${firstIndex.get(id)}]`);
    } else if (typeof id === 'string') firstIndex.set(id, index);
    problems.push(...own);
    if (own.length) return;
    merchants.push(merchantOf(valid));
  });
  if (problems.length) {
    throw new MerchantFileError(`${source} is invalid:\n  - ${problems.join('\n  - ')}`);
  }
  return merchants;
}

/** The file's JSON, unchecked; a read or syntax failure names the file. */
export function readMerchantsDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MerchantFileError(`Cannot read merchants file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MerchantFileError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The merchants the gateway knows, and their authentication.
 *
 * scrypt takes ~50 ms of CPU per check, far too slow for every request of a busy merchant, so a
 * password that scrypt has accepted is remembered as a keyed digest (SHA-256 of a key drawn at
 * random for this process, then the credentials; an HMAC cost 3-5 times as much per request, and
 * these digests never leave the process, so length extension has nothing to extend): the cache
 * never holds a clear password, and its digests are useless outside the process. A request whose
 * digest equals the remembered one is accepted after a
 * constant-time comparison; any other password (every wrong one) goes through full scrypt, as do
 * unknown and disabled merchants, against a hash nothing matches, so timing reveals neither which
 * merchants exist nor anything about a password. Identical checks in flight at the same moment
 * share one scrypt run, so a burst of requests from a merchant that has just started costs one.
 */
export class MerchantRegistry {
  private byId: ReadonlyMap<string, Merchant>;
  private readonly digestKey = randomBytes(32).toString('hex');
  private readonly verified = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly reloaded = new Set<() => void>();
  /** What unknown and disabled merchants are checked against, at the same cost. */
  private readonly unmatchableHash = unmatchableHash();

  constructor(merchants: readonly Merchant[]) {
    this.byId = new Map(merchants.map((m) => [m.id, m]));
  }

  static load(file: string): MerchantRegistry {
    return new MerchantRegistry(parseMerchants(readMerchantsDocument(file), file));
  }

  /**
   * Replaces the merchants with those of the file (the admin CLI's changes, on SIGHUP). A file
   * with problems throws and changes nothing. Remembered passwords are forgotten, so a rotated
   * password stops working at once.
   */
  reload(file: string): void {
    const merchants = parseMerchants(readMerchantsDocument(file), file);
    this.byId = new Map(merchants.map((m) => [m.id, m]));
    this.verified.clear();
    for (const listener of this.reloaded) listener();
  }

  /** Calls `listener` after every reload (open feeds re-check their credentials); returns its removal. */
  onReload(listener: () => void): () => void {
    this.reloaded.add(listener);
    return () => this.reloaded.delete(listener);
  }

  find(merchantId: string): Merchant | undefined {
    return this.byId.get(merchantId);
  }

  /** The enabled merchant whose password this is, or undefined. */
  async authenticate(merchantId: string, password: string): Promise<Merchant | undefined> {
    const remembered = this.remembered(merchantId, password);
    if (remembered) return remembered;
    const found = this.byId.get(merchantId);
    const merchant = found?.enabled ? found : undefined;
    const digest = this.digestOf(merchantId, password);
    const valid = await this.verifyShared(
      digest,
      password,
      merchant?.passwordHash ?? this.unmatchableHash,
    );
    if (!merchant || !valid) return undefined;
    // Not if a reload replaced the merchant while scrypt ran: its password may have changed.
    if (this.byId.get(merchant.id) === merchant) this.verified.set(merchant.id, digest);
    return merchant;
  }

  /**
   * The enabled merchant, when this is the password scrypt last accepted for it: answered at
   * once, without scrypt, so a caller can accept it without starting a password check.
   */
  remembered(merchantId: string, password: string): Merchant | undefined {
    const merchant = this.byId.get(merchantId);
    const remembered = merchant?.enabled && this.verified.get(merchant.id);
    return remembered && sameDigest(remembered, this.digestOf(merchantId, password))
      ? merchant
      : undefined;
  }

  /** Whether a check of this password, started by authenticate(), is still running. */
  isChecking(merchantId: string, password: string): boolean {
    return this.inFlight.has(this.digestOf(merchantId, password));
  }

  /** Hex: compared and used as a map key as it is. */
  private digestOf(merchantId: string, password: string): string {
    return hash('sha256', `${this.digestKey}${merchantId}\0${password}`, 'hex');
  }

  private verifyShared(key: string, password: string, encoded: string): Promise<boolean> {
    let check = this.inFlight.get(key);
    if (!check) {
      check = verifyPassword(password, encoded).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, check);
    }
    return check;
  }
}

/** Two hex digests of one length compared in constant time (no early exit on a difference). */
function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
