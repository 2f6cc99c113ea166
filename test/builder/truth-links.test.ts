/**
 * Document links of built rows against the raw EDGAR files (issue 23, items 3 and 4): every
 * `primary_doc_url`, `release_url` and report `latest.*.url` names a document that the filing's
 * own index lists, and a filing whose index names a document has a `primary_doc_url`. The
 * indexes are read here with the test's own code: `-index.htm` pages (the link targets of their
 * document tables), `-index.json` folder listings, SGML headers (`.txt`, `.nc`, header pages and
 * datamule's `.header.json`) and submissions JSON (`primaryDocument`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AS_OF_2022, rawFiles, rawJson, rawText, realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });

const dashed = (digits: string): string => `${digits.slice(0, 10)}-${digits.slice(10, 12)}-${digits.slice(12)}`;

/** Per accession number, every document path (inside the filing's folder) that one of its indexes in the test set lists. */
function rawListedDocuments(): Map<string, Set<string>> {
  const listed = new Map<string, Set<string>>();
  const add = (accession: string | undefined, document: string | undefined): void => {
    if (!accession || !document) return;
    listed.set(accession, (listed.get(accession) ?? new Set()).add(document.trim()));
  };
  for (const path of rawFiles()) {
    if (path.endsWith('.json') && !path.startsWith('companyfacts/') && !path.startsWith('tickers/') && !path.endsWith('metadata.json')) {
      const json = rawJson(path);
      const columns = json.filings?.recent ?? json;
      if (Array.isArray(columns.accessionNumber)) {
        columns.accessionNumber.forEach((a: string, i: number) => add(a, columns.primaryDocument?.[i] || undefined));
      } else if (json.directory?.item) {
        const accession = dashed(/\/(\d{18})$/.exec(json.directory.name)![1]!);
        for (const item of json.directory.item) add(accession, item.name);
      } else if (json.submission?.['ACCESSION-NUMBER']) {
        for (const d of json.documents ?? []) add(json.submission['ACCESSION-NUMBER'], d.FILENAME);
      }
    } else if (/\.html?$/.test(path)) {
      const html = rawText(path);
      for (const table of html.matchAll(/<table class="tableFile"[\s\S]*?<\/table>/g)) {
        for (const [, href] of table[0].matchAll(/href="([^"]+)"/g)) {
          const m = /\/Archives\/edgar\/data\/\d+\/(\d{18})\/([^?#]+)$/.exec(href!.replace(/^\/ix\?doc=/, ''));
          if (m) add(dashed(m[1]!), m[2]);
        }
      }
      const accession = /ACCESSION-NUMBER(?:>|&gt;)\s*(\d{10}-\d\d-\d{6})/.exec(html)?.[1];
      for (const [, name] of html.matchAll(/&lt;FILENAME&gt;([^\s&<]+)/g)) add(accession, name);
    } else if (/\.(txt|nc)$/.test(path)) {
      const text = rawText(path);
      const accession = /(?:ACCESSION NUMBER:|<ACCESSION-NUMBER>)\s*(\d{10}-\d\d-\d{6})/.exec(text)?.[1];
      for (const [, name] of text.matchAll(/<FILENAME>([^\s<]+)/g)) add(accession, name);
    }
  }
  return listed;
}

/** The accession number and document path of an EDGAR Archives document URL, or undefined for an index page. */
function documentOf(url: string): { accession: string; document: string } | undefined {
  const m = /^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/\d+\/(\d{18})\/(.+)$/.exec(url);
  assert.ok(m, `an EDGAR Archives URL: ${url}`);
  const accession = dashed(m[1]!);
  return m[2] === `${accession}-index.htm` ? undefined : { accession, document: m[2]! };
}

test(skip ? `document links against the raw indexes (${skip})` : 'every document URL of a row names a document that the filing\'s own index lists as a link target', { skip }, async () => {
  const listed = rawListedDocuments();
  for (const options of [AS_OF_2022, EVERYTHING]) {
    const { rows } = await realBuild(options);
    const urls = [
      ...rows.filings.map((r) => r.primary_doc_url), ...rows.earnings.map((r) => r.release_url),
      ...rows.reports.flatMap((r) => Object.values(r.latest).map((l) => l?.url)),
    ].filter((u): u is string => typeof u === 'string');
    let checked = 0;
    for (const url of urls) {
      const found = documentOf(url);
      const documents = found && listed.get(found.accession);
      if (!found || !documents) continue;
      assert.ok(documents.has(found.document), `${url}: its index lists ${[...documents].slice(0, 8).join(', ')}`);
      checked++;
    }
    assert.ok(checked > 1000, `${checked} URLs checked as of ${options.asOf}`);
  }
  // The example: the Orion page shows `es220296680_4-davis.html` and links `xslF345X03/es220296680_4-davis.xml`.
  const orion = (await realBuild(AS_OF_2022)).rows.filings.find((r) => r.accession_no === '0000950142-22-003095');
  assert.equal(orion?.primary_doc_url, 'https://www.sec.gov/Archives/edgar/data/1609804/000095014222003095/xslF345X03/es220296680_4-davis.xml');
});

test(skip ? `primary documents known (${skip})` : 'a filing row names its primary document wherever an index of the filing lists one', { skip }, async () => {
  const listed = rawListedDocuments();
  const { rows } = await realBuild(EVERYTHING);
  // The folder's own files (`<accession>.txt`, `-index.html`, `-index-headers.html`, `-xbrl.zip`) are not documents of the filing.
  const namesDocument = (accession: string): boolean => [...listed.get(accession) ?? []].some((d) => !d.startsWith(accession));
  const missing = rows.filings.filter((r) => r.primary_doc_url === null && namesDocument(r.accession_no)).map((r) => `${r.ticker ?? r.cik} ${r.accession_no}`);
  assert.deepEqual(missing, []);
  // The example: Bank of America's Form 4 of 2024-09 is known from a Form 4 data set (no
  // document) and from Buffett's submissions JSON, which names `xslF345X05/ownership.xml`.
  const buffett = rawJson('submissions/CIK0000315090.json').filings.recent;
  const at = buffett.accessionNumber.indexOf('0000950170-24-110123');
  const bac = rows.filings.find((r) => r.accession_no === '0000950170-24-110123');
  assert.equal(bac?.ticker, 'BAC');
  assert.equal(bac?.primary_doc_url, `https://www.sec.gov/Archives/edgar/data/70858/000095017024110123/${buffett.primaryDocument[at]}`);
});
