import { html } from '@gateway/order-view';
import { csrfField, page } from './layout';

/**
 * The sign-in form. `csrf` ties the POST to this page (a token bound to the pre-session cookie),
 * so another site cannot sign a browser in under its own account.
 */
export function signInPage(csrf: string, problem?: string, username = ''): string {
  return page({
    title: 'Sign in',
    body: html`<div class="signin">
      <h1>Sign in</h1>
      ${problem ? html`<p class="errors" role="alert">${problem}</p>` : ''}
      <form method="post" action="/sign-in">
        ${csrfField({ csrf })}
        <div>
          <label for="username">User name</label>
          <input
            id="username"
            name="username"
            autocomplete="username"
            required
            value="${username}"
          />
        </div>
        <div>
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
          />
        </div>
        <div><button type="submit">Sign in</button></div>
      </form>
    </div>`,
  });
}
