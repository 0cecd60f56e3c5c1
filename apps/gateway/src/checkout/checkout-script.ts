import { createHash } from 'node:crypto';

/**
 * checkout.min.js, the merchant page's side of Hosted Checkout, hand-written and dependency-free
 * (ES5, no build step). It finds the gateway by its own src, and:
 * - `Checkout.configure({ session: { id } })` remembers the checkout session;
 * - `showPaymentPage()` sends the browser to the payment page;
 * - `showEmbeddedPage(selector)` puts the page in an iframe inside that element;
 * - `showLightbox()` puts it in an iframe over the merchant's page (Escape or Close cancels).
 * A framed page tells its result by postMessage (checkout.page.ts, renderFramedResult); only
 * messages from the gateway's origin and the frame it opened are heard. The callbacks are named by
 * the script tag's data-complete, data-cancel and data-error (global function names), or given to
 * configure as completeCallback, cancelCallback, errorCallback; without one, complete and cancel
 * go to the returnUrl and cancelUrl. Served as it is written: its SRI hash is in the docs.
 */
export const CHECKOUT_SCRIPT = String.raw`/* checkout.min.js: Hosted Checkout for the merchant's page. */
(function () {
  'use strict';
  var script = document.currentScript;
  var gateway = new URL(script.src).origin;
  var config = null;
  var frame = null;
  var overlay = null;

  function callback(kind, args) {
    var named = (config && config[kind + 'Callback']) || script.getAttribute('data-' + kind);
    var fn = typeof named === 'function' ? named : typeof named === 'string' ? window[named] : null;
    if (typeof fn !== 'function') return false;
    fn.apply(window, args);
    return true;
  }

  function fail(explanation) {
    var error = { cause: 'INVALID_REQUEST', explanation: explanation };
    if (!callback('error', [error])) throw new Error('Checkout: ' + explanation);
  }

  function pageUrl(mode) {
    if (!config || !config.session || typeof config.session.id !== 'string') {
      fail('call Checkout.configure({ session: { id: ... } }) first');
      return null;
    }
    return gateway + '/payer/checkout/' + encodeURIComponent(config.session.id) + '?mode=' + mode;
  }

  function close() {
    if (overlay) overlay.remove();
    else if (frame) frame.remove();
    overlay = null;
    frame = null;
    document.removeEventListener('keydown', onKey);
  }

  function onKey(event) {
    if (event.key !== 'Escape' || !overlay) return;
    close();
    callback('cancel', []);
  }

  function openFrame(mode, parent, style) {
    var url = pageUrl(mode);
    if (!url) return null;
    close();
    frame = document.createElement('iframe');
    frame.src = url;
    frame.title = 'Payment';
    frame.style.cssText = style;
    parent.appendChild(frame);
    return frame;
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== gateway || !frame || event.source !== frame.contentWindow) return;
    var data = event.data || {};
    if (data.checkout !== 'complete' && data.checkout !== 'cancel') return;
    close();
    var handled =
      data.checkout === 'complete'
        ? callback('complete', [data.resultIndicator, data.sessionVersion])
        : callback('cancel', []);
    if (!handled) window.location.assign(data.redirect);
  });

  window.Checkout = {
    configure: function (options) {
      config = options || null;
      if (!config || !config.session || typeof config.session.id !== 'string')
        fail('configure needs { session: { id } }');
    },
    showPaymentPage: function () {
      var url = pageUrl('page');
      if (url) window.location.assign(url);
    },
    showEmbeddedPage: function (selector) {
      var parent = document.querySelector(selector);
      if (!parent) return fail('no element matches ' + selector);
      openFrame('embedded', parent, 'width:100%;min-height:640px;border:0');
    },
    showLightbox: function () {
      close();
      var shade = document.createElement('div');
      shade.setAttribute('role', 'dialog');
      shade.setAttribute('aria-modal', 'true');
      shade.setAttribute('aria-label', 'Payment');
      shade.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;' +
        'align-items:center;justify-content:center;flex-direction:column';
      var shut = document.createElement('button');
      shut.type = 'button';
      shut.textContent = 'Close';
      shut.style.cssText = 'margin:8px;font:inherit;padding:6px 14px';
      shut.addEventListener('click', function () {
        close();
        callback('cancel', []);
      });
      shade.appendChild(shut);
      var opened = openFrame(
        'lightbox',
        shade,
        'width:min(520px,96vw);height:min(760px,88vh);border:0;border-radius:12px;background:#fff',
      );
      if (!opened) return;
      document.body.appendChild(shade);
      overlay = shade;
      document.addEventListener('keydown', onKey);
      opened.focus();
    },
  };
})();
`;

const bytes = Buffer.from(CHECKOUT_SCRIPT, 'utf8');

/** What the script is served with: its bytes, a strong ETag and the Subresource Integrity hash. */
export const CHECKOUT_ASSET = {
  bytes,
  etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
  integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
} as const;
