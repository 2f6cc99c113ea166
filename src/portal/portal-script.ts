/**
 * The portal's one script (`/assets/portal.js`), plain browser JavaScript with no library. Each
 * page's shell names itself in `<body data-page>`; the script wires that page's forms to the
 * portal's JSON answers (every POST carries the page's form token in `X-Form-Token`) and, on the
 * holder's page, to the API's `/api/v1/meta` with the key in `X-API-Key`. Keys and the admin token
 * live only in the page's memory: never in an address, a cookie or storage. Text from answers is
 * set with `textContent`, never as HTML.
 */
export const PORTAL_JS = `'use strict';
(function () {
  var body = document.body;
  var page = body.dataset.page;
  var apiUrl = body.dataset.apiUrl;
  var formToken = body.dataset.formToken;
  function $(id) { return document.getElementById(id); }
  function show(el, text) { if (text !== undefined) el.textContent = text; el.hidden = false; }
  function hide(el) { el.hidden = true; }
  function post(path, headers, payload) {
    var h = { 'Content-Type': 'application/json', 'X-Form-Token': formToken };
    for (var k in headers) h[k] = headers[k];
    return fetch(path, { method: 'POST', headers: h, body: JSON.stringify(payload || {}), credentials: 'omit', cache: 'no-store' }).then(answer);
  }
  function answer(res) {
    return res.json().catch(function () { return { ok: false, detail: 'Unexpected answer (HTTP ' + res.status + ').' }; }).then(function (json) {
      if (!res.ok || json.ok === false) {
        var message = json.detail || ('HTTP ' + res.status);
        var wait = res.headers.get('Retry-After');
        throw new Error(wait ? message + ' (retry in ' + duration(Number(wait)) + ')' : message);
      }
      return json;
    });
  }
  function busy(button, on) { button.disabled = on; }
  function duration(seconds) {
    if (!(seconds >= 0)) return '–';
    if (seconds < 60) return seconds + ' s';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min ' + (seconds % 60) + ' s';
    return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
  }
  /** A keys-file time, shorter: 2026-11-01T00:00:00Z → 2026-11-01 00:00 UTC (the full value in the cell's title). */
  function when(text) { var d = new Date(text); return isNaN(d) ? text : d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC'; }
  function number(n) { return typeof n === 'number' ? n.toLocaleString('en-US') : '–'; }

  if (page === 'signup') {
    $('signup-form').addEventListener('submit', function (event) {
      event.preventDefault();
      var button = $('signup-submit');
      hide($('signup-error'));
      busy(button, true);
      post('/signup', {}, { name: $('signup-name').value, email: $('signup-email').value }).then(function (json) {
        hide($('signup-form'));
        show($('signup-key'), json.key);
        $('signup-key-id').textContent = json.key_id;
        $('signup-account').textContent = json.account;
        show($('signup-result'));
      }, function (error) { show($('signup-error'), error.message); }).finally(function () { busy(button, false); });
    });
  }

  if (page === 'account') {
    var key = '';
    // A new key reaches the API when it next reads the keys file (about a second): until then it is
    // unknown there, so after a rotation a 401 is asked again, a few times, half a second apart.
    var loadUsage = function (retries) {
      hide($('account-error'));
      return fetch(apiUrl + '/api/v1/meta', { headers: { 'X-API-Key': key }, credentials: 'omit', cache: 'no-store' }).then(function (res) {
        if (res.status === 401 && retries > 0) {
          return new Promise(function (resolve) { setTimeout(resolve, 500); }).then(function () { return loadUsage(retries - 1); }).then(function () { return null; });
        }
        return answer(res);
      }).then(function (json) {
        if (json === null) return;
        var m = json.data[0];
        $('usage-key-id').textContent = m.key_id;
        $('usage-account').textContent = m.account;
        $('usage-plan-label').textContent = m.plan_label;
        $('usage-plan').textContent = m.plan;
        $('usage-max-page-size').textContent = m.max_page_size;
        $('usage-summaries').textContent = m.summaries ? 'included' : 'not included';
        ['minute', 'day'].forEach(function (w) {
          var u = m.usage[w];
          $('usage-used-' + w).textContent = number(u.used);
          $('usage-limit-' + w).textContent = number(u.limit);
          $('usage-remaining-' + w).textContent = number(u.remaining);
          $('usage-reset-' + w).textContent = u.reset_seconds > 0 ? 'again in ' + duration(u.reset_seconds) : 'now';
          $('usage-meter-' + w).style.width = (u.limit > 0 ? Math.min(100, 100 * u.used / u.limit) : 0) + '%';
        });
        show($('account-usage'));
      }, function (error) { hide($('account-usage')); show($('account-error'), error.message); });
    };
    $('account-form').addEventListener('submit', function (event) {
      event.preventDefault();
      key = $('account-key').value.trim();
      $('account-key').value = '';
      hide($('rotate-result'));
      busy($('account-submit'), true);
      loadUsage(0).finally(function () { busy($('account-submit'), false); });
    });
    $('usage-refresh').addEventListener('click', function () { loadUsage(0); });
    $('rotate-button').addEventListener('click', function () {
      var button = $('rotate-button');
      busy(button, true);
      post('/account/rotate', { 'X-API-Key': key }, {}).then(function (json) {
        show($('rotate-key'), json.key);
        $('rotate-key-id').textContent = json.key_id;
        $('rotate-old-expires').textContent = when(json.old_expires_at);
        $('rotate-old-expires').setAttribute('datetime', json.old_expires_at);
        show($('rotate-result'));
        key = json.key;
        return loadUsage(10);
      }, function (error) { show($('account-error'), error.message); }).finally(function () { busy(button, false); });
    });
  }

  if (page === 'admin') {
    var token = '';
    var auth = function () { return { Authorization: 'Bearer ' + token }; };
    var message = function (text) { hide($('admin-error')); show($('admin-message'), text); };
    var failure = function (error) { hide($('admin-message')); show($('admin-error'), error.message); };
    var newKey = function (value) { show($('admin-new-key'), value); show($('admin-new-key-box')); };
    var change = function (path, payload, done) {
      return post(path, auth(), payload).then(function (json) { done(json); return refresh(); }).catch(failure);
    };
    var select = function (el, value) {
      if (!Array.prototype.some.call(el.options, function (o) { return o.value === value; })) {
        var extra = document.createElement('option'); extra.value = value; extra.textContent = value; el.appendChild(extra);
      }
      el.value = value;
    };
    var row = function (k) {
      var tr = $('admin-row-template').content.firstElementChild.cloneNode(true);
      var base = '/admin/keys/' + encodeURIComponent(k.id);
      tr.id = 'key-row-' + k.id;
      tr.dataset.keyId = k.id;
      tr.querySelector('.c-id code').textContent = k.id;
      tr.querySelector('.c-account').textContent = k.account;
      tr.querySelector('.c-label').textContent = k.label || '';
      tr.querySelector('.c-created').textContent = when(k.created_at);
      tr.querySelector('.c-created').title = k.created_at;
      tr.querySelector('.c-expires').textContent = k.expires_at ? when(k.expires_at) : '–';
      if (k.expires_at) tr.querySelector('.c-expires').title = k.expires_at;
      var plan = tr.querySelector('.c-plan select');
      plan.id = 'key-plan-' + k.id; plan.setAttribute('aria-label', 'Plan of ' + k.id); select(plan, k.plan);
      var status = tr.querySelector('.c-status select');
      status.id = 'key-status-' + k.id; status.setAttribute('aria-label', 'Status of ' + k.id); select(status, k.status);
      plan.addEventListener('change', function () { change(base + '/plan', { plan: plan.value }, function () { message(k.id + ': plan ' + plan.value); }); });
      status.addEventListener('change', function () { change(base + '/status', { status: status.value }, function () { message(k.id + ': ' + status.value); }); });
      var rotate = tr.querySelector('.c-rotate'); rotate.id = 'key-rotate-' + k.id;
      rotate.addEventListener('click', function () {
        change(base + '/rotate', {}, function (json) { newKey(json.key); message(k.id + ' rotated to ' + json.key_id + '; the old key works until ' + when(json.old_expires_at)); });
      });
      var revoke = tr.querySelector('.c-revoke'); revoke.id = 'key-revoke-' + k.id;
      revoke.addEventListener('click', function () {
        if (window.confirm('Revoke ' + k.id + ' (' + k.account + ')? It stops working at once.')) change(base + '/revoke', {}, function () { message(k.id + ' revoked'); });
      });
      return tr;
    };
    var refresh = function () {
      return fetch('/admin/keys', { headers: auth(), credentials: 'omit', cache: 'no-store' }).then(answer).then(function (json) {
        var tbody = $('admin-keys-body');
        tbody.replaceChildren.apply(tbody, json.keys.map(row));
      });
    };
    $('admin-login-form').addEventListener('submit', function (event) {
      event.preventDefault();
      token = $('admin-token').value.trim();
      $('admin-token').value = '';
      hide($('admin-login-error'));
      refresh().then(function () { hide($('admin-login-form')); show($('admin-panel')); }, function (error) { show($('admin-login-error'), error.message); });
    });
    $('admin-mint-form').addEventListener('submit', function (event) {
      event.preventDefault();
      change('/admin/keys', { account: $('mint-account').value, plan: $('mint-plan').value, label: $('mint-label').value || undefined }, function (json) {
        newKey(json.key); message('minted ' + json.key_id + ' for ' + json.account);
        $('admin-mint-form').reset();
      });
    });
  }
})();
`;
