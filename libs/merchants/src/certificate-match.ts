import type { X509Certificate } from 'node:crypto';

/**
 * How a merchant's client certificate is recognised: by its SHA-256 fingerprint (hex, colons and
 * case optional), or by its subject distinguished name (`CN=Shop,O=Example`; attribute order and
 * spaces around separators do not matter). Exactly one of the two.
 */
export interface CertificateMatch {
  readonly fingerprint256?: string;
  readonly subject?: string;
}

const FINGERPRINT = /^(?:[0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/;

/** What is wrong with a `certificate` entry, if anything, phrased to follow its path. */
export function certificateProblem(value: unknown): string | undefined {
  const shape = ' must be { "fingerprint256": "AB:CD:…" } or { "subject": "CN=…" }';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return shape;
  const { fingerprint256, subject, ...other } = value as Record<string, unknown>;
  if (Object.keys(other).length || (fingerprint256 === undefined) === (subject === undefined))
    return shape;
  if (
    fingerprint256 !== undefined &&
    (typeof fingerprint256 !== 'string' || !FINGERPRINT.test(fingerprint256))
  )
    return '.fingerprint256 must be 32 bytes in hex (the SHA-256 fingerprint)';
  if (subject !== undefined && (typeof subject !== 'string' || !/^[^=,\n]+=/.test(subject.trim())))
    return '.subject must be a distinguished name such as CN=Shop,O=Example';
  return undefined;
}

/** Node prints fingerprints as upper-case hex pairs joined by colons. */
function fingerprintForm(hex: string): string {
  return hex
    .replace(/:/g, '')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');
}

/** One attribute per line, sorted: `O=Example\nCN=Shop` and `CN=Shop, O=Example` compare equal. */
function subjectForm(subject: string): string {
  return subject
    .split(/\n|,(?=\s*[A-Za-z0-9.]+=)/)
    .map((part) => part.trim())
    .filter(Boolean)
    .sort()
    .join('\n');
}

export function normaliseCertificate(match: CertificateMatch): CertificateMatch {
  return match.fingerprint256 !== undefined
    ? { fingerprint256: fingerprintForm(match.fingerprint256) }
    : { subject: subjectForm(match.subject!) };
}

/** True when the certificate is the one a normalised match names. */
export function matchesCertificate(match: CertificateMatch, certificate: X509Certificate): boolean {
  if (match.fingerprint256 !== undefined)
    return certificate.fingerprint256 === match.fingerprint256;
  return subjectForm(certificate.subject) === match.subject;
}
