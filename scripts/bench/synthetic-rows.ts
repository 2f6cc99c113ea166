/**
 * Synthetic rows for the benchmark snapshot: the real row shapes (src/rows/types.ts) with
 * made-up but internally consistent figures. Everything is drawn from seeded generators, so a
 * seed gives the same bytes every time. Written fields are plain factual templates with no
 * advice words (docs/api.md §6).
 */
import type {
  EarningsRow, FilingRow, HolderRow, Holding, InsiderRow, InsiderTransactionRow, NotableTrade, ReportRow, WhaleRow,
} from '../../src/rows/types.js';

/** A seeded generator of floats in [0, 1) (mulberry32: small, fast, good enough for test data). */
export type Random = () => number;

/** mulberry32 seeded with a 32-bit integer. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole number in [0, n). */
export const randomInt = (random: Random, n: number): number => Math.floor(random() * n);

/** A filer: a company with a ticker, or (ticker null) a filer without one. */
export interface Company {
  readonly ticker: string | null;
  /** 10 digits, zero-padded. */
  readonly cik: string;
  readonly name: string;
}

const WORDS = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Evergreen', 'Frontier', 'Granite', 'Harbor', 'Ionic', 'Juniper',
  'Keystone', 'Lumen', 'Meridian', 'Northwind', 'Orchid', 'Pioneer', 'Quarry', 'Redwood', 'Summit', 'Tidewater'];
const SUFFIXES = ['Inc.', 'Corp', 'Holdings, Inc.', 'Group', 'Therapeutics, Inc.', 'Bancorp', 'Technologies Inc.', 'Energy Corp'];

/**
 * `count` companies with distinct tickers (3–4 letters, about 2% with a class suffix such as
 * `-B`) and distinct CIKs, followed by `withoutTicker` filers that have no ticker.
 */
export function makeCompanies(random: Random, count: number, withoutTicker: number): Company[] {
  const tickers = new Set<string>();
  const companies: Company[] = [];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  while (tickers.size < count) {
    let ticker = '';
    const length = 3 + randomInt(random, 2);
    for (let i = 0; i < length; i++) ticker += letters[randomInt(random, 26)];
    if (random() < 0.02) ticker += `-${letters[randomInt(random, 3)]}`;
    tickers.add(ticker);
  }
  let cik = 1_000_000;
  for (const ticker of tickers) {
    cik += 1 + randomInt(random, 97);
    companies.push({ ticker, cik: String(cik).padStart(10, '0'), name: `${WORDS[randomInt(random, WORDS.length)]} ${ticker} ${SUFFIXES[randomInt(random, SUFFIXES.length)]}` });
  }
  for (let i = 0; i < withoutTicker; i++) {
    cik += 1 + randomInt(random, 97);
    companies.push({ ticker: null, cik: String(cik).padStart(10, '0'), name: `${WORDS[randomInt(random, WORDS.length)]} Capital Fund ${i + 1} LP` });
  }
  return companies;
}

/**
 * Draws ranks 0..n-1 with Zipf weights 1/(rank+1)^exponent: a few ranks very often, most rarely.
 * Cumulative table plus binary search, so a draw is O(log n).
 */
export function zipfSampler(n: number, exponent: number): (random: Random) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / (k + 1) ** exponent;
  return (random) => {
    const target = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Business days (Mon–Fri) counting back from `through` (`YYYY-MM-DD`), newest first. */
export function businessDays(through: string, count: number): string[] {
  const days: string[] = [];
  const day = new Date(`${through}T00:00:00Z`);
  while (days.length < count) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() - 1);
  }
  return days;
}

/** `total` split over `days` buckets as evenly as whole numbers allow. */
export const perDay = (total: number, days: number, index: number): number =>
  Math.floor(total / days) + (index < total % days ? 1 : 0);

const FORMS: readonly (readonly [string, number])[] = [
  ['4', 0.40], ['424B2', 0.12], ['8-K', 0.10], ['10-Q', 0.06], ['SC 13G/A', 0.05], ['3', 0.04], ['144', 0.05],
  ['10-K', 0.02], ['DEF 14A', 0.02], ['S-1', 0.01], ['6-K', 0.05], ['13F-HR', 0.03], ['FWP', 0.05],
];
const ITEMS_8K = ['2.02', '5.02', '7.01', '8.01', '1.01', '5.07', '9.01'];

function pickForm(random: Random): string {
  let r = random();
  for (const [form, share] of FORMS) if ((r -= share) < 0) return form;
  return '4';
}

/** An accession number `##########-YY-######` for a filer, a date `YYYY-MM-DD` and a sequence. */
const accessionOf = (cik: string, day: string, sequence: number): string =>
  `${cik}-${day.slice(2, 4)}-${String(sequence % 1_000_000).padStart(6, '0')}`;
const archive = (cik: string, accession: string): string =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}`;

/** One filing of `company` on `day`; `sequence` keeps accession numbers distinct. */
export function makeFiling(random: Random, company: Company, day: string, sequence: number): FilingRow {
  const form = pickForm(random);
  const accession = accessionOf(company.cik, day, sequence);
  const seconds = 6 * 3600 + randomInt(random, 16 * 3600);
  const time = new Date(Date.parse(`${day}T00:00:00Z`) + seconds * 1000).toISOString();
  const items = form === '8-K' ? ITEMS_8K.filter(() => random() < 0.3).slice(0, 3) : [];
  const base = archive(company.cik, accession);
  const periodic = form === '10-Q' || form === '10-K' || form === '4' || form === '13F-HR';
  return {
    type: 'filing', ticker: company.ticker, cik: company.cik, company: company.name, form, accession_no: accession,
    filed_at: day, accepted_at: time, period_of_report: periodic ? day : null, items,
    primary_doc_url: `${base}/${form === '4' ? 'xslF345X05/wk-form4.xml' : 'primary_doc.htm'}`,
    index_url: `${base}/${accession}-index.htm`,
    summary: `${company.name} filed a Form ${form} with the SEC on ${day}${items.length > 0 ? `, reporting items ${items.join(', ')}` : ''}. ` +
      `The filing was accepted by EDGAR at ${time.slice(11, 19)} UTC.`,
  };
}

/** One earnings release (8-K item 2.02) of `company` on `day`. */
export function makeEarnings(random: Random, company: Company & { ticker: string }, day: string, sequence: number): EarningsRow {
  const accession = accessionOf(company.cik, day, sequence);
  const revenue = Math.round(1e6 + random() * 5e9);
  const netIncome = Math.round(revenue * (random() * 0.4 - 0.1));
  const shares = 1e6 + random() * 1e9;
  const period = (['Q1', 'Q2', 'Q3', 'Q4', 'FY'] as const)[randomInt(random, 5)]!;
  const year = Number(day.slice(0, 4)) - (period === 'Q4' || period === 'FY' ? 1 : 0);
  const eps = Math.round((netIncome / shares) * 100) / 100;
  return {
    type: 'earnings', ticker: company.ticker, cik: company.cik, company: company.name, form: random() < 0.9 ? '8-K' : '8-K/A',
    accession_no: accession, filed_at: day, release_url: `${archive(company.cik, accession)}/ex99-1.htm`,
    fiscal_year: year, fiscal_period: period,
    figures: { revenue_usd: revenue, net_income_usd: netIncome, eps_basic: eps, eps_diluted: Math.round(eps * 98) / 100 },
    recap: `${company.name} reported revenue of ${revenue} USD and net income of ${netIncome} USD for ${period} ${year}; ` +
      `basic earnings per share were ${eps} USD.`,
  };
}

const ROLES = ['Chief Executive Officer', 'Chief Financial Officer', 'Director', '10% Owner', 'General Counsel', 'Other'];

/** The insider row of `company` for the window ending `through`. */
export function makeInsider(random: Random, company: Company & { ticker: string }, through: string, sequence: number): InsiderRow {
  const notable: NotableTrade[] = [];
  const trades = randomInt(random, 6);
  let buy = 0;
  let sell = 0;
  for (let i = 0; i < trades; i++) {
    const code = random() < 0.3 ? 'P' : 'S';
    const shares = 100 + randomInt(random, 200_000);
    const price = Math.round((1 + random() * 400) * 100) / 100;
    const value = Math.round(shares * price * 100) / 100;
    if (code === 'P') buy += value;
    else sell += value;
    notable.push({
      insider: `${WORDS[randomInt(random, WORDS.length)]} ${String.fromCharCode(65 + randomInt(random, 26))}.`, role: ROLES[randomInt(random, ROLES.length)]!,
      code, value_usd: value, date: through, shares, price_usd: price, plan_10b5_1: random() < 0.5,
      accession_no: accessionOf(company.cik, through, sequence * 8 + i), price_in_footnote: false,
    });
  }
  notable.sort((a, b) => b.value_usd! - a.value_usd!);
  const buys = notable.filter((trade) => trade.code === 'P').length;
  const start = new Date(Date.parse(`${through}T00:00:00Z`) - 89 * 86_400_000).toISOString().slice(0, 10);
  const net = Math.round((buy - sell) * 100) / 100;
  return {
    type: 'insider', ticker: company.ticker, cik: company.cik, company: company.name, window_days: 90,
    window_start: start, window_end: through, net_usd: net, buy_usd: Math.round(buy * 100) / 100, sell_usd: Math.round(sell * 100) / 100,
    n_buys: buys, n_sells: notable.length - buys, n_insiders_buying: buys, cluster_buying: buys >= 3,
    cluster_rule: { codes: ['P'], min_insiders: 3, span_days: 30 }, notable,
    summary: `Insiders of ${company.name} made ${buys} open-market purchases and ${notable.length - buys} open-market sales ` +
      `between ${start} and ${through}, for a net value of ${net} USD.`,
  };
}

const TRANSACTION_CODES = ['S', 'S', 'S', 'P', 'A', 'M', 'F', 'G'] as const;

/**
 * The lines of one Form 4 filed on `day`: 1 to 4 lines (Table I, then a Table II line where one is
 * an exercise), in the form's order, of one reporting owner.
 */
export function makeInsiderTransactions(random: Random, company: Company, day: string, sequence: number): InsiderTransactionRow[] {
  const owner = `${WORDS[randomInt(random, WORDS.length)]} ${String.fromCharCode(65 + randomInt(random, 26))}.`;
  const ownerCik = String(2_000_000 + randomInt(random, 500_000)).padStart(10, '0');
  const role = ROLES[randomInt(random, ROLES.length)]!;
  const accession = accessionOf(company.cik, day, sequence);
  const plan = random() < 0.5;
  const lines = 1 + randomInt(random, 4);
  const out: InsiderTransactionRow[] = [];
  for (let i = 0; i < lines; i++) {
    const code = TRANSACTION_CODES[randomInt(random, TRANSACTION_CODES.length)]!;
    const derivative = code === 'M' && i === lines - 1;
    const shares = 10 + randomInt(random, 50_000);
    const price = code === 'A' || code === 'G' ? 0 : Math.round((1 + random() * 400) * 100) / 100;
    const value = Math.round(shares * price * 100) / 100;
    const disposed = code === 'S' || code === 'F' || code === 'G' || derivative;
    out.push({
      type: 'insider_transaction', ticker: company.ticker, tickers: company.ticker ? [company.ticker] : [], cik: company.cik, company: company.name,
      owner_cik: ownerCik, owner_name: owner, role, joint_owner_ciks: [], form: '4', accession_no: accession, filed_at: day, filed_at_source: 'edgar',
      transaction_date: day, table: derivative ? 'derivative' : 'non_derivative', security_title: derivative ? 'Stock Option (right to buy)' : 'Common Stock',
      code, acquired_disposed: disposed ? 'D' : 'A', shares, price_usd: price, value_usd: value, shares_owned_after: shares * (1 + randomInt(random, 20)),
      direct_indirect: 'D', plan_10b5_1: plan, price_in_footnote: false, from_data_set: false,
      summary: `On ${day}, ${owner} (${role}) reported ${shares} ${derivative ? 'units' : 'shares'} of ${company.name} with code ${code} at ${price} USD, worth ${value} USD.`,
    });
  }
  return out;
}

/** A 13F-HR filer holding positions in `companies`. */
export function makeWhale(random: Random, filer: Company, companies: readonly Company[], through: string, sequence: number): WhaleRow {
  const total = Math.round(1e7 + random() ** 3 * 5e11);
  const holding = (): Holding => {
    const company = companies[randomInt(random, companies.length)]!;
    const weight = Math.round(random() * 0.1 * 10_000) / 10_000;
    const value = Math.round(total * weight);
    const change = randomInt(random, 20_000) - 10_000;
    return {
      issuer: company.name.toUpperCase(), cusip: company.cik.slice(1), ticker: company.ticker, title_of_class: 'COM', put_call: null,
      shares: Math.round(value / 50), value_usd: value, weight, change_shares: change, change_pct: Math.round(change / 100) / 10,
      action: change > 0 ? 'added' : change < 0 ? 'reduced' : 'unchanged',
    };
  };
  const top = Array.from({ length: 10 }, holding).sort((a, b) => b.value_usd - a.value_usd);
  const moves = Array.from({ length: 10 }, holding);
  const positions = 10 + randomInt(random, 3000);
  return {
    type: 'whale', cik: filer.cik, filer: filer.name.toUpperCase(), period_of_report: '2025-03-31', filed_at: through,
    accession_no: accessionOf(filer.cik, through, sequence), previous_period: '2024-12-31', total_value_usd: total,
    n_positions: positions, value_unit: 'usd', value_unit_inferred: false, top_holdings: top, moves,
    summary: `${filer.name} reported ${positions} positions worth ${total} USD in total for the period ending 2025-03-31.`,
  };
}

/**
 * The holder rows of a whale row: one per CUSIP of its top holdings (a draw may name a company
 * twice; the first holding is kept), with the holding's figures, as the builder makes them.
 */
export function makeHolders(whale: WhaleRow): HolderRow[] {
  const seen = new Set<string>();
  return whale.top_holdings.filter((h) => !seen.has(h.cusip) && seen.add(h.cusip) !== undefined).map((h) => ({
    type: 'holder', ticker: h.ticker, tickers: h.ticker === null ? [] : [h.ticker], cusip: h.cusip, issuer: h.issuer,
    title_of_class: h.title_of_class, put_call: h.put_call, filer_cik: whale.cik, filer: whale.filer, period_of_report: whale.period_of_report,
    filed_at: whale.filed_at, filed_at_source: 'edgar', accession_no: whale.accession_no, shares: h.shares, value_usd: h.value_usd,
    weight: h.weight, change_shares: h.change_shares, change_pct: h.change_pct, action: h.action === 'sold_out' ? null : h.action,
    summary: `${whale.filer} reported ${h.shares} shares of ${h.issuer} worth ${h.value_usd} USD for the period ending ${whale.period_of_report}.`,
  }));
}

/** Latest filing per company, known from a first pass over the filing plan. */
export interface CompanyActivity {
  filings: number;
  latest: string | null;
}

/** The report row of `company`. */
export function makeReport(random: Random, company: Company & { ticker: string }, activity: CompanyActivity): ReportRow {
  const latest = activity.latest;
  const link = (form: string) => latest === null ? null : {
    accession_no: accessionOf(company.cik, latest, randomInt(random, 1e6)), filed_at: latest,
    url: `${archive(company.cik, accessionOf(company.cik, latest, 0))}/${form.toLowerCase()}.htm`,
  };
  return {
    type: 'report', ticker: company.ticker, cik: company.cik, company: company.name, exchange: random() < 0.5 ? 'Nasdaq' : 'NYSE',
    sic: String(1000 + randomInt(random, 8000)), sic_description: 'Synthetic Industry', state_of_incorporation: 'DE',
    fiscal_year_end: '1231', latest_filing_at: latest, latest: { '10-K': link('10-K'), '10-Q': link('10-Q'), '8-K': link('8-K') },
    insiders: null, earnings: null, institutional: null,
    summary: `${company.name} (${company.ticker}) made ${activity.filings} filings in the snapshot` +
      `${latest === null ? '' : `, the latest on ${latest}`}.`,
  };
}
