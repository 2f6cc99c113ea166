/**
 * XBRL company facts (data.sec.gov/api/xbrl/companyfacts/CIK##########.json, and each entry of
 * the nightly `companyfacts.zip`): every value a company tagged in its XBRL filings without a
 * dimension, per taxonomy (`us-gaap`, `dei`, …), concept and unit, each with its period (`start`
 * for a duration, `end`), the accession number, form and filing date of the filing that
 * reported it, and that filing's fiscal year and period tags (`fy`, `fp`). The concepts the
 * caller asks for are kept, and every filing that reported any fact: company facts are a list
 * of the company's 10-K, 10-Q and other XBRL filings too.
 */
import { isoDate, normaliseAccession, padCik } from '../conventions.js';

/** One reported value. */
export interface Fact {
  /** First day of a duration, `YYYY-MM-DD`; null for an instant (a balance at `end`). */
  start: string | null;
  /** Last day of a duration, or the instant, `YYYY-MM-DD`. */
  end: string;
  /** The value as reported, in the concept's unit (USD, USD per share, or shares). */
  val: number;
  /** Accession number of the filing that reported it, as company facts writes it (dashed). */
  accn: string;
  /** The reporting filing's `DocumentFiscalYearFocus`, not the fact's own year. */
  fy: number | null;
  /** The reporting filing's `DocumentFiscalPeriodFocus` (`Q1`…`FY`). */
  fp: string | null;
  /** Form type of the reporting filing (`10-K`, `10-Q/A`, `8-K`, …). */
  form: string;
  /** Filing date of the reporting filing, `YYYY-MM-DD`. */
  filed: string;
}

/** The facts of one company that the builder uses. */
export interface CompanyFacts {
  cik: string;
  name: string;
  /**
   * Facts by taxonomy-qualified concept name (`us-gaap:Revenues`, `dei:EntityCommonStockSharesOutstanding`),
   * in the file's order, of the first unit present among USD, USD per share and shares.
   */
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

/**
 * The units read, in order of preference: the first a concept has is kept (company facts names
 * units as the XBRL filings do, `USD`, `USD/shares`, `shares`); other currencies are not read.
 */
export const FACT_UNITS = ['USD', 'USD/shares', 'shares'] as const;

/** Whether parsed JSON is a companyfacts file. */
export function isCompanyFactsFile(value: unknown): boolean {
  const record = value as Record<string, unknown> | null;
  return typeof record === 'object' && record !== null && 'facts' in record && 'entityName' in record && 'cik' in record;
}

type UnitLists = Record<string, { units?: Record<string, unknown[]> }>;

/**
 * Reads a companyfacts file: the concepts asked for (in the first unit of {@link FACT_UNITS}
 * they have), and every filing that reported any fact.
 *
 * @param concepts - taxonomy-qualified names of the concepts to keep (`us-gaap:NetIncomeLoss`);
 *   the others are passed over.
 * @throws Error when the CIK is invalid.
 */
export function parseCompanyFacts(value: unknown, concepts: ReadonlySet<string>): CompanyFacts {
  const record = value as { cik: unknown; entityName: unknown; facts: Record<string, UnitLists> };
  const cik = padCik(String(record.cik));
  if (!cik) throw new Error('companyfacts with an invalid cik');
  const kept = new Map<string, Fact[]>();
  const filings = new Map<string, CompanyFactsFiling>();
  for (const [taxonomy, byConcept] of Object.entries(record.facts ?? {})) {
    for (const [name, concept] of Object.entries(byConcept ?? {})) {
      const units = concept?.units ?? {};
      for (const list of Object.values(units)) {
        for (const f of list as Record<string, unknown>[]) {
          const accessionNo = normaliseAccession(typeof f.accn === 'string' ? f.accn : undefined);
          const filedAt = isoDate(typeof f.filed === 'string' ? f.filed : undefined);
          if (accessionNo && filedAt && typeof f.form === 'string' && !filings.has(accessionNo)) filings.set(accessionNo, { accessionNo, form: f.form, filedAt });
        }
      }
      const qualified = `${taxonomy}:${name}`;
      if (!concepts.has(qualified)) continue;
      const unit = FACT_UNITS.find((u) => Array.isArray(units[u]));
      if (unit !== undefined) kept.set(qualified, readFacts(units[unit] as Record<string, unknown>[]));
    }
  }
  return { cik, name: typeof record.entityName === 'string' ? record.entityName : '', concepts: kept, filings };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The facts of one unit that have a number and an end date. */
function readFacts(list: readonly Record<string, unknown>[]): Fact[] {
  return list.filter((f) => typeof f.val === 'number' && Number.isFinite(f.val) && typeof f.end === 'string' && ISO_DATE.test(f.end)).map((f) => ({
    start: typeof f.start === 'string' && ISO_DATE.test(f.start) ? f.start : null,
    end: f.end as string,
    val: f.val as number,
    accn: String(f.accn ?? ''),
    fy: typeof f.fy === 'number' ? f.fy : null,
    fp: typeof f.fp === 'string' ? f.fp : null,
    form: String(f.form ?? ''),
    filed: String(f.filed ?? ''),
  }));
}
