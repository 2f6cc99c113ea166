/**
 * The portal's pages (docs/api.md §18), server-rendered HTML: the home page with the plans table
 * (from the plan table itself, as the API and the OpenAPI document give it), the sign-up form, the
 * key holder's page and the operator's page. Each page is a shell that the portal's one script
 * (`/assets/portal.js`) brings to life; every element a script or a test reaches has a stable id.
 * Nothing on a page comes from another origin but the API's answers to the holder's page.
 */
import { PLANS, type Plan } from '../plans.js';
import { KEY_STATUSES } from '../keys/keys-file.js';

/** What every page needs: where the API is, what is enabled, and the page's form tokens. */
export interface PageContext {
  /** `--api-url`, without a trailing slash. */
  readonly apiUrl: string;
  readonly signupOpen: boolean;
  readonly adminOpen: boolean;
}

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(ctx: PageContext, page: string, title: string, main: string, formToken?: string): string {
  const nav = [
    ['/', 'nav-home', 'Home'],
    ...(ctx.signupOpen ? [['/signup', 'nav-signup', 'Get a key']] : []),
    ['/account', 'nav-account', 'Your key'],
    [`${ctx.apiUrl}/docs`, 'nav-docs', 'API docs'],
  ].map(([href, id, text]) => `<a id="${id}" href="${escapeHtml(href!)}"${id === `nav-${page}` ? ' aria-current="page"' : ''}>${text}</a>`).join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · equity-facts</title>
<link rel="stylesheet" href="/assets/portal.css">
<link rel="icon" href="/favicon.ico" type="image/x-icon">
<script src="/assets/portal.js" defer></script>
</head>
<body data-page="${page}" data-api-url="${escapeHtml(ctx.apiUrl)}"${formToken === undefined ? '' : ` data-form-token="${escapeHtml(formToken)}"`}>
<header class="bar">
  <div class="wrap bar-inner">
    <a class="brand" id="brand" href="/">equity<span>·</span>facts</a>
    <nav>
      ${nav}
    </nav>
  </div>
</header>
<main class="wrap" id="main">
${main}
</main>
<footer class="wrap foot">SEC EDGAR data is U.S. public domain. Information only, not investment advice.</footer>
</body>
</html>
`;
}

const number = (n: number): string => n.toLocaleString('en-US');

function plansTable(): string {
  const row = (plan: Plan): string => `<tr id="plan-${plan.id}"><th scope="row">${escapeHtml(plan.label)}<small>${plan.id}</small></th>` +
    `<td>${number(plan.perMinute)}</td><td>${number(plan.perDay)}</td><td>${plan.maxPageSize}</td><td>${plan.summaries ? 'yes' : 'no'}</td></tr>`;
  return `<div class="scroll"><table id="plans" class="table">
  <thead><tr><th scope="col">Plan</th><th scope="col">Per minute</th><th scope="col">Per day</th><th scope="col">Rows per page</th><th scope="col">Summaries</th></tr></thead>
  <tbody>
  ${PLANS.map(row).join('\n  ')}
  </tbody>
</table></div>`;
}

/** `/`: what the service is, the plans, where to go next. */
export function homePage(ctx: PageContext): string {
  const start = ctx.signupOpen
    ? '<a class="button" id="home-signup" href="/signup">Get a free key</a>'
    : '<p class="note" id="home-no-signup">Keys are issued by the operator of this service.</p>';
  return layout(ctx, 'home', 'Developer portal', `<section class="hero">
  <h1>Facts from SEC filings, as JSON</h1>
  <p class="lead">equity-facts serves precomputed facts from SEC EDGAR: insider transactions, institutional holders,
  financial statements and filings of U.S. listed companies, over a read-only HTTP/JSON API.</p>
  <p class="actions">${start} <a class="button secondary" id="docs-link" href="${escapeHtml(ctx.apiUrl)}/docs">Read the API docs</a></p>
</section>
<section>
  <h2>Plans</h2>
  <p>Every key has a plan; its limits are per key, counted per minute and per day.</p>
  ${plansTable()}
</section>
<section>
  <h2>Using a key</h2>
  <p>Send it in a header, never in the address: <code>Authorization: Bearer KEY</code> or <code>X-API-Key: KEY</code>.
  <a id="account-link" href="/account">See your key's usage</a> at any time.</p>
</section>`);
}

/** `/signup`: name and e-mail, and the new key shown once. */
export function signupPage(ctx: PageContext, token: string): string {
  const free = PLANS.find((plan) => plan.id === 'free')!;
  return layout(ctx, 'signup', 'Get a key', `<h1>Get a free key</h1>
<p class="lead">A ${escapeHtml(free.label)} key: ${number(free.perMinute)} requests a minute, ${number(free.perDay)} a day.</p>
<form id="signup-form" class="card" method="post" novalidate>
  <label for="signup-name">Name</label>
  <input id="signup-name" type="text" autocomplete="name" maxlength="100" required>
  <label for="signup-email">E-mail</label>
  <input id="signup-email" type="email" autocomplete="email" maxlength="254" required>
  <button id="signup-submit" type="submit">Create my key</button>
  <p id="signup-error" class="error" role="alert" hidden></p>
</form>
<div id="signup-result" class="card shown-key" hidden>
  <h2>Your key</h2>
  <p>Copy it now: it is shown only this once. We keep only its fingerprint.</p>
  <code id="signup-key" class="key"></code>
  <p class="meta">Key id <code id="signup-key-id"></code> · account <code id="signup-account"></code></p>
  <p><a id="signup-account-link" href="/account">See its usage</a> · <a href="${escapeHtml(ctx.apiUrl)}/docs">Try it in the API docs</a></p>
</div>`, token);
}

/** `/account`: the key typed once, its plan, limits and usage from the API, and rotation. */
export function accountPage(ctx: PageContext, token: string): string {
  const usage = (window: 'minute' | 'day', title: string): string => `<div class="stat" id="usage-${window}">
    <h3>${title}</h3>
    <p class="big"><span id="usage-used-${window}">–</span> <small>of <span id="usage-limit-${window}">–</span> used</small></p>
    <div class="meter"><div id="usage-meter-${window}"></div></div>
    <p class="meta"><span id="usage-remaining-${window}">–</span> left · full <span id="usage-reset-${window}">–</span></p>
  </div>`;
  return layout(ctx, 'account', 'Your key', `<h1>Your key</h1>
<form id="account-form" class="card" method="post" novalidate>
  <label for="account-key">API key</label>
  <input id="account-key" type="password" autocomplete="off" spellcheck="false" required>
  <button id="account-submit" type="submit">Show usage</button>
  <p class="meta">The key is sent in a header to the API and to this portal, never in an address, and is not stored by this page.</p>
  <p id="account-error" class="error" role="alert" hidden></p>
</form>
<section id="account-usage" hidden>
  <div class="card">
    <p class="meta">Key <code id="usage-key-id"></code> · account <code id="usage-account"></code></p>
    <h2><span id="usage-plan-label"></span> <small id="usage-plan"></small></h2>
    <p class="meta">Up to <span id="usage-max-page-size"></span> rows a page · summaries <span id="usage-summaries"></span></p>
    <div class="stats">
    ${usage('minute', 'This minute')}
    ${usage('day', 'Today')}
    </div>
    <p><button id="usage-refresh" type="button" class="secondary">Refresh</button></p>
  </div>
  <div class="card">
    <h2>Rotate this key</h2>
    <p>Mints a new key on the same plan. The current key keeps working for 24 hours, then stops.</p>
    <button id="rotate-button" type="button">Rotate key</button>
    <div id="rotate-result" class="shown-key" hidden>
      <p>Your new key, shown only this once:</p>
      <code id="rotate-key" class="key"></code>
      <p class="meta">New key id <code id="rotate-key-id"></code>; the old key works until <time id="rotate-old-expires"></time>.</p>
    </div>
  </div>
</section>`, token);
}

/** `/admin`: the admin token typed once, then the keys and the operator's changes. */
export function adminPage(ctx: PageContext, token: string): string {
  const planOptions = PLANS.map((plan) => `<option value="${plan.id}">${plan.id}</option>`).join('');
  return layout(ctx, 'admin', 'Operator', `<h1>Keys</h1>
<form id="admin-login-form" class="card" method="post" novalidate>
  <label for="admin-token">Admin token</label>
  <input id="admin-token" type="password" autocomplete="off" spellcheck="false" required>
  <button id="admin-login-submit" type="submit">Open</button>
  <p id="admin-login-error" class="error" role="alert" hidden></p>
</form>
<section id="admin-panel" hidden>
  <p id="admin-message" class="notice" role="status" hidden></p>
  <p id="admin-error" class="error" role="alert" hidden></p>
  <div id="admin-new-key-box" class="card shown-key" hidden>
    <p>New key, shown only this once:</p>
    <code id="admin-new-key" class="key"></code>
  </div>
  <form id="admin-mint-form" class="card inline" method="post" novalidate>
    <h2>Mint a key</h2>
    <div class="fields">
      <div><label for="mint-account">Account</label><input id="mint-account" type="text" maxlength="100" required></div>
      <div><label for="mint-plan">Plan</label><select id="mint-plan">${planOptions}</select></div>
      <div><label for="mint-label">Label</label><input id="mint-label" type="text" maxlength="200"></div>
      <div><button id="mint-submit" type="submit">Mint</button></div>
    </div>
  </form>
  <div class="scroll"><table id="admin-keys" class="table keys">
    <thead><tr><th>Id</th><th>Account</th><th>Plan</th><th>Status</th><th>Label</th><th>Created</th><th>Expires</th><th>Actions</th></tr></thead>
    <tbody id="admin-keys-body"></tbody>
  </table></div>
  <template id="admin-row-template"><tr>
    <td class="c-id"><code></code></td><td class="c-account"></td>
    <td class="c-plan"><select>${planOptions}</select></td>
    <td class="c-status"><select>${KEY_STATUSES.map((s) => `<option value="${s}">${s}</option>`).join('')}</select></td>
    <td class="c-label"></td><td class="c-created"></td><td class="c-expires"></td>
    <td class="c-actions"><button type="button" class="secondary c-rotate">Rotate</button> <button type="button" class="danger c-revoke">Revoke</button></td>
  </tr></template>
</section>`, token);
}
