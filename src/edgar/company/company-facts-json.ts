/**
 * XBRL company facts (data.sec.gov/api/xbrl/companyfacts/CIK##########.json): every value a
 * company tagged in its 10-Q and 10-K filings, per concept and unit, with the fiscal year and
 * period (`fy`, `fp`) of the filing that reported it. The concepts the caller asks for are
 * kept, and every filing that reported any fact (accession number, form, filing date):
 * company facts are a list of the company's 10-K, 10-Q and other XBRL filings too.
 */
import { isoDate, normaliseAccession, padCik } from '../conventions.js';

/** One reported value. */
export interface Fact {
  start: string | null;
  end: string;
  val: number;
  accn: string;
  fy: number | null;
  fp: string | null;
  form: string;
  filed: string;
}

/** The facts of one company that the builder uses. */
export interface CompanyFacts {
  cik: string;
  name: string;
  /** Facts by concept name. */
  concepts: Map<string, Fact[]>;
  /** Every filing that reported a fact, by accession number. */
  filings: Map<string, CompanyFactsFiling>;
}

/** A filing named by company facts. */
export interface CompanyFactsFiling {
  accessionNo: string;
  form: string;
  filedAt: string;
}

/** Whether parsed JSON is a companyfacts file. */
export function isCompanyFactsFile(value: unknown): boolean {
  const record = value as Record<string, unknown> | null;
  return typeof record === 'object' && record !== null && 'facts' in record && 'entityName' in record && 'cik' in record;
}

/**
 * Reads a companyfacts file: the us-gaap concepts asked for (USD or USD per share), and every
 * filing that reported any fact.
 *
 * @param concepts - names of the us-gaap concepts to keep; the others are passed over.
 * @throws Error when the CIK is invalid.
 */
export function parseCompanyFacts(value: unknown, concepts: ReadonlySet<string>): CompanyFacts {
  const record = value as { cik: unknown; entityName: unknown; facts: Record<string, Record<string, { units?: Record<string, unknown[]> }>> };
  const cik = padCik(String(record.cik));
  if (!cik) throw new Error('companyfacts with an invalid cik');
  const kept = new Map<string, Fact[]>();
  const filings = new Map<string, CompanyFactsFiling>();
  for (const taxonomy of Object.values(record.facts ?? {})) {
    for (const concept of Object.values(taxonomy ?? {})) {
      for (const list of Object.values(concept?.units ?? {})) {
        for (const f of list as Record<string, unknown>[]) {
          const accessionNo = normaliseAccession(typeof f.accn === 'string' ? f.accn : undefined);
          const filedAt = isoDate(typeof f.filed === 'string' ? f.filed : undefined);
          if (accessionNo && filedAt && typeof f.form === 'string' && !filings.has(accessionNo)) filings.set(accessionNo, { accessionNo, form: f.form, filedAt });
        }
      }
    }
  }
  for (const [name, concept] of Object.entries(record.facts['us-gaap'] ?? {})) {
    if (!concepts.has(name)) continue;
    const units = concept.units ?? {};
    const list = (units.USD ?? units['USD/shares'] ?? []) as Record<string, unknown>[];
    kept.set(name, list.filter((f) => typeof f.val === 'number' && typeof f.end === 'string').map((f) => ({
      start: typeof f.start === 'string' ? f.start : null,
      end: f.end as string,
      val: f.val as number,
      accn: String(f.accn ?? ''),
      fy: typeof f.fy === 'number' ? f.fy : null,
      fp: typeof f.fp === 'string' ? f.fp : null,
      form: String(f.form ?? ''),
      filed: String(f.filed ?? ''),
    })));
  }
  return { cik, name: typeof record.entityName === 'string' ? record.entityName : '', concepts: kept, filings };
}
