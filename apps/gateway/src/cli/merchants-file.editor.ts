import { existsSync } from 'node:fs';
import {
  MerchantFileError,
  merchantIdProblem,
  parseMerchants,
  readMerchantsDocument,
  generatePassword,
  hashPassword,
  writeAtomically,
} from '@gateway/merchants';

type Entry = Record<string, unknown>;
type MerchantsDocument = Entry & { merchants: Entry[] };

/** The file as it stands; one the gateway would not load is refused, never extended. */
function readDocument(file: string, missingIsEmpty: boolean): MerchantsDocument {
  const document =
    missingIsEmpty && !existsSync(file) ? { merchants: [] } : readMerchantsDocument(file);
  parseMerchants(document, file);
  return document as MerchantsDocument;
}

/** Checks the edited document as the gateway will, then replaces the file with it. */
function save(file: string, document: MerchantsDocument): void {
  parseMerchants(document, file);
  // Other top-level members and fields of the file are kept as they are.
  writeAtomically(file, JSON.stringify(document, null, 2) + '\n');
}

export interface NewMerchantCredentials {
  readonly password: string;
  readonly notificationSecret: string;
}

const newNotificationSecret = () => generatePassword().toUpperCase();

/** Adds a merchant with fresh credentials; the clear password exists only in the return value. */
export async function addMerchant(
  file: string,
  merchantId: string,
): Promise<NewMerchantCredentials> {
  const idProblem = merchantIdProblem(merchantId);
  if (idProblem) throw new MerchantFileError(idProblem);
  const document = readDocument(file, true);
  if (document.merchants.some((m) => m.id === merchantId)) {
    throw new MerchantFileError(`merchant '${merchantId}' already exists in ${file}`);
  }
  const password = generatePassword();
  const notificationSecret = newNotificationSecret();
  const entry = {
    id: merchantId,
    passwordHash: await hashPassword(password),
    enabled: true,
    notificationSecret,
  };
  save(file, { ...document, merchants: [...document.merchants, entry] });
  return { password, notificationSecret };
}

/**
 * Changes one merchant's entry. `change` returns the fields to set (undefined removes one); the
 * result must pass the same checks as at gateway start-up, or the file stays as it was.
 */
export function updateMerchant(file: string, merchantId: string, change: Entry): void {
  const document = readDocument(file, false);
  const index = document.merchants.findIndex((m) => m.id === merchantId);
  if (index < 0) throw new MerchantFileError(`merchant '${merchantId}' is not in ${file}`);
  const merchants = [...document.merchants];
  const updated: Entry = { ...merchants[index], ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete updated[key];
  merchants[index] = updated;
  save(file, { ...document, merchants });
}

/** A new API password; the old one stops working once the gateway reloads the file. */
export async function rotatePassword(file: string, merchantId: string): Promise<string> {
  const password = generatePassword();
  updateMerchant(file, merchantId, { passwordHash: await hashPassword(password) });
  return password;
}

export function rotateNotificationSecret(file: string, merchantId: string): string {
  const notificationSecret = newNotificationSecret();
  updateMerchant(file, merchantId, { notificationSecret });
  return notificationSecret;
}
