import type { PublicUrl } from '../config/public-url';
import type { PageTarget, PageTokens } from './page-token';

/** The URLs of the payer's pages, as issued in acsUrl and browserPayment.redirectUrl. */
export class PayerLinks {
  constructor(
    private readonly publicUrl: PublicUrl,
    private readonly tokens: PageTokens,
  ) {}

  challenge(target: Omit<PageTarget, 'kind'>): string {
    return `${this.publicUrl.value}/payer/acs/${this.tokens.issue({ ...target, kind: 'acs' })}`;
  }

  provider(target: Omit<PageTarget, 'kind'>): string {
    return `${this.publicUrl.value}/payer/provider/${this.tokens.issue({ ...target, kind: 'provider' })}`;
  }
}
