import { html, type Html } from './html';

/** Form ids are code constants; letters only, so they read the same in markup and in script. */
export type FormId = 'threedsChallengeRedirectForm' | 'redirectToMerchantForm';

/**
 * A form that the browser posts at once to `action`, with a button for browsers without script.
 * It sends the payer on to the challenge page (redirectHtml) or back to the merchant (behaviour
 * notes, 3-D Secure flow, step 3). `target="_top"` leaves any frame the merchant used.
 */
export function autoPostForm(
  id: FormId,
  action: string,
  fields: Readonly<Record<string, string>>,
  label: string,
): Html {
  return html`<form id="${id}" method="POST" action="${action}" target="_top">
      ${Object.entries(fields).map(
        ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
      )}
      <noscript><button type="submit">${label}</button></noscript>
    </form>
    <script>
      document.getElementById('${id}').submit();
    </script>`;
}
