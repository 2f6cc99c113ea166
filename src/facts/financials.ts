/**
 * Financials rows (docs/api.md §16): one row per company and fiscal period that a 10-K, 10-Q or
 * an amendment of either reported in XBRL, from the company's facts.
 *
 * - A period is a span of three months (a quarter) or a year that some such filing stated a
 *   value for (revenue, income, EPS or operating cash flow: the duration values of
 *   financials-concepts.ts). Its fiscal year and quarter come from its dates on the company's own
 *   fiscal calendar (fiscal-calendar.ts), whose year ends are those of the years its annual
 *   reports stated. A year that only a 10-Q stated (a trailing twelve months) is no fiscal year.
 * - Values are as first reported. For each value, among the facts of its concepts for the period
 *   (a duration equal to the row's period, or a balance at its last day), the earliest filing
 *   wins, by filing date, then accession number; within that filing the first concept of the
 *   list it states. A later restatement does not change them.
 * - The row's form, accession number and filing date are those of the filing that first reported
 *   the period (the earliest filing stating any of its duration values); a value that this filing
 *   left out comes from the first filing that stated it.
 * - A quarter row takes three-month values only: the year-to-date cash flows of Q2 and Q3 are not
 *   theirs. A Q4 row exists only where a filing states a three-month value ending at the fiscal
 *   year's end; it is never made by subtracting nine months from the year.
 */
import type { CompanyFacts, Fact } from '../edgar/company/company-facts-json.js';
import { isoDate, normaliseAccession } from '../edgar/conventions.js';
import { FINANCIAL_FORMS } from '../rows/schemas.js';
import type { FinancialsRow, FinancialValues } from '../rows/types.js';
import { FINANCIAL_CONCEPTS, FINANCIAL_VALUE_KEYS, type FinancialValueKey } from './financials-concepts.js';
import { fiscalCalendar, fiscalYearName, periodLength } from './fiscal-calendar.js';

/** What the rows need of a company besides its facts. */
export interface FinancialsCompany {
  /** Tickers, primary first; empty for a company without one. */
  tickers: readonly string[];
  name: string;
  /** EDGAR's fiscal year end of the company, `MMDD`, or null. */
  fiscalYearEnd: string | null;
}

/** What the computation left out, for the manifest's notes. */
export interface FinancialsNotes {
  /** Companies with at least one row. */
  companies: number;
  /** Three-month periods whose end is no quarter end of the company's fiscal calendar (across a change of fiscal year). */
  quartersOffCalendar: number;
  /** Year-long periods that no 10-K or 10-K/A stated (a trailing twelve months in a 10-Q). */
  yearsNotInAnnualReports: number;
  /** Periods left out because another period of the same company was the same fiscal period and reported first. */
  samePeriodReportedLater: number;
  /** Quarters of companies without a known fiscal year end (no annual report among the inputs, no EDGAR record of one). */
  quartersWithoutCalendar: number;
}

/** The rows, without their summaries, and what was left out. */
export interface FinancialsResult {
  rows: FinancialsRow[];
  /**
   * Periods found in the facts that could be placed: years of annual reports, and quarters of
   * companies with a fiscal calendar. A build with some and no rows lost them all.
   */
  periodsPlaceable: number;
  notes: FinancialsNotes;
}

type FinancialForm = (typeof FINANCIAL_FORMS)[number];
const FORMS: ReadonlySet<string> = new Set(FINANCIAL_FORMS);
const ANNUAL_FORMS: ReadonlySet<string> = new Set(['10-K', '10-K/A']);

/** A fact of an accepted filing, its accession number dashed. */
type Reported = Fact & { accn: string; form: FinancialForm };

/** A period found in the facts. */
interface Period {
  start: string;
  end: string;
  length: 'quarter' | 'year';
  /** The earliest fact stating one of its duration values. */
  first: Reported;
  /** Whether a 10-K or 10-K/A stated it. */
  annual: boolean;
}

/** Whether `a` was filed before `b`: by filing date, then accession number. */
const earlier = (a: Reported, b: Reported): boolean => a.filed < b.filed || (a.filed === b.filed && a.accn < b.accn);

/**
 * Computes the rows of every company.
 *
 * @param facts - company facts by CIK, cut at the as-of date.
 * @param company - tickers, name and fiscal year end of a CIK; undefined where no input names it
 *   (the name in its facts is used, without ticker).
 */
export function computeFinancialsRows(facts: ReadonlyMap<string, CompanyFacts>, company: (cik: string) => FinancialsCompany | undefined): FinancialsResult {
  const notes: FinancialsNotes = { companies: 0, quartersOffCalendar: 0, yearsNotInAnnualReports: 0, samePeriodReportedLater: 0, quartersWithoutCalendar: 0 };
  const rows: FinancialsRow[] = [];
  let periodsFound = 0;
  for (const companyFacts of facts.values()) {
    const who = company(companyFacts.cik) ?? { tickers: [], name: companyFacts.name, fiscalYearEnd: null };
    const index = indexFacts(companyFacts);
    const { periods, ownEnds } = findPeriods(index);
    periodsFound += periods.length;
    const own = companyRows(companyFacts.cik, who, { ...index, ownEnds }, periods, notes);
    if (own.length > 0) notes.companies++;
    for (const row of own) rows.push(row);
  }
  return { rows, periodsPlaceable: periodsFound - notes.yearsNotInAnnualReports - notes.quartersWithoutCalendar, notes };
}

/** Facts of accepted filings, per concept, by period key (`start/end`, `/end` for a balance) and by accession number. */
interface FactIndex {
  byPeriod: Map<string, Map<string, Reported[]>>;
  byAccession: Map<string, Map<string, Reported[]>>;
}

/** The index with each filing's own period: the latest end of the quarters and years it stated, by accession number. */
type PeriodIndex = FactIndex & { ownEnds: ReadonlyMap<string, string> };

const periodKey = (start: string | null, end: string): string => `${start ?? ''}/${end}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Indexes the facts of 10-K, 10-Q and their amendments, in file order. */
function indexFacts(companyFacts: CompanyFacts): FactIndex {
  const byPeriod = new Map<string, Map<string, Reported[]>>();
  const byAccession = new Map<string, Map<string, Reported[]>>();
  for (const [concept, list] of companyFacts.concepts) {
    const periods = new Map<string, Reported[]>();
    const accessions = new Map<string, Reported[]>();
    for (const fact of list) {
      const accn = normaliseAccession(fact.accn);
      if (!FORMS.has(fact.form) || accn === undefined || isoDate(fact.filed) !== fact.filed) continue;
      const reported = { ...fact, accn, form: fact.form as FinancialForm };
      push(periods, periodKey(fact.start, fact.end), reported);
      push(accessions, accn, reported);
    }
    byPeriod.set(concept, periods);
    byAccession.set(concept, accessions);
  }
  return { byPeriod, byAccession };
}

/** The quarters and years that the duration values were stated for, in the order first met, and each filing's own period end. */
function findPeriods(index: FactIndex): { periods: Period[]; ownEnds: Map<string, string> } {
  const periods = new Map<string, Period>();
  const ownEnds = new Map<string, string>();
  for (const key of FINANCIAL_VALUE_KEYS) {
    const { dated, concepts } = FINANCIAL_CONCEPTS[key];
    if (dated !== 'duration') continue;
    for (const concept of concepts) {
      for (const list of index.byPeriod.get(concept)?.values() ?? []) {
        for (const fact of list) {
          if (fact.start === null) continue;
          const length = periodLength(fact.start, fact.end);
          if (length === null) continue;
          const ownEnd = ownEnds.get(fact.accn);
          if (ownEnd === undefined || fact.end > ownEnd) ownEnds.set(fact.accn, fact.end);
          const k = periodKey(fact.start, fact.end);
          const known = periods.get(k);
          if (!known) periods.set(k, { start: fact.start, end: fact.end, length, first: fact, annual: ANNUAL_FORMS.has(fact.form) });
          else {
            if (earlier(fact, known.first)) known.first = fact;
            if (ANNUAL_FORMS.has(fact.form)) known.annual = true;
          }
        }
      }
    }
  }
  return { periods: [...periods.values()], ownEnds };
}

/** One company's rows: its periods placed on its fiscal calendar, one per fiscal period, with their values. */
function companyRows(cik: string, who: FinancialsCompany, index: PeriodIndex, periods: readonly Period[], notes: FinancialsNotes): FinancialsRow[] {
  const yearEnds = periods.filter((p) => p.length === 'year' && p.annual).map((p) => p.end);
  const calendar = fiscalCalendar(yearEnds, who.fiscalYearEnd);
  const chosen = new Map<string, { period: Period; fiscalYear: number; fiscalPeriod: FinancialsRow['fiscal_period'] }>();
  for (const period of periods) {
    let place: { fiscalYear: number; fiscalPeriod: FinancialsRow['fiscal_period'] } | null;
    if (period.length === 'year') {
      if (!period.annual) {
        notes.yearsNotInAnnualReports++;
        continue;
      }
      place = { fiscalYear: fiscalYearName(period.end), fiscalPeriod: 'FY' };
    } else {
      if (calendar === null) {
        notes.quartersWithoutCalendar++;
        continue;
      }
      place = calendar.place(period.end);
      if (place === null) {
        notes.quartersOffCalendar++;
        continue;
      }
    }
    const k = `${place.fiscalYear}/${place.fiscalPeriod}`;
    const known = chosen.get(k);
    if (known === undefined || earlier(period.first, known.period.first)) {
      if (known !== undefined) notes.samePeriodReportedLater++;
      chosen.set(k, { period, ...place });
    } else {
      notes.samePeriodReportedLater++;
    }
  }
  const rows = [...chosen.values()].map(({ period, fiscalYear, fiscalPeriod }) => {
    const { values, concepts } = periodValues(index, period);
    const row: FinancialsRow = {
      type: 'financials', ticker: who.tickers[0] ?? null, tickers: [...who.tickers], cik, company: who.name,
      fiscal_year: fiscalYear, fiscal_period: fiscalPeriod, period_start: period.start, period_end: period.end,
      form: period.first.form, accession_no: period.first.accn, filed_at: period.first.filed, values, concepts,
    };
    return row;
  });
  // Latest first; a year before the quarter that ends on the same day, so that builds are identical.
  return rows.sort((a, b) => (a.period_end !== b.period_end ? (a.period_end < b.period_end ? 1 : -1) : a.period_start < b.period_start ? -1 : a.period_start > b.period_start ? 1 : 0));
}

/**
 * The values of a period and the concept of each, as first reported. A cover-page value is read
 * only where the filing that first reported the period reported it as its own (its latest
 * period): the cover of a later filing that states the period as a comparative speaks of a
 * later date.
 */
function periodValues(index: PeriodIndex, period: Period): { values: FinancialValues; concepts: FinancialsRow['concepts'] } {
  const values = {} as Record<FinancialValueKey, number | null>;
  const concepts: Partial<Record<FinancialValueKey, string>> = {};
  for (const key of FINANCIAL_VALUE_KEYS) {
    const spec = FINANCIAL_CONCEPTS[key];
    const k = spec.dated === 'duration' ? periodKey(period.start, period.end) : periodKey(null, period.end);
    let best = firstReported(spec.concepts, (concept) => index.byPeriod.get(concept)?.get(k));
    if (best === null && spec.cover && index.ownEnds.get(period.first.accn) === period.end) best = firstReported(spec.cover, (concept) => index.byAccession.get(concept)?.get(period.first.accn));
    values[key] = best?.fact.val ?? null;
    if (best) concepts[key] = best.concept;
  }
  return { values: values as FinancialValues, concepts };
}

/**
 * The earliest filed fact among the concepts' facts: of one filing, the first concept's, and
 * of one concept, the first in the file's order.
 */
function firstReported(concepts: readonly string[], factsOf: (concept: string) => readonly Reported[] | undefined): { fact: Reported; concept: string } | null {
  let best: { fact: Reported; concept: string } | null = null;
  for (const concept of concepts) {
    for (const fact of factsOf(concept) ?? []) if (best === null || earlier(fact, best.fact)) best = { fact, concept };
  }
  return best;
}
