import { buildOpenApiDocument } from '@gateway/contract';
import { DELIVERY_STATUSES } from '@gateway/webhooks';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { MAIN, makeDataDir } from '../../support/gateway-process';

/**
 * Issue 14: the OpenAPI document lists every path the gateway serves to merchants. The built
 * gateway is made in this process (not listened on) so that Fastify reports every route it
 * registers; each merchant route (under /api/rest/) must be in the document with its method,
 * and the document must promise no route the gateway does not serve. A path a later issue adds
 * without documenting it fails here.
 */
const LIST_ROUTES = join(MAIN, '../../../../scripts/routes/list-routes.js');
const METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'PATCH']);

/** The merchant routes (under /api/rest/) the built gateway registers, as `METHOD /path/{param}`. */
async function registeredMerchantRoutes(): Promise<string[]> {
  const dataDir = await makeDataDir();
  const lines = execFileSync(process.execPath, [LIST_ROUTES], {
    env: {
      ...process.env,
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_MERCHANTS_FILE: join(dataDir, 'merchants.json'),
    },
    encoding: 'utf8',
  });
  return lines
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([method, url]) => METHODS.has(method) && url?.startsWith('/api/rest/'))
    .map(([method, url]) => `${method} ${url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
    .sort();
}

function documentedRoutes(): string[] {
  const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.has(key.toUpperCase()))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

describe('the OpenAPI document and the routes the gateway serves', () => {
  it('documents every merchant route, and no route that is not served', async () => {
    const served = await registeredMerchantRoutes();
    expect(served.length).toBeGreaterThanOrEqual(14);
    expect(documentedRoutes()).toEqual(served);
  });

  it('lists the delivery statuses the webhook delivery log has', () => {
    const paths = buildOpenApiDocument().paths as Record<string, any>;
    const list = paths['/api/rest/version/{version}/merchant/{merchantId}/webhook/delivery'].get;
    const status = list.parameters.find((p: { name: string }) => p.name === 'status');
    expect(status.schema.enum).toEqual([...DELIVERY_STATUSES]);
  });
});
