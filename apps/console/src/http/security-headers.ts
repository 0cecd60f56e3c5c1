import type { FastifyInstance } from 'fastify';

/**
 * Every answer: only this origin's resources (no script at all is served, inline or not), never
 * framed, no referrer to other sites, no sniffing, and pages not cached (they show account data).
 */
const HEADERS = {
  'content-security-policy':
    "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function securityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (_request, reply, payload) => {
    void reply.headers(HEADERS);
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** Forms arrive urlencoded: parsed into URLSearchParams, 16 KiB at most. */
export function formBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}
