/**
 * The written fields against the raw EDGAR files (issue 11, "Wording of summaries and recaps"):
 * what the sentences say is recomputed here from the raw files, and numbers are written by the
 * test's own formatting (sign before the dollar sign, half-up from the exact value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { exactCents, rawTrades, type RawTrade } from '../helpers/raw-ownership.js';
import { AS_OF_2022, rawFiles, rawJson, rawText, realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });

/** `n` as text rounded half-up at `digits` decimals, from its shortest decimal text (no binary rounding). */
function halfUp(n: number, digits: number): string {
  const negative = n < 0;
  const [whole = '0', fraction = ''] = String(Math.abs(n)).split('.');
  const digitsText = `${whole}${fraction.padEnd(digits + 1, '0').slice(0, digits + 1)}`;
  let units = BigInt(digitsText.slice(0, -1) || '0');
  if (Number(digitsText.slice(-1)) >= 5) units += 1n;
  const text = units.toString().padStart(digits + 1, '0');
  const out = digits > 0 ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
  return `${negative && units !== 0n ? '-' : ''}${out}`;
}

/** USD as the summaries write it, by the test's own rule. */
function usdText(n: number): string {
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  const billions = halfUp(Number(`${a}e-9`), 2);
  if (Number(billions) >= 1) return `${sign}$${billions} billion`;
  const millions = halfUp(Number(`${a}e-6`), 1);
  if (Number(millions) >= 1) return `${sign}$${millions} million`;
  return `${sign}$${Number(halfUp(a, 0)).toLocaleString('en-US')}`;
}

/**
 * The test's own reading of the rule: the price cell is empty and an attached footnote gives a
 * dollar amount per share or unit that is not a conversion or exercise price.
 */
const priceInFootnote = (t: RawTrade): boolean => !t.price && t.footnotes.some((note) =>
  [...note.matchAll(/\$\s?\d[\d,]*(?:\.\d+)?(?=\s+per\s+(?:share|unit))/gi)].some((m) => !/(?:exercise|conversion) price[^$]{0,30}$/i.test(note.slice(0, m.index))));

test(skip ? `insider wording (${skip})` : 'insider summaries say purchase and sale with the code, never open-market, and count trades without a price', { skip }, async () => {
  const { rows } = await realBuild(AS_OF_2022);
  const trades = rawTrades().filter((t) => (t.code === 'P' || t.code === 'S') && t.documentType === '4' && t.date >= '2021-01-01' && t.date <= '2022-12-31');
  for (const row of rows.insiders) {
    const own = trades.filter((t) => t.issuerCik === row.cik);
    const buys = own.filter((t) => t.code === 'P');
    const unpricedBuys = buys.filter((t) => !t.price).length;
    assert.doesNotMatch(row.summary!, /open[- ]market/i, `${row.ticker}: code P is "open market or private purchase" (Form 4 General Instructions 8)`);
    assert.equal(row.n_buys_without_price, unpricedBuys, row.ticker);
    assert.equal(row.n_sells_without_price, own.filter((t) => t.code === 'S' && !t.price).length, row.ticker);
    if (buys.length === 0) assert.match(row.summary!, /no purchases \(code P\)/, row.ticker);
    else if (unpricedBuys === buys.length && !buys.some(priceInFootnote)) {
      assert.match(row.summary!, new RegExp(`${buys.length} purchases? \\(code P\\) (without a reported price|none of them with a reported price)`), row.ticker);
      assert.doesNotMatch(row.summary!, /worth \$0\b/, `${row.ticker}: no false sum`);
    } else if (buys.every(priceInFootnote)) {
      assert.match(row.summary!, new RegExp(`${buys.length} purchases? \\(code P\\) (with its price|each with its price) stated in a footnote`), row.ticker);
      assert.doesNotMatch(row.summary!, /worth \$0\b/, `${row.ticker}: no false sum`);
    } else {
      const priced = buys.filter((t) => t.price).map((t) => [t.shares!, t.price!] as [string, string]);
      assert.ok(row.summary!.includes(`worth ${usdText(exactCents(priced))}`), `${row.ticker}: ${row.summary}`);
    }
  }
  // Chemomab: its P trade of 2021 leaves the price cell empty, and footnote F3 gives the price.
  const cmmb = rows.insiders.find((r) => r.ticker === 'CMMB')!;
  assert.match(cmmb.summary!, /1 purchase \(code P\) with its price stated in a footnote, not in the price column; no sales \(code S\)\./);
  assert.doesNotMatch(cmmb.summary!, /without a reported price/);
  // Invivyd: the purchase is a joint filing of several Mithril entities, and they are one buyer.
  const ivvd = rows.insiders.find((r) => r.ticker === 'IVVD')!;
  const ivvdBuys = trades.filter((t) => t.issuerCik === ivvd.cik && t.code === 'P');
  assert.ok(ivvdBuys.every((t) => t.owners > 1), 'a joint filing');
  assert.equal(ivvd.n_insiders_buying, 1);
  assert.match(ivvd.summary!, /1 reporting owner bought \(a joint filing counts as one\)/);
});

test(skip ? `price in a footnote (${skip})` : 'a trade whose price cell is empty and whose footnote gives the price is said to have its price in a footnote, in the counts, notable trades and summary', { skip }, async () => {
  const { rows } = await realBuild(AS_OF_2022);
  const trades = rawTrades().filter((t) => (t.code === 'P' || t.code === 'S') && t.documentType === '4' && t.date >= '2021-01-01' && t.date <= '2022-12-31');
  let inFootnote = 0;
  for (const row of rows.insiders) {
    const own = trades.filter((t) => t.issuerCik === row.cik);
    const noted = own.filter(priceInFootnote);
    inFootnote += noted.length;
    assert.equal(row.n_buys_price_in_footnote, noted.filter((t) => t.code === 'P').length, row.ticker);
    assert.equal(row.n_sells_price_in_footnote, noted.filter((t) => t.code === 'S').length, row.ticker);
    for (const trade of row.notable) {
      assert.equal(typeof trade.price_in_footnote, 'boolean', `${row.ticker}: always present`);
      if (trade.price_in_footnote) assert.deepEqual([trade.price_usd, trade.value_usd], [null, null], `${row.ticker}: no price is made up`);
      else assert.ok(trade.price_usd !== null && trade.value_usd! > 0, row.ticker);
    }
    assert.equal(row.notable.filter((t) => t.price_in_footnote).length, Math.min(noted.length, 5 - row.notable.filter((t) => !t.price_in_footnote).length), row.ticker);
  }
  assert.equal(inFootnote, 1, 'in the test set, only Chemomab\'s line');
  const cmmb = rows.insiders.find((r) => r.ticker === 'CMMB')!;
  const raw = trades.find((t) => t.issuerCik === cmmb.cik && t.code === 'P')!;
  assert.ok(raw.footnotes.some((note) => note.includes('for a combined price of $17.3509 per unit')), 'footnote F3 as filed');
  assert.deepEqual(cmmb.notable.map((t) => [t.code, t.date, t.shares, t.price_usd, t.value_usd, t.price_in_footnote]), [['P', raw.date, Number(raw.shares), null, null, true]]);
});

test(skip ? `advice words as words (${skip})` : 'an advice word inside a longer word (Prairie Operating: "rating") does not cost a row its summary', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const prop = Object.values(rawJson('tickers/company_tickers.json') as Record<string, { cik_str: number; ticker: string; title: string }>).find((c) => c.ticker === 'PROP')!;
  assert.equal(prop.title, 'Prairie Operating Co.');
  const cik = String(prop.cik_str).padStart(10, '0');
  const own = [...rows.reports, ...rows.filings].filter((r) => r.cik === cik);
  assert.ok(own.length > 0, 'Prairie Operating has rows (SEC\'s insider data set of 2024 Q3)');
  for (const row of own) assert.ok(row.summary?.includes('Prairie Operating Co.'), `${row.type} ${JSON.stringify(row).slice(0, 200)}`);
});

test(skip ? `numbers in recaps (${skip})` : 'recaps write EPS with two decimals and the sign first, and money rounded half-up from the exact figure', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  let negative = 0;
  for (const row of rows.earnings) {
    const f = row.figures;
    if (f.revenue_usd !== null) assert.ok(row.recap!.includes(`revenue ${usdText(f.revenue_usd)}`), `${row.accession_no}: ${row.recap}`);
    if (f.net_income_usd !== null) assert.ok(row.recap!.includes(`net income ${usdText(f.net_income_usd)}`), `${row.accession_no}: ${row.recap}`);
    const eps = f.eps_diluted ?? f.eps_basic;
    if (eps !== null) {
      const text = `${eps < 0 ? '-' : ''}$${halfUp(Math.abs(eps), 2)}`;
      assert.ok(row.recap!.includes(`EPS ${text}.`), `${row.accession_no}: ${text} in ${row.recap}`);
      if (eps < 0) negative++;
    }
    assert.doesNotMatch(row.recap!, /\$-/, row.accession_no);
  }
  assert.ok(negative > 0, 'some releases report a loss per share');
  // Apple's fiscal Q1 2019 net income: 19,965,000,000 in companyfacts/CIK0000320193.json.
  const netIncome = rawJson('companyfacts/CIK0000320193.json').facts['us-gaap'].NetIncomeLoss.units.USD
    .find((f: { start: string; end: string }) => f.start === '2018-09-30' && f.end === '2018-12-29').val;
  assert.equal(netIncome, 19_965_000_000);
  const q1 = rows.earnings.find((r) => r.accession_no === '0000320193-19-000007')!;
  assert.match(q1.recap!, /net income \$19\.97 billion/);
});

/** Positions of a raw information table by CUSIP and put/call, with their shares. */
function rawPositions(path: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [, b] of rawText(path).matchAll(/<infoTable>([\s\S]*?)<\/infoTable>/g)) {
    const tag = (name: string): string => new RegExp(`<${name}>\\s*([^<]*?)\\s*</`).exec(b!)?.[1] ?? '';
    const key = `${tag('cusip')}|${tag('putCall')}`;
    out.set(key, (out.get(key) ?? 0) + Number(tag('sshPrnamt')));
  }
  return out;
}

test(skip ? `whale counts (${skip})` : 'whale summaries count new, added, reduced and sold-out positions over all positions of the filing', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  for (const [folder, cik] of [['13f/lone_pine', '0001061165'], ['13f/starboard_value', '0001517137']] as const) {
    const [before, after] = rawFiles(folder).filter((p) => p.endsWith('infotable.xml')).map(rawPositions);
    const expected = { new: 0, added: 0, reduced: 0, unchanged: 0, sold_out: 0 };
    for (const [key, shares] of after!) {
      const was = before!.get(key);
      if (was === undefined) expected.new++;
      else if (shares > was) expected.added++;
      else if (shares < was) expected.reduced++;
      else expected.unchanged++;
    }
    for (const key of before!.keys()) if (!after!.has(key)) expected.sold_out++;
    const row = rows.whales.find((r) => r.cik === cik)!;
    assert.deepEqual(row.position_changes, expected, folder);
    assert.ok(row.summary!.includes(`${expected.new} new position${expected.new === 1 ? '' : 's'}, ${expected.added} added, ${expected.reduced} reduced, ` +
      `${expected.unchanged} unchanged and ${expected.sold_out} sold out.`), row.summary);
  }
  // SOURCES.md: Lone Pine Q1 to Q2 2026, 13 new, 15 sold out, 8 added, 13 reduced.
  assert.deepEqual(rows.whales.find((r) => r.cik === '0001061165')!.position_changes, { new: 13, added: 8, reduced: 13, unchanged: 0, sold_out: 15 });
});

test('the OpenAPI document states the joint-filing rule and the meaning of code P', () => {
  const document = buildOpenApiDocument({ baseUrl: 'http://127.0.0.1:8080', license: 'l', attribution: 'a', packageVersion: '0.0.0' }) as { components: { schemas: Record<string, { description?: string; properties: Record<string, { description?: string }> }> } };
  const insider = Object.values(document.components.schemas).find((s) => s.properties?.n_insiders_buying)!;
  assert.match(insider.description!, /joint filing \(several reporting owners on one form\)[^.]*counts once, credited to its first reporting owner/);
  assert.match(insider.description!, /open market or private purchase/);
  assert.match(insider.properties.n_insiders_buying!.description!, /joint filing counts once/);
});

/**
 * Per filer, the test set's 13F reports whose file or folder names the accession number (a folder
 * without one, Bard's, cannot be placed on EDGAR): period of report and whether it holds `cusip`.
 */
function raw13f(cusip: string): Map<string, { period: string; holds: boolean }[]> {
  const byAccession = new Map<string, string[]>();
  for (const path of rawFiles('13f')) {
    if (!/\.(xml|txt|nc)$/.test(path) || path.startsWith('13f/docs/')) continue;
    const key = /\d{10}-\d{2}-\d{6}/.exec(path)?.[0];
    if (!key) continue;
    byAccession.set(key, [...(byAccession.get(key) ?? []), rawText(path)]);
  }
  const out = new Map<string, { period: string; holds: boolean }[]>();
  for (const texts of byAccession.values()) {
    const all = texts.join('\n');
    const period = /<periodOfReport>(\d{2})-(\d{2})-(\d{4})</.exec(all);
    const cik = /<cik>\s*0*(\d+)\s*<\/cik>/i.exec(all);
    if (!period || !cik) continue;
    const filer = cik[1]!.padStart(10, '0');
    out.set(filer, [...(out.get(filer) ?? []), { period: `${period[3]}-${period[1]}-${period[2]}`, holds: all.includes(`>${cusip}<`) }]);
  }
  return out;
}

test(skip ? `institutional periods (${skip})` : 'a report\'s institutional holdings are each filer\'s latest period, totalled per period and said per period, never one sum across periods', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const expected = new Map<string, number>();
  for (const reports of raw13f('037833100').values()) {
    const latest = reports.reduce((a, b) => (b.period > a.period ? b : a));
    if (latest.holds) expected.set(latest.period, (expected.get(latest.period) ?? 0) + 1);
  }
  assert.ok(expected.size >= 3, 'the test set\'s holders of Apple report different periods');
  const aapl = rows.reports.find((r) => r.ticker === 'AAPL')!;
  const periods = aapl.institutional!.periods ?? assert.fail('every build writes institutional.periods');
  assert.deepEqual(periods.map((p) => [p.period_of_report, p.n_filers]), [...expected].sort((a, b) => (a[0] < b[0] ? 1 : -1)));
  for (const p of periods) {
    const filers = aapl.institutional!.top_filers.filter((f) => f.period_of_report === p.period_of_report);
    assert.equal(p.total_value_usd, Math.round(filers.reduce((sum, f) => sum + f.value_usd * 100, 0)) / 100, p.period_of_report);
    assert.ok(aapl.summary!.includes(`${usdText(p.total_value_usd)} for the period ending ${p.period_of_report}`), `${p.period_of_report}: ${aapl.summary}`);
  }
  assert.ok(!aapl.summary!.includes(usdText(aapl.institutional!.total_value_usd)), 'no sum across periods in words');
});

test(skip ? `who filed (${skip})` : 'a filing row of Forms 3/4/5, 144 or Schedule 13D/G never says that the company it is listed under filed it', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  // Apple's submissions JSON lists the Forms 4 of its officers and directors: Apple is their issuer, not their filer.
  const recent = rawJson('submissions/CIK0000320193.json').filings.recent as { accessionNumber: string[]; form: string[] };
  const form4s = new Set(recent.accessionNumber.filter((_, i) => recent.form[i] === '4'));
  const apple = rows.filings.filter((r) => r.cik === '0000320193' && form4s.has(r.accession_no));
  assert.ok(apple.length > 100, `${apple.length} Apple Form 4 rows`);
  for (const row of apple) {
    assert.doesNotMatch(row.summary!, /^Apple Inc\. \(AAPL\) filed/, row.accession_no);
    // Where the Form 4's XML is among the inputs, its reporting owner is named as the filer.
    const owner = row.reporting_owners?.[0]?.name;
    assert.match(row.summary!, owner === undefined
      ? new RegExp(`^A Form 4 naming Apple Inc\\. \\(AAPL\\) was filed on ${row.filed_at}`)
      : new RegExp(`^${owner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*filed Form 4 on Apple Inc\\. \\(AAPL\\) on ${row.filed_at}`), row.accession_no);
  }
  const others = rows.filings.filter((r) => /^(?:[345](?:\/A)?|144(?:\/A)?|SC 13[DG](?:\/A)?|SCHEDULE 13[DG](?:\/A)?)$/.test(r.form));
  for (const row of others) assert.ok(!row.summary!.startsWith(`${row.company}`), `${row.form} ${row.accession_no}: ${row.summary}`);
});

test(skip ? `reporting owners (${skip})` : 'a Form 3/4/5 filing row names the reporting owners its own XML names, and its summary says they filed it on the company', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  // The test's own reader: every ownership XML of the test set whose path names its accession number.
  const owners = new Map<string, { cik: string; name: string }[]>();
  for (const path of rawFiles('ownership').filter((p) => p.endsWith('.xml'))) {
    const accession = /(\d{10}-\d{2}-\d{6})/.exec(path)?.[1];
    const xml = rawText(path);
    if (!accession || !xml.includes('<ownershipDocument')) continue;
    const list = [...xml.matchAll(/<reportingOwnerId>([\s\S]*?)<\/reportingOwnerId>/g)].map(([, id]) => ({
      cik: /<rptOwnerCik>\s*(\d+)\s*</.exec(id!)![1]!.padStart(10, '0'),
      name: /<rptOwnerName>\s*([\s\S]*?)\s*<\/rptOwnerName>/.exec(id!)![1]!.replace(/&amp;/g, '&'),
    }));
    owners.set(accession, list);
  }
  const named = rows.filings.filter((r) => owners.has(r.accession_no) && /^[345](?:\/A)?$/.test(r.form) && r.filed_at_source === 'edgar');
  assert.ok(named.length > 100, `${named.length} Form 3/4/5 rows whose XML is in the test set`);
  for (const row of named) {
    const expected = owners.get(row.accession_no)!;
    assert.deepEqual(row.reporting_owners, expected, row.accession_no);
    const company = `${row.company}${row.ticker ? ` (${row.ticker})` : ''}`;
    const who = expected.length <= 2 ? expected.map((o) => o.name).join(' and ') : `${expected[0]!.name} and ${expected.length - 1} other reporting owners`;
    assert.ok(row.summary!.startsWith(`${who} filed Form ${row.form} on ${company} on ${row.filed_at}`), `${row.accession_no}: ${row.summary}`);
  }
  // Rows of other forms name no reporting owner.
  for (const row of rows.filings.filter((r) => !/^[345](?:\/A)?$/.test(r.form))) assert.deepEqual(row.reporting_owners, [], row.accession_no);
});
