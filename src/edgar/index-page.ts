/**
 * EDGAR filing index pages (`…/<accession>-index.htm`, "Filing Detail"): the filing's form,
 * accession number, filing date, acceptance time (Eastern), period of report, 8-K items, the
 * documents it holds, and each company named with its profile. The page is EDGAR's own
 * template, so its fields are found by the template's class names and labels.
 */
import { edgarEasternToIso } from './eastern-time.js';
import { isoDate, normaliseAccession, padCik } from './conventions.js';
import type { HeaderCompany } from './sgml.js';

/** What an index page says about a filing. */
export interface IndexPage {
  accessionNo: string;
  /** The form as the page names it, e.g. `8-K`, `4`, `10-Q`. */
  form: string;
  filedAt: string;
  /** The "Accepted" time converted from Eastern time to UTC; null where it is EDGAR's midnight placeholder. */
  acceptedAt: string | null;
  periodOfReport: string | null;
  /** Item numbers of an 8-K, in order. */
  items: string[];
  /** The documents of the filing: sequence, type and file name (the complete submission `.txt` left out). */
  documents: { type: string; filename: string }[];
  companies: HeaderCompany[];
}

/** Whether `html` is an EDGAR filing index page. */
export const isIndexPage = (html: string): boolean => html.includes('id="secNum"') && html.includes('class="infoHead"');

const decode = (text: string): string => text.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
  .replace(/\s+/g, ' ').trim();

/**
 * Reads an index page.
 *
 * @throws Error when it lacks the accession number, the form or the filing date.
 */
export function parseIndexPage(html: string): IndexPage {
  const accessionNo = normaliseAccession(/Accession <acronym[^>]*>No\.<\/acronym><\/strong>\s*([\d-]+)/.exec(html)?.[1]);
  const form = decode(/<div id="formName">\s*<strong>Form ([^<]+)<\/strong>/.exec(html)?.[1] ?? '');
  const info = (label: string): string | undefined => {
    const m = new RegExp(`<div class="infoHead">${label}</div>\\s*<div class="info">([\\s\\S]*?)</div>`).exec(html);
    return m ? m[1] : undefined;
  };
  const filedAt = isoDate(info('Filing Date'));
  if (!accessionNo || !form || !filedAt) throw new Error('index page without accession number, form or filing date');
  const documents: IndexPage['documents'] = [];
  for (const [, row] of html.matchAll(/<tr[^>]*>\s*((?:<td[^>]*>[\s\S]*?<\/td>\s*){5})<\/tr>/g)) {
    const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
    const filename = decode(cells[2] ?? '').split(' ')[0] ?? '';
    const type = decode(cells[3] ?? '');
    if (filename && type && !filename.endsWith(`${accessionNo}.txt`)) documents.push({ type, filename });
  }
  return {
    accessionNo, form, filedAt,
    acceptedAt: edgarEasternToIso(info('Accepted')) ?? null,
    periodOfReport: isoDate(info('Period of Report')) ?? null,
    items: [...(info('Items') ?? '').matchAll(/Item (\d{1,2}\.\d\d)/g)].map((m) => m[1]!),
    documents,
    companies: [...html.matchAll(/<span class="companyName">([\s\S]*?)<\/span>\s*<p class="identInfo">([\s\S]*?)<\/p>/g)].map(readCompany)
      .filter((c): c is HeaderCompany => c !== undefined),
  };
}

function readCompany([, name, ident]: RegExpMatchArray): HeaderCompany | undefined {
  const cik = padCik(/CIK=(\d+)/.exec(name!)?.[1]);
  if (!cik) return undefined;
  const title = decode(name!.split('<acronym')[0]!);
  const role = /\(([^)]+)\)\s*$/.exec(title)?.[1]?.trim() ?? '';
  const text = decode(ident!);
  const sic = /SIC\s*:\s*(\d{4})\s*([^|]*)/.exec(text);
  const state = /State of Incorp\.: ([A-Z0-9]{2})\b/.exec(text)?.[1] ?? null;
  const fye = /Fiscal Year End: (\d{4})\b/.exec(text)?.[1] ?? null;
  return {
    role: role.toUpperCase(), cik, name: title.replace(/\s*\([^)]*\)\s*$/, ''),
    sic: sic?.[1] ?? null, sicDescription: sic?.[2]?.trim() || null, stateOfIncorporation: state, fiscalYearEnd: fye,
  };
}
