/**
 * Where EDGAR keeps what `fetch` downloads, and where it goes on disk. EDGAR serves from two
 * hosts (SEC, "Accessing EDGAR Data", https://www.sec.gov/search-filings/edgar-search-assistance/accessing-edgar-data,
 * and "EDGAR Application Programming Interfaces", https://www.sec.gov/search-filings/edgar-application-programming-interfaces):
 *
 * - `https://www.sec.gov`: `/files/company_tickers.json`, `/files/company_tickers_exchange.json`,
 *   `/Archives/edgar/data/<cik>/<accession without dashes>/<document>` and the bulk products;
 * - `https://data.sec.gov`: `/submissions/CIK##########.json` (and its older pages) and
 *   `/api/xbrl/companyfacts/CIK##########.json`.
 *
 * The paths never overlap, so one folder mirrors both (docs/api.md §14): a URL's path is its file
 * under `--out`. A `--base-url` replaces both hosts and keeps the paths.
 */
import { join, resolve, sep } from 'node:path';
import { SEC_WWW, archivePath, indexPageName, normaliseAccession, padCik, withoutRendering } from '../edgar/conventions.js';

/** Which EDGAR host serves a path. */
export type EdgarHost = 'www' | 'data';

/** One document on EDGAR: its host and its path (starting with `/`, no query). */
export interface EdgarLocation {
  readonly host: EdgarHost;
  readonly path: string;
}

/** EDGAR's own origins, used when no `--base-url` is given. */
export const EDGAR_ORIGINS: Readonly<Record<EdgarHost, string>> = Object.freeze({
  www: SEC_WWW,
  data: 'https://data.sec.gov',
});

/** `company_tickers.json`: ticker, CIK and name of every listed company. */
export const COMPANY_TICKERS: EdgarLocation = Object.freeze({ host: 'www', path: '/files/company_tickers.json' });

/** `company_tickers_exchange.json`: the same with the exchange. */
export const COMPANY_TICKERS_EXCHANGE: EdgarLocation = Object.freeze({ host: 'www', path: '/files/company_tickers_exchange.json' });

/**
 * A document name as EDGAR lists it in a filing folder or submissions JSON: letters, digits,
 * `.`, `_` and `-`, not starting with a dot. Anything else (a slash, `..`, a space) is refused, so
 * a name read from EDGAR can never address a file outside its folder.
 */
export const DOCUMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A submissions page name as listed in `filings.files[].name`. */
const SUBMISSIONS_PAGE = /^CIK\d{10}-submissions-\d{3}\.json$/;

/**
 * The submissions JSON of a CIK (data.sec.gov).
 *
 * @param cik - digits, padded or not.
 * @throws TypeError when `cik` is not 1-10 digits.
 */
export function submissionsLocation(cik: string): EdgarLocation {
  return { host: 'data', path: `/submissions/CIK${cikOf(cik)}.json` };
}

/**
 * An older page of a submissions JSON, named in its `filings.files[].name`.
 *
 * @returns the location, or undefined when the name is not `CIK##########-submissions-NNN.json`.
 */
export function submissionsPageLocation(name: string): EdgarLocation | undefined {
  return SUBMISSIONS_PAGE.test(name) ? { host: 'data', path: `/submissions/${name}` } : undefined;
}

/**
 * The XBRL company facts of a CIK (data.sec.gov).
 *
 * @throws TypeError when `cik` is not 1-10 digits.
 */
export function companyFactsLocation(cik: string): EdgarLocation {
  return { host: 'data', path: `/api/xbrl/companyfacts/CIK${cikOf(cik)}.json` };
}

/**
 * A document of a filing in EDGAR's Archives: `/Archives/edgar/data/<cik without leading
 * zeros>/<accession without dashes>/<document>`.
 *
 * @param cik - a CIK of the filing (any party's; EDGAR files the folder under each).
 * @param accessionNo - the accession number, dashed or 18 digits.
 * @param document - the document name (see {@link DOCUMENT_NAME}).
 * @returns the location, or undefined when the accession number or document name is not valid.
 */
export function archiveLocation(cik: string, accessionNo: string, document: string): EdgarLocation | undefined {
  const accession = normaliseAccession(accessionNo);
  if (!accession || !DOCUMENT_NAME.test(document) || document.includes('..')) return undefined;
  return { host: 'www', path: archivePath(cikOf(cik), accession, document) };
}

/**
 * A filing's index page, `<accession>-index.htm` in its folder: the table of its documents
 * with their types (`EX-99.1`, `INFORMATION TABLE`, …).
 *
 * @throws TypeError when the CIK or accession number is not valid.
 */
export function filingIndexLocation(cik: string, accessionNo: string): EdgarLocation {
  const accession = normaliseAccession(accessionNo);
  if (!accession) throw new TypeError(`not an accession number: ${JSON.stringify(accessionNo)}`);
  return archiveLocation(cik, accession, indexPageName(accession))!;
}

/**
 * The URL of a location.
 *
 * @param location - host and path.
 * @param baseUrl - replaces both EDGAR origins when given (`http://127.0.0.1:8099`, no trailing slash needed).
 */
export function urlOf(location: EdgarLocation, baseUrl?: string): string {
  const origin = baseUrl === undefined ? EDGAR_ORIGINS[location.host] : baseUrl.replace(/\/+$/, '');
  return `${origin}${location.path}`;
}

/**
 * The file that mirrors a location under `root`: the URL path, segment by segment.
 *
 * @throws TypeError when a segment is empty, `.` or `..`, or the result would leave `root`.
 */
export function fileOf(root: string, location: EdgarLocation): string {
  const segments = location.path.split('/').slice(1);
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) {
    throw new TypeError(`not a mirrorable EDGAR path: ${JSON.stringify(location.path)}`);
  }
  const base = resolve(root);
  const file = join(base, ...segments);
  if (!file.startsWith(base + sep)) throw new TypeError(`EDGAR path leaves the output folder: ${JSON.stringify(location.path)}`);
  return file;
}

/**
 * A raw document name from a submissions `primaryDocument`, without its XSL rendering folder
 * (see `withoutRendering` in edgar/conventions.ts).
 *
 * @returns the name without its rendering folder, or undefined when what is left is not a document name.
 */
export function rawDocumentName(primaryDocument: string): string | undefined {
  const name = withoutRendering(primaryDocument.trim());
  return DOCUMENT_NAME.test(name) && !name.includes('..') ? name : undefined;
}

function cikOf(cik: string): string {
  const padded = padCik(cik);
  if (!padded) throw new TypeError(`not a CIK: ${JSON.stringify(cik)}`);
  return padded;
}
