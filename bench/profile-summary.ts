import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * Where the CPU went in V8 .cpuprofile files (node --cpu-prof, one file per thread), as self time:
 * by category (our code per app/lib folder, node_modules per package, node's own modules, V8
 * builtins, GC, idle), then the top functions. --window keeps only the samples taken inside it
 * (µs on the monotonic clock, as `npm run bench` prints for each target's measured run), and
 * --requests divides by the requests completed there; --cpu gives each thread's CPU µs per
 * request measured meanwhile, to divide among the categories (see print). `npm run bench` with
 * --cpu-prof prints the whole command for each target. docs/benchmarks.md has the recipe.
 */
const USAGE =
  'node dist/bench/profile-summary.js [--window FROM:TO] [--requests N] [--cpu main=µs,worker-1=µs] [--top 30] FILE|DIR…';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const IDLE = 'idle';
const OUR_CODE = /\/(apps|libs)\/([^/]+)\/src\/(?:([^/]+)\/)?/;
const V8_STATES: Record<string, string> = {
  '(garbage collector)': 'GC (on this thread)',
  '(idle)': IDLE,
  '(program)': 'V8/native, not attributed (program)',
  '(root)': '(root)',
};

/**
 * Where a function belongs: a folder of ours, a package, a node module, or a V8 state. Native code
 * (JSON.parse, a socket's writev, postMessage: no url) has no place of its own; the caller's
 * category is charged with it, since that is the code to change.
 */
function categoryOf({ functionName, url }: CallFrame): string {
  if (!url) return V8_STATES[functionName] ?? 'native, no JavaScript caller';
  const packageAt = url.lastIndexOf('/node_modules/');
  if (packageAt >= 0) {
    const [scope, name] = url.slice(packageAt + '/node_modules/'.length).split('/');
    return `npm ${scope.startsWith('@') ? `${scope}/${name}` : scope}`;
  }
  if (url.startsWith('node:')) {
    const module = url
      .replace(/^node:(internal\/)?/, '')
      .split('/')[0]
      .replace(/^_/, '');
    return `node:${/^(http|stream|tls)/.exec(module)?.[1] ?? module}`;
  }
  const ours = OUR_CODE.exec(url);
  if (ours) return [ours[1], ours[2], ours[3]].filter(Boolean).join('/');
  if (url.includes('/bench/')) return 'bench';
  return url; // e.g. [worker eval]: the event store's writer source
}

function where({ functionName, url, lineNumber }: CallFrame): string {
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|dist)\//, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

interface Summary {
  readonly windowMs: number;
  readonly samples: number;
  readonly totalMs: number;
  readonly byCategory: Map<string, number>;
  readonly byFunction: Map<string, { ms: number; category: string }>;
}

/** Category and name of each node; a native function is named with its nearest JavaScript caller. */
function describe(profile: Profile): Map<number, { category: string; name: string }> {
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node);
  const described = new Map<number, { category: string; name: string }>();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    let caller = parents.get(node.id);
    while (!frame.url && !(frame.functionName in V8_STATES) && caller && !caller.callFrame.url)
      caller = parents.get(caller.id);
    const native = !frame.url && !(frame.functionName in V8_STATES) && caller?.callFrame.url;
    described.set(
      node.id,
      native
        ? {
            category: categoryOf(caller!.callFrame),
            name: `${frame.functionName} (native) ← ${where(caller!.callFrame)}`,
          }
        : { category: categoryOf(frame), name: where(frame) },
    );
  }
  return described;
}

/** Self time per node: each sample is charged the time until the next one (as DevTools does). */
function summarise(profile: Profile, window?: { from: number; to: number }): Summary {
  const nodes = describe(profile);
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, { ms: number; category: string }>();
  let at = profile.startTime;
  let samples = 0;
  let totalMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (window && (at < window.from || at >= window.to)) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { category, name } = nodes.get(profile.samples[i])!;
    byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
    const entry = byFunction.get(name) ?? { ms: 0, category };
    byFunction.set(name, { ms: entry.ms + ms, category });
    samples++;
    totalMs += ms;
  }
  const from = Math.max(profile.startTime, window?.from ?? -Infinity);
  const to = Math.min(profile.endTime, window?.to ?? Infinity);
  return { windowMs: (to - from) / 1000, samples, totalMs, byCategory, byFunction };
}

interface PerRequest {
  readonly requests: number;
  /** The thread's CPU µs per request from /proc (what `npm run bench` prints), when known. */
  readonly cpuMicros?: number;
}

/**
 * Samples are taken on a wall-clock timer, so on a busy machine a thread that waits for a core
 * still collects them: the shares are sound, the busy time is not CPU time. Given the thread's CPU
 * per request, the µs column divides that by the shares; otherwise it is wall time per request.
 */
function print(file: string, summary: Summary, top: number, perRequest?: PerRequest): void {
  const idleMs = summary.byCategory.get(IDLE) ?? 0;
  const busyMs = summary.totalMs - idleMs;
  const thread = threadOf(file);
  console.log(
    `\n${file}\n${thread}: ${(summary.windowMs / 1000).toFixed(2)} s, ${summary.samples} samples, ` +
      `busy ${(busyMs / 1000).toFixed(2)} s, idle ${(idleMs / 1000).toFixed(2)} s` +
      (perRequest ? `, ${perRequest.requests} requests` : ''),
  );
  const micros = (ms: number) =>
    perRequest?.cpuMicros !== undefined
      ? (ms / busyMs) * perRequest.cpuMicros
      : (ms * 1000) / (perRequest?.requests ?? NaN);
  const unit = perRequest?.cpuMicros !== undefined ? 'CPU µs/req' : 'wall µs/req';
  const line = (name: string, ms: number, width: number) =>
    `${name.slice(0, width).padEnd(width)} ${ms.toFixed(0).padStart(8)} ms ${((ms / busyMs) * 100).toFixed(1).padStart(6)} %` +
    (perRequest ? ` ${micros(ms).toFixed(1).padStart(8)} ${unit}` : '');
  console.log(`\nself time by category, % of the busy time`);
  const categories = [...summary.byCategory]
    .filter(([category]) => category !== IDLE)
    .sort((a, b) => b[1] - a[1]);
  for (const [category, ms] of categories.slice(0, top)) console.log(`  ${line(category, ms, 52)}`);
  const rest = categories.slice(top);
  if (rest.length)
    console.log(
      `  ${line(
        `(${rest.length} more)`,
        rest.reduce((sum, [, ms]) => sum + ms, 0),
        52,
      )}`,
    );
  console.log(`\ntop ${top} functions by self time`);
  const functions = [...summary.byFunction].filter(([, entry]) => entry.category !== IDLE);
  for (const [name, { ms }] of functions.sort((a, b) => b[1].ms - a[1].ms).slice(0, top))
    console.log(`  ${line(name, ms, 80)}`);
}

/**
 * Node names a profile CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile; thread-names.ts gives
 * worker N the name worker-N, which is how `npm run bench` lists its CPU.
 */
function threadOf(file: string): string {
  const thread = basename(file).split('.')[4];
  return thread === '0' ? 'main' : `worker-${thread}`;
}

function profilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .map((name) => join(path, name));
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      window: { type: 'string' },
      requests: { type: 'string' },
      cpu: { type: 'string' },
      top: { type: 'string', default: '30' },
    },
  });
  if (!positionals.length) throw new Error(`usage: ${USAGE}`);
  const [from, to] = (values.window ?? '').split(':').map(Number);
  const window = values.window ? { from, to } : undefined;
  if (window && !(from < to)) throw new Error(`--window '${values.window}' must be FROM:TO, µs`);
  const requests = values.requests ? Number(values.requests) : undefined;
  // --cpu main=538.5,worker-1=104.1: each thread's CPU µs per request, as the bench printed them.
  const cpu = new Map(
    (values.cpu ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
  for (const file of positionals.flatMap(profilesIn)) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const cpuMicros = cpu.has(threadOf(file)) ? Number(cpu.get(threadOf(file))) : undefined;
    print(
      file,
      summarise(profile, window),
      Number(values.top),
      requests ? { requests, cpuMicros } : undefined,
    );
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
