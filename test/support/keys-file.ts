import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const KEYS_CLI = resolve(__dirname, '../../dist/apps/gateway/src/cli/keys.cli.js');

/**
 * A cluster keys file made by the built `keys new` command, as an operator would; `env` gives it
 * to a gateway (GATEWAY_KEYS_FILE). Gateways on KurrentDB refuse to start without one.
 */
export function makeKeysFile(): {
  file: string;
  output: string;
  env: { GATEWAY_KEYS_FILE: string };
} {
  const file = join(mkdtempSync(join(tmpdir(), 'gateway-keys-')), 'keys.json');
  const output = execFileSync(process.execPath, [KEYS_CLI, 'new', '--out', file], {
    encoding: 'utf8',
  });
  return { file, output, env: { GATEWAY_KEYS_FILE: file } };
}
