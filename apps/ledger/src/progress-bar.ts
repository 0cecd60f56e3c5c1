/**
 * A one-line progress bar with a rate, drawn on stderr only when it is a terminal (a pipe or a
 * log file gets nothing), redrawn at most ten times a second.
 */
export class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private readonly enabled: boolean;

  constructor(
    private readonly label: string,
    private readonly unit: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = stream.isTTY === true;
  }

  /** `fraction` of the work done, `count` items so far. */
  update(fraction: number, count: number): void {
    const now = performance.now();
    if (!this.enabled || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const width = 30;
    const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
    const rate = Math.round(count / Math.max((now - this.started) / 1000, 0.001));
    this.stream.write(
      `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(1)}% ` +
        `${count.toLocaleString('en')} ${this.unit} ${rate.toLocaleString('en')} ${this.unit}/s\x1b[K`,
    );
  }

  done(): void {
    if (this.enabled) this.stream.write('\r\x1b[K');
  }
}
