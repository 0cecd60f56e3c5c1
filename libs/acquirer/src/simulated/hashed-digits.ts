import { hash } from 'node:crypto';

/** Each hex digit folded to a decimal digit (its value modulo 10), by character code. */
const DECIMAL_OF_HEX: Readonly<Record<string, string>> = Object.fromEntries(
  [...'0123456789abcdef'].map((hex) => [hex, String(parseInt(hex, 16) % 10)]),
);

/**
 * Numbers derived from `seed` (a transaction's ids), so that a replay gets the same: one SHA-256
 * gives 64 hex digits, each folded to a decimal digit, and each number takes its own slice.
 */
export function hashedDigits(seed: string): (offset: number, length: number) => string {
  const hex = hash('sha256', seed, 'hex');
  return (offset, length) => {
    let digits = '';
    for (let i = offset; i < offset + length; i++) digits += DECIMAL_OF_HEX[hex[i]];
    return digits;
  };
}
