import { SingleBar } from 'cli-progress';

/**
 * A one-line progress bar with a rate, drawn by cli-progress on stderr only when it is a terminal
 * (a pipe or a log file gets nothing: cli-progress's default, noTTYOutput off), redrawn at most
 * ten times a second. The bar counts thousandths of the work; the payload carries the items.
 */
export class ProgressBar {
  private readonly started = performance.now();
  private readonly bar: SingleBar;

  constructor(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr) {
    this.bar = new SingleBar({
      stream,
      fps: 10,
      barsize: 30,
      barCompleteChar: '#',
      barIncompleteChar: '.',
      clearOnComplete: true,
      format: `${label} [{bar}] {percentage}% {count} ${unit} {rate} ${unit}/s`,
    });
    this.bar.start(STEPS, 0, { count: '0', rate: '0' });
    LIVE.add(this);
  }

  /** `fraction` of the work done, `count` items so far. */
  update(fraction: number, count: number): void {
    const seconds = Math.max((performance.now() - this.started) / 1000, 0.001);
    this.bar.update(Math.round(Math.min(1, Math.max(0, fraction)) * STEPS), {
      count: count.toLocaleString('en'),
      rate: Math.round(count / seconds).toLocaleString('en'),
    });
  }

  /** Clears the line; always called, as the bar's redraw timer would keep the process alive. */
  done(): void {
    this.bar.stop();
    LIVE.delete(this);
  }
}

/** Bars a failed command left drawing: stopped by the CLI before it exits, whatever happened. */
const LIVE = new Set<ProgressBar>();

export function stopProgressBars(): void {
  for (const bar of LIVE) bar.done();
}

const STEPS = 1000;
