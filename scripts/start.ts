import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm start`: the gateway, then the console (apps never import each other, so they are two
 * processes), both with this environment. Prints the console's link once it listens. Ctrl-C or
 * SIGTERM stops both; either one ending stops the other, and the launcher exits with its code.
 */
const DIST = join(__dirname, '..');
const LISTENING = /listening on (https?:\/\/\S+?)\/? /;

/** Every app started, stopped together. */
const children: ChildProcess[] = [];

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Runs a built app, passing its output through, until it says where it listens. */
function start(name: string, script: string, env = process.env): Promise<Started> {
  const child = spawn(process.execPath, [join(DIST, script)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const watch = (chunk: Buffer) => {
      seen += chunk.toString();
      const found = LISTENING.exec(seen);
      if (!found) return;
      child.stdout!.off('data', watch);
      resolve({ child, url: found[1] });
    };
    child.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk));
    child.stdout!.on('data', watch);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
}

async function main(): Promise<void> {
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    const running = children.filter(
      (child) => child.exitCode === null && child.signalCode === null,
    );
    let left = running.length;
    if (left === 0) process.exit(code);
    for (const child of running) {
      child.once('exit', () => --left === 0 && process.exit(code));
      child.kill('SIGTERM');
    }
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  try {
    const gateway = await start('the gateway', 'apps/gateway/src/main.js');
    gateway.child.once('exit', (code) => stop(code ?? 1));
    // The console asks this gateway's operator API (redeliveries, test disputes) unless told another.
    const console_ = await start('the console', 'apps/console/src/main.js', {
      ...process.env,
      GATEWAY_URL: process.env.GATEWAY_URL || gateway.url,
    });
    console_.child.once('exit', (code) => stop(code ?? 1));
    console.log(
      `\nConsole: ${console_.url}/ (demo users in README.md, "Console"). Gateway: ${gateway.url}. Ctrl-C stops both.\n`,
    );
  } catch (error) {
    console.error((error as Error).message);
    stop(1);
  }
}

void main();
