import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startNodeProcess } from '../support/gateway-process';

/**
 * `npm start`'s launcher (scripts/start.ts): the gateway, then the console, the console's link
 * printed, and both stopped together by one SIGTERM.
 */
const LAUNCHER = resolve(__dirname, '../../dist/scripts/start.js');

const answers = (url: string) =>
  fetch(url, { redirect: 'manual' }).then(
    (response) => response.status,
    () => 'refused',
  );

it('starts the gateway and the console, prints the link, and stops both on SIGTERM', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'launcher-'));
  const launcher = await startNodeProcess(
    'launcher',
    LAUNCHER,
    { PORT: '0', CONSOLE_PORT: '0', GATEWAY_DATA_DIR: dataDir },
    /Console: (http:\/\/127\.0\.0\.1:\d+)\/ .*Gateway: (http:\/\/127\.0\.0\.1:\d+)\./,
  );
  const [, consoleUrl, gatewayUrl] = launcher.ready;
  expect(await answers(`${consoleUrl}/`)).toBe(303); // to the sign-in page
  expect(await answers(`${gatewayUrl}/health/live`)).toBe(200);
  expect(await launcher.stop('SIGTERM')).toBe(0);
  expect(await answers(`${consoleUrl}/`)).toBe('refused');
  expect(await answers(`${gatewayUrl}/health/live`)).toBe('refused');
});
