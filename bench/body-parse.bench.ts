import { scanJsonShape, withNumberLiterals } from '@gateway/contract';
import { authorizeBody, authorizeBodyWithNumbers } from './authorize-body';

/**
 * The body parse of a merchant PUT, as the gateway does it (http/fastify-setup.ts and the
 * transaction controller): the shape scan, JSON.parse, and for a body holding numbers the
 * literals read back from its text (issue 14). µs of one thread per body, the median of 7 rounds.
 * Printed by `npm run bench`; alone: `npm run build && node dist/bench/body-parse.bench.js`.
 */
function parse(text: string): unknown {
  const shape = scanJsonShape(text);
  const body = JSON.parse(text) as Record<string, unknown>;
  return shape.holdsNumbers ? withNumberLiterals(100, body, text) : body;
}

function microsPerCall(text: string, calls = 20_000): number {
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) parse(text);
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  return rounds.sort((a, b) => a - b)[3];
}

export function printBodyParseFigures(): void {
  microsPerCall(authorizeBodyWithNumbers, 5_000); // warm-up
  const strings = microsPerCall(authorizeBody);
  const numbers = microsPerCall(authorizeBodyWithNumbers);
  console.log(
    `\nbody parse (shape scan, JSON.parse, number literals), µs per body: ` +
      `every field a string ${strings.toFixed(2)}, amount and card digits as numbers ${numbers.toFixed(2)}`,
  );
}

if (require.main === module) printBodyParseFigures();
