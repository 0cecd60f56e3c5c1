/**
 * The gateway's address as payers' browsers see it (GATEWAY_PUBLIC_URL), or, when not configured,
 * the address it listens on, which with PORT=0 is known only after listening.
 */
export class PublicUrl {
  private listening?: string;

  constructor(private readonly configured?: string) {}

  listeningAt(url: string): void {
    this.listening = url;
  }

  get value(): string {
    const url = this.configured ?? this.listening;
    if (!url) throw new Error('The gateway is not listening yet');
    return url;
  }
}
