import { html, Html } from '../src/html';

describe('html`…`', () => {
  const row = (cell: unknown) =>
    html`<tr>
      <td>${cell}</td>
    </tr>`;

  it('escapes every interpolated value that is not already Html, and only those', () => {
    expect(row(`<b class="x">Tom & Jerry's</b>`).value).toBe(
      '<tr>\n<td>&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;</td>\n</tr>',
    );
    expect(row(new Html('<b>bold</b>')).value).toBe('<tr>\n<td><b>bold</b></td>\n</tr>');
    expect(row('plain 12.50 USD').value).toBe('<tr>\n<td>plain 12.50 USD</td>\n</tr>');
  });

  it('joins arrays, writes nothing for null, undefined and false, and numbers as text', () => {
    expect(html`<p>${['a<', html`<i>b</i>`, 3]}</p>`.value).toBe('<p>a&lt;<i>b</i>3</p>');
    expect(html`<p>${null}${undefined}${false}${0}</p>`.value).toBe('<p>0</p>');
  });

  it("drops the template's indentation, never a value's, and each call has its own values", () => {
    expect(row('  two\n    lines').value).toBe('<tr>\n<td>  two\n    lines</td>\n</tr>');
    expect([1, 2, 3].map((n) => row(n).value)).toEqual([
      '<tr>\n<td>1</td>\n</tr>',
      '<tr>\n<td>2</td>\n</tr>',
      '<tr>\n<td>3</td>\n</tr>',
    ]);
  });
});
