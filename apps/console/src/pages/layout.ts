import { html, type Html } from '@gateway/order-view';
import type { ConsoleSession } from '../sessions/console-db';

export const NAVIGATION = [
  ['orders', 'Orders', '/orders'],
  ['webhooks', 'Webhooks', '/webhooks'],
  ['disputes', 'Disputes', '/disputes'],
  ['unknown', 'UNKNOWN', '/unknown'],
  ['finance', 'Finance', '/finance'],
  ['audit', 'Audit', '/audit'],
] as const;
export type Section = (typeof NAVIGATION)[number][0];

/** The document around every page: skip link, banner with navigation and sign-out, main. */
export function page(options: {
  title: string;
  body: Html;
  session?: ConsoleSession;
  section?: Section;
}): string {
  const { title, body, session, section } = options;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Gateway console</title>
        <link rel="stylesheet" href="/console.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">Gateway console</p>
          ${session ? banner(session, section) : ''}
        </header>
        <main id="main" tabindex="-1">${body}</main>
      </body>
    </html>`.value;
}

function banner(session: ConsoleSession, section?: Section): Html {
  const who = session.merchantId ? `${session.role}, ${session.merchantId}` : session.role;
  return html`<nav aria-label="Console">
      <ul>
        ${NAVIGATION.map(
          ([key, label, href]) =>
            html`<li>
              <a href="${href}" ${key === section ? html`aria-current="page"` : ''}>${label}</a>
            </li>`,
        )}
      </ul>
    </nav>
    <form class="who" method="post" action="/sign-out">
      <span>${session.username} (${who})</span>
      ${csrfField(session)}
      <button type="submit">Sign out</button>
    </form>`;
}

/** The session's CSRF token, in every form that changes something. */
export function csrfField(session: Pick<ConsoleSession, 'csrf'>): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrf}" />`;
}

/** A page that says what went wrong, in the layout, for the status it is sent with. */
export function problemPage(title: string, message: string, session?: ConsoleSession): string {
  return page({
    title,
    session,
    body: html`<h1>${title}</h1>
      <p>${message}</p>
      <p><a href="/orders">Back to the orders</a></p>`,
  });
}

/** What is wrong with a form, above it: announced (an alert), each problem an item. */
export function problemSummary(form: string, problems: readonly (string | Html)[]): Html {
  return html`<div class="errors" role="alert">
    <h2>The ${form} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}</h2>
    <ul>
      ${problems.map((problem) => html`<li>${problem}</li>`)}
    </ul>
  </div>`;
}
