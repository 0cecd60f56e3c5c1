import { join, resolve } from 'node:path';
import { startNodeProcess, type RunningProcess } from './gateway-process';

const MAIN = resolve(__dirname, '../../dist/apps/webhook-dispatcher/src/main.js');

export interface RunningDispatcher extends RunningProcess {
  /** http://127.0.0.1:{port} of /metrics and /health. */
  readonly opsUrl: string;
}

/** Starts the built standalone webhook dispatcher on a gateway's data directory. */
export async function startDispatcher(
  dataDir: string,
  env: Record<string, string>,
): Promise<RunningDispatcher> {
  const started = await startNodeProcess(
    'webhook dispatcher',
    MAIN,
    {
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_MERCHANTS_FILE: join(dataDir, 'merchants.json'),
      GATEWAY_DISPATCHER_PORT: '0',
      ...env,
    },
    /webhook dispatcher running.* on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  return { ...started, opsUrl: started.ready[1] };
}
