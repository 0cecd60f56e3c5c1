import Fastify from 'fastify';

/** The baseline: a bare Fastify route that parses the same JSON body and echoes it. */
async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.put('/*', async (request, reply) => reply.code(201).send(request.body));
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  // An orderly exit on SIGTERM, so that --cpu-prof (BENCH_NODE_ARGS) writes its profile.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  console.log(`bare fastify listening on ${address}`);
}

void main();
