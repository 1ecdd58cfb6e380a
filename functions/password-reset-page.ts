import { createHash } from 'node:crypto';
import { apiHandler } from '#shared/http/handler.ts';

/**
 * GET /password_reset: the page a password-reset email links to (`/password_reset#token=<secret>`).
 * The secret stays in the fragment, which the browser never sends anywhere: the page's script reads it
 * and posts it with the new password to POST /v15/password_resets (a relative URL, so the page works
 * under any host and stage prefix). No third-party assets; a strict Content-Security-Policy allows
 * exactly this page's inline style and script (by hash) and connections to this API only.
 */
const STYLE = `
  body { font-family: system-ui, sans-serif; max-width: 26rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.4rem; }
  label { display: block; margin: 1rem 0 .25rem; }
  input { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
  button { margin-top: 1.25rem; padding: .6rem 1.2rem; font-size: 1rem; }
  #message { margin-top: 1rem; min-height: 1.5rem; }
  .error { color: #b00020; } .done { color: #0a7d32; }
`;

const SCRIPT = `
  const form = document.getElementById('reset');
  const message = document.getElementById('message');
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  // The secret leaves the address bar (and the history) at once.
  history.replaceState(null, '', location.pathname + location.search);
  function show(text, kind) { message.textContent = text; message.className = kind; }
  if (!token) { show('This link is incomplete. Ask for a new password-reset email.', 'error'); form.hidden = true; }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const password = form.elements.password.value;
    if (password !== form.elements.confirmation.value) return show('The two passwords differ.', 'error');
    form.elements.submit.disabled = true;
    try {
      const response = await fetch('v15/password_resets', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ password_reset: { token, password } }),
      });
      if (response.status === 204) { form.hidden = true; return show('Your password is changed. Log in with it in your app.', 'done'); }
      const errors = await response.json().catch(() => []);
      show(errors.map((entry) => entry.error && entry.error.message).filter(Boolean).join(' ') || 'Something went wrong; try again.', 'error');
    } catch {
      show('The service could not be reached; try again.', 'error');
    }
    form.elements.submit.disabled = false;
  });
`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Choose a new password</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <h1>Choose a new password</h1>
    <form id="reset">
      <label for="password">New password (at least 8 characters)</label>
      <input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>
      <label for="confirmation">The same password again</label>
      <input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>
      <button id="submit" name="submit" type="submit">Set password</button>
    </form>
    <p id="message" role="status"></p>
    <script>${SCRIPT}</script>
  </body>
</html>
`;

const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': `default-src 'none'; style-src ${hashOf(STYLE)}; script-src ${hashOf(SCRIPT)}; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`,
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

export const handler = apiHandler('password-reset-page', { summary: 'The page a password-reset email links to (sets a new password)' }, async () => ({
  status: 200,
  rawBody: PAGE,
  headers: HEADERS,
}));
