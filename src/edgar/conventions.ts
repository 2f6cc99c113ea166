/**
 * EDGAR's own conventions: CIK padding, accession number forms, dates and the URLs that EDGAR
 * builds for a filing (EDGAR Full-Text and Archives layout,
 * `https://www.sec.gov/Archives/edgar/data/<cik>/<accession without dashes>/…`).
 */

/** EDGAR's www host: the Archives, the ticker files and the bulk products. */
export const SEC_WWW = 'https://www.sec.gov';
const ACCESSION = /^(\d{10})-?(\d{2})-?(\d{6})$/;

// How a CIK is padded and a ticker written are stated once, with the row schemas' patterns; the
// EDGAR readers take them from here with EDGAR's other conventions.
export { normaliseTicker, padCik } from '../identifiers.js';

/** A CIK without its leading zeros, as in Archives paths (`0001318605` → `1318605`). */
export const bareCik = (cik: string): string => String(Number(cik));

/**
 * An accession number in its dashed form `##########-##-######` (EDGAR Filer Manual Vol. II).
 *
 * @param value - dashed or 18 bare digits.
 * @returns the dashed form, or undefined when `value` is neither.
 */
export function normaliseAccession(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = ACCESSION.exec(value.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/**
 * Finds the accession number that names a file or folder: `0001045810-23-000050.xml`,
 * `0000002488-15-000095_wf-form4a.xml`, or EDGAR's Archives folder `000104581023000050`.
 *
 * @param name - a file or folder name (no slashes).
 */
export function accessionFromName(name: string): string | undefined {
  const match = /^(\d{10}-\d{2}-\d{6}|\d{18})(?=$|[._-])/.exec(name);
  return match ? normaliseAccession(match[1]) : undefined;
}

/** A filing's Archives folder name: its accession number without dashes (`0000320193-24-000084` → `000032019324000084`). */
export const accessionFolder = (accessionNo: string): string => accessionNo.replace(/-/g, '');

/** The name of a filing's index page in its folder: `<accession>-index.htm`. */
export const indexPageName = (accessionNo: string): string => `${accessionNo}-index.htm`;

/**
 * The path of a filing's document on EDGAR's www host:
 * `/Archives/edgar/data/<cik without leading zeros>/<accession without dashes>/<document>`.
 *
 * @param cik - any CIK of the filing (padded or not; EDGAR files the folder under each party).
 * @param accessionNo - dashed accession number.
 * @param document - the document's name in the folder, e.g. `tsla-20221231.htm`.
 */
export function archivePath(cik: string, accessionNo: string, document: string): string {
  return `/Archives/edgar/data/${bareCik(cik)}/${accessionFolder(accessionNo)}/${document}`;
}

/**
 * URL of a filing's document on EDGAR (see {@link archivePath}).
 *
 * @param cik - any CIK of the filing (padded or not).
 * @param accessionNo - dashed accession number.
 * @param document - the document's file name, e.g. `tsla-20221231.htm`.
 */
export function documentUrl(cik: string, accessionNo: string, document: string): string {
  return `${SEC_WWW}${archivePath(cik, accessionNo, document)}`;
}

/**
 * URL of a filing's index page on EDGAR: `…/<cik>/<accession without dashes>/<accession>-index.htm`.
 *
 * @param cik - any CIK of the filing.
 * @param accessionNo - dashed accession number.
 */
export function indexUrl(cik: string, accessionNo: string): string {
  return documentUrl(cik, accessionNo, indexPageName(accessionNo));
}

/**
 * A document name without EDGAR's XSL rendering folder: submissions JSON and index pages name a
 * Form 3/4/5 or 13F XML document by its rendering (`xslF345X05/wk-form4_1723069808.xml`,
 * `xslForm13F_X02/primary_doc.xml`); the raw XML has the same name in the filing folder itself.
 */
export const withoutRendering = (name: string): string => name.replace(/^xsl[^/]*\//i, '');

/**
 * A date `YYYY-MM-DD` from EDGAR's forms: `YYYYMMDD` (SGML headers), `MM-DD-YYYY` (13F cover
 * pages) or already ISO (a trailing time is dropped).
 *
 * @returns the ISO date, or undefined when the value is none of these.
 */
export function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(v);
  if (m) return `${m[3]}-${m[1]}-${m[2]}`;
  return undefined;
}

/** Adds `days` (may be negative) to an ISO date. */
export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (ISO dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
