/**
 * Regenerates the examples from the real server: it starts `listen()` on the embedded snapshot
 * and demo keys, sends each example request, trims long arrays and strings, and writes the
 * Markdown of every example between the `examples:start` / `examples:end` markers of
 * docs/examples.md, and of the one marked `readme` between the `example:start` / `example:end`
 * markers of README.md.
 *
 * Usage: `tsx scripts/readme-examples.ts` (prints every example) or `tsx scripts/readme-examples.ts --write`.
 */
import { request } from 'undici';
import { listen } from '../src/server.js';
import { writeBetween } from './markers.js';

const SIGNAL = 'eqf_TGMBlooxG3NRmHZxrwbVrQdZddQ55rhT0BewZu';
const FREE = 'eqf_O4fTdfnqXNNdQMMAlCyNfYImM75IxpsU3jZ1Yj';

interface Example { title: string; path: string; key: string | null; note?: string; readme?: boolean }

const EXAMPLES: Example[] = [
  { title: 'Insider activity (Form 4), one company', path: '/api/v1/finance/insiders?ticker=TSLA', key: SIGNAL,
    note: 'Musk\'s sale of 3,107,623 shares at $191.467 on 2022-11-08 is in `ownership/datamule_paypal/0000899243-22-035394.xml` of the SEC sample the snapshot was built from. ' +
      `With the free key (\`${FREE}\`) the same request returns the same row without \`summary\`.` },
  { title: 'Institutional holdings (13F), one filer, with its moves since the quarter before', path: '/api/v1/finance/whales?cik=1061165', key: SIGNAL,
    note: 'Lone Pine Capital\'s 13F-HR for 2026-06-30 against 2026-03-31 (`13f/lone_pine/` of the SEC sample: 34 positions, $16,357,760,275, whole USD). ' +
      'The sample holds its cover pages and information tables without EDGAR\'s index or header, so the filing is dated by its signature date and says so (`filed_at_source`).' },
  { title: 'Earnings releases (8-K item 2.02)', path: '/api/v1/finance/earnings?ticker=AAPL&limit=1', key: SIGNAL },
  { title: 'Recent filings: a Form 4 names who filed it on the company', path: '/api/v1/finance/filings?ticker=PLTR&limit=1', key: SIGNAL, readme: true,
    note: 'EDGAR lists a Form 4 under the issuer and under its reporting owner; the row is the issuer\'s, and `reporting_owners` names who filed it, as the form\'s XML does.' },
  { title: 'A filing dated by its signature date', path: '/api/v1/finance/filings?ticker=NVDA&limit=1', key: SIGNAL,
    note: 'The SEC sample holds this Form 4 as a bare XML file, without EDGAR\'s index, header or submissions entry: it is dated by its signature date and says so (`filed_at_source`), and has no `primary_doc_url` since the saved file name need not be EDGAR\'s.' },
  { title: 'Filters: the earnings 8-Ks of three companies', path: '/api/v1/finance/filings?tickers=AAPL,MSFT,NVDA&form=8-K&item=2.02&limit=2', key: SIGNAL,
    note: 'Filters of different names must all match; `tickers` and `form` take up to 10 values each ([api.md §15](api.md#15-filters)). `Link` carries them to the next page.' },
  { title: 'Every Form 4 transaction line: one company\'s sales since a date', path: '/api/v1/finance/insider-transactions?ticker=PLTR&code=S&since=2024-09-01&limit=1', key: SIGNAL },
  { title: 'Who holds a stock (13F): every position in any class of Alphabet', path: '/api/v1/finance/holders?ticker=GOOG&limit=2', key: SIGNAL },
  { title: 'Company financials as first reported, on the company\'s own fiscal calendar', path: '/api/v1/finance/financials?ticker=AAPL&fiscal_period=FY&limit=1', key: SIGNAL },
  { title: 'Company reports', path: '/api/v1/finance/reports?ticker=AAPL', key: SIGNAL },
  { title: 'Any ticker of a company finds it', path: '/api/v1/finance/reports?ticker=GOOG', key: SIGNAL,
    note: 'Alphabet trades as GOOGL (class A) and GOOG (class C); both find its rows. Its report comes from its XBRL company facts and the 13F filers that hold it.' },
  { title: 'Your plan, limits and usage (takes no token)', path: '/api/v1/meta', key: SIGNAL },
  { title: 'An error', path: '/api/v1/finance/insiders?limit=0', key: SIGNAL },
];

/** Cuts arrays to their first item and long strings, so an example stays readable. */
function trim(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) {
    const kept = value.slice(0, 1).map((item) => trim(item, depth + 1));
    return value.length > kept.length ? [...kept, `… ${value.length - kept.length} more`] : kept;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'license' ? '…' : trim(v, k === 'data' ? 0 : depth + 1)]));
  }
  if (typeof value === 'string' && value.length > 160) return `${value.slice(0, 157)}…`;
  return value;
}

/** JSON with two-space indents, but objects and arrays that fit in 100 characters on one line. */
function compact(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= 100 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${compact(item, inner)}`).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compact(v, inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

async function main(): Promise<void> {
  // The base address clients would use with `npm start`, so that links and the attribution read as they will.
  const server = await listen({ port: 0, log: () => {}, watchIntervalMs: 0, baseUrl: 'http://127.0.0.1:8080' });
  const parts: string[] = ['Real responses from the embedded snapshot, trimmed (long arrays cut, `license` elided). ' +
    'Start the server with `npm start`, then:', ''];
  const readme: string[] = [];
  try {
    for (const example of EXAMPLES) {
      const headers = example.key ? { 'x-api-key': example.key } : undefined;
      const response = await request(`${server.url}${example.path}`, { headers });
      const body = await response.body.json();
      const keyFlag = example.key ? ` -H "X-API-Key: ${example.key}"` : '';
      const shown = ['```sh', `curl -s${keyFlag} "http://127.0.0.1:8080${example.path}"`, '```', '', '```json', compact(trim(body)), '```', ''];
      parts.push(`**${example.title}** (${response.statusCode})${example.note ? `. ${example.note}` : ''}`, '', ...shown);
      if (example.readme) readme.push(...shown);
    }
  } finally {
    await server.close();
  }
  const markdown = parts.join('\n');
  if (!process.argv.includes('--write')) {
    process.stdout.write(`${markdown}\n`);
    return;
  }
  await writeBetween('docs/examples.md', 'examples', markdown);
  await writeBetween('README.md', 'example', readme.join('\n').trimEnd());
}

await main();
