/**
 * Company facts of report rows against the raw EDGAR files (issue 23, items 5 and 6): the SIC
 * description is the description alone, and a 13F security is one company however its filers
 * spell the issuer. Expected values are read here from the raw files with the test's own code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAND_CHECKED_13F_TICKERS } from '../fixtures/thirteenf-tickers.js';
import { AS_OF_2022, rawFiles, rawJson, rawText, realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });

/** Every SIC title the raw files give, by code: submissions JSON, SGML headers (`TITLE [code]`) and `-index.htm` company blocks. */
function rawSicTitles(): Map<string, Set<string>> {
  const titles = new Map<string, Set<string>>();
  const add = (code: string, title: string): void => {
    if (title.trim() !== '') titles.set(code, (titles.get(code) ?? new Set()).add(title.trim()));
  };
  for (const path of rawFiles('submissions')) {
    const json = rawJson(path);
    if (json.sic) add(json.sic, json.sicDescription ?? '');
  }
  for (const path of rawFiles().filter((p) => p.endsWith('.txt'))) {
    for (const [, title, code] of rawText(path).split('</SEC-HEADER>')[0]!.matchAll(/STANDARD INDUSTRIAL CLASSIFICATION:\s*([^\n[]*?)\s*\[(\d{4})\]/g)) add(code!, title!);
  }
  // `SIC: <b><a …SIC=7370…>7370</a></b> Services-Computer Programming, Data Processing, Etc.<br />(CF Office: 06 Technology)`:
  // the title ends at the line break; what follows is the SEC review office, not the industry.
  for (const path of rawFiles().filter((p) => p.endsWith('-index.html'))) {
    for (const [, code, title] of rawText(path).matchAll(/SIC=(\d{4})[^>]*>\d{4}<\/a><\/b>([^<]*)/g)) add(code!, title!.replace(/&amp;/g, '&'));
  }
  return titles;
}

test(skip ? `SIC descriptions (${skip})` : 'a report\'s sic_description is the SIC title alone, as EDGAR gives it for the code', { skip }, async () => {
  const titles = rawSicTitles();
  for (const options of [AS_OF_2022, EVERYTHING]) {
    const { rows } = await realBuild(options);
    let checked = 0;
    for (const report of rows.reports) {
      if (report.sic === null) continue;
      const path = `submissions/CIK${report.cik}.json`;
      const own = rawFiles('submissions').includes(path) ? rawJson(path).sicDescription || undefined : undefined;
      if (own !== undefined) assert.equal(report.sic_description, own, report.ticker);
      else if (!titles.has(report.sic)) assert.equal(report.sic_description, null, `${report.ticker} ${report.sic}: no raw file titles the code`);
      else assert.ok(titles.get(report.sic)!.has(report.sic_description ?? ''), `${report.ticker} ${report.sic}: ${report.sic_description} is not among ${[...titles.get(report.sic)!].join(' | ')}`);
      assert.doesNotMatch(report.sic_description ?? '', /CF Office/, report.ticker);
      checked++;
    }
    assert.ok(checked > 20, `${checked} reports checked as of ${options.asOf}`);
  }
  const meta = (await realBuild(EVERYTHING)).rows.reports.find((r) => r.ticker === 'META');
  assert.equal(meta?.sic_description, 'Services-Computer Programming, Data Processing, Etc.');
});

/** Each 13F filer's latest information table among the files that name their accession number, with the rows as filed. */
function rawLatestTables(): { accession: string; filer: string; rows: { cusip: string; value: number; shares: number; putCall: string | null }[] }[] {
  const files = new Map<string, { accession: string; filer: string; period: string; rows: { cusip: string; value: number; shares: number; putCall: string | null }[] }>();
  for (const path of rawFiles('13f')) {
    const accession = /(\d{10}-\d{2}-\d{6})/.exec(path)?.[1];
    if (!accession || !/\.(xml|txt|nc)$/.test(path)) continue;
    const text = rawText(path);
    const entry = files.get(accession) ?? { accession, filer: '', period: '', rows: [] };
    entry.filer ||= /<filer>\s*<credentials>\s*<cik>(\d+)/.exec(text)?.[1]?.padStart(10, '0') ?? '';
    const period = /<reportCalendarOrQuarter>(\d\d)-(\d\d)-(\d{4})/.exec(text);
    if (period) entry.period = `${period[3]}-${period[1]}-${period[2]}`;
    if (entry.rows.length === 0) {
      entry.rows = [...text.matchAll(/<(?:\w+:)?infoTable>([\s\S]*?)<\/(?:\w+:)?infoTable>/g)].map(([, b]) => {
        const tag = (name: string): string | null => new RegExp(`<(?:\\w+:)?${name}>\\s*([^<]*?)\\s*</`).exec(b!)?.[1] ?? null;
        return { cusip: tag('cusip')!.toUpperCase(), value: Number(tag('value')), shares: Number(tag('sshPrnamt')), putCall: tag('putCall') };
      });
    }
    files.set(accession, entry);
  }
  const latest = new Map<string, typeof files extends Map<string, infer V> ? V : never>();
  for (const file of files.values()) {
    const known = latest.get(file.filer);
    if (!known || file.period > known.period || (file.period === known.period && file.accession > known.accession)) latest.set(file.filer, file);
  }
  return [...latest.values()];
}

test(skip ? `13F holders by CUSIP (${skip})` : 'a company\'s 13F holders are every filer holding its CUSIP, however each filer spells the issuer', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  // SOURCES.md: ACTIAM's 2020 and Bull Street's 2022 tables are in thousands of USD, the others in USD.
  const thousands = new Set(['0001619124-21-000002', '0001790837-23-000002']);
  const tables = rawLatestTables();
  for (const ticker of ['BAC', 'PG', 'UNP', 'COST', 'EPD']) {
    const cusips = new Set(Object.entries(HAND_CHECKED_13F_TICKERS).filter(([, t]) => t === ticker).map(([c]) => c));
    const expected = tables.map((file) => {
      const own = file.rows.filter((r) => cusips.has(r.cusip) && r.putCall === null);
      return { cik: file.filer, value_usd: own.reduce((s, r) => s + r.value * (thousands.has(file.accession) ? 1000 : 1), 0), n: own.length };
    }).filter((h) => h.n > 0).sort((a, b) => b.value_usd - a.value_usd);
    const report = rows.reports.find((r) => r.ticker === ticker);
    assert.ok(expected.length >= 2, `${ticker}: held by ${expected.length} filers in the test set`);
    assert.deepEqual(report?.institutional?.top_filers.map((h) => ({ cik: h.cik, value_usd: h.value_usd })), expected.map(({ cik, value_usd }) => ({ cik, value_usd })), ticker);
    assert.equal(report?.institutional?.total_value_usd, expected.reduce((s, h) => s + h.value_usd, 0), ticker);
  }
  // The example: "Bank of America Corp" (Bull Street, $248,000) and "BANK AMERICA CORP" (Acorn Creek, $279,346).
  const bac = rows.reports.find((r) => r.ticker === 'BAC')!.institutional!;
  assert.deepEqual([bac.n_filers, bac.total_value_usd], [2, 527_346]);
  const acorn = rows.whales.find((w) => w.filer === 'ACORN CREEK CAPITAL LLC')!;
  assert.equal(acorn.top_holdings.concat(acorn.moves).find((h) => h.cusip === '060505104')?.ticker ?? 'BAC', 'BAC');
});
