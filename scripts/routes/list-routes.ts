import { createGateway } from '../../apps/gateway/src/main';
import { loadConfig } from '../../apps/gateway/src/config/gateway.config';

type Route = { method: string | string[]; url: string };

/**
 * Prints every route the gateway registers, as `METHOD /path` lines (Fastify's own list, HEAD
 * routes included), without listening: the gateway is made from the environment's configuration
 * (GATEWAY_DATA_DIR, GATEWAY_MERCHANTS_FILE, …), initialised and closed. The OpenAPI coverage test
 * reads it; `node dist/scripts/routes/list-routes.js` shows what a build serves.
 */
async function main(): Promise<void> {
  const app = await createGateway({ ...loadConfig(), logLevel: 'silent' });
  const routes: Route[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route: Route) => void routes.push(route));
  await app.init();
  await app.close();
  const lines = routes.flatMap((r) => [r.method].flat().map((method) => `${method} ${r.url}`));
  process.stdout.write(`${[...new Set(lines)].sort().join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
