/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `Html`: text from the document can never become markup by accident.
 */
export class Html {
  constructor(readonly value: string) {}
}

function escapeHtml(text: string): string {
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

/** Source indentation (Prettier lays these templates out as HTML) is dropped from the markup parts only. */
const markup = (part: string): string => part.replace(/\n\s+/g, '\n');

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = markup(strings[0]);
  values.forEach((value, i) => {
    out += toHtml(value) + markup(strings[i + 1]);
  });
  return new Html(out);
}
