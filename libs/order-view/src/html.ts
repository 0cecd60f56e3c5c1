/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `Html`: text from the document can never become markup by accident.
 */
export class Html {
  constructor(readonly value: string) {}
}

const SPECIAL = /[&<>"']/;

function escapeHtml(text: string): string {
  // Most values (ids, amounts, dates) have nothing to escape: one scan instead of five passes.
  if (!SPECIAL.test(text)) return text;
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function toHtml(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(toHtml).join('');
  return value === undefined || value === null || value === false ? '' : escapeHtml(String(value));
}

/**
 * Source indentation (Prettier lays these templates out as HTML) is dropped from the markup parts
 * only, once per template: a call site passes the same strings array every time.
 */
const markups = new WeakMap<TemplateStringsArray, readonly string[]>();
function markupOf(strings: TemplateStringsArray): readonly string[] {
  let parts = markups.get(strings);
  if (!parts) markups.set(strings, (parts = strings.map((part) => part.replace(/\n\s+/g, '\n'))));
  return parts;
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const parts = markupOf(strings);
  let out = parts[0];
  values.forEach((value, i) => {
    out += toHtml(value) + parts[i + 1];
  });
  return new Html(out);
}
