import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version of the gateway as package.json gives it: the nearest package.json above this file,
 * which is the project's both from the sources (tests) and from dist/ (dist has none of its own).
 */
export function gatewayVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file))
      return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version);
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
