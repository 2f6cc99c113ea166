/**
 * The builder's own records: what the parsers read out of EDGAR's files and the computations
 * turn into rows. Dates are `YYYY-MM-DD`, CIKs 10-digit strings, accession numbers dashed.
 */

/** Company facts from company_tickers(_exchange).json and submissions JSON. */
export interface Company {
  cik: string;
  name: string;
  /** EDGAR-form tickers, primary first. */
  tickers: string[];
  exchange: string | null;
  sic: string | null;
  sicDescription: string | null;
  stateOfIncorporation: string | null;
  /** Fiscal year end as MMDD. */
  fiscalYearEnd: string | null;
}

/**
 * A company's profile as one filing's header gave it (SGML header, `.header.json` or `-index.htm`
 * page), for companies whose submissions JSON is not among the inputs.
 */
export interface HeaderProfile {
  cik: string;
  name: string;
  sic: string | null;
  sicDescription: string | null;
  stateOfIncorporation: string | null;
  /** MMDD. */
  fiscalYearEnd: string | null;
  /** Filing date of the filing whose header this is. */
  filedAt: string;
}

/**
 * Where a filing date came from: `edgar`, one of EDGAR's own records of the filing (SGML header,
 * `-index` page, `.header.json`, submissions JSON, a data set's SUBMISSION table); or
 * `signature_date`, the signature date on the Form 3/4/5 (`ownerSignature/signatureDate`) or 13F
 * cover page (`signatureBlock/signatureDate`) itself, where no input gives the filing date. Forms
 * are mostly signed on the day they are filed, some days before.
 */
export type FiledAtSource = 'edgar' | 'signature_date';

/** One filing as EDGAR lists it (submissions JSON, an SGML header or a header JSON). */
export interface FilingRecord {
  cik: string;
  company: string | null;
  form: string;
  accessionNo: string;
  filedAt: string;
  /** EDGAR's acceptance time converted from Eastern time to RFC 3339 UTC, or null where unknown. */
  acceptedAt: string | null;
  periodOfReport: string | null;
  /** 8-K item numbers such as `2.02`. */
  items: string[];
  /** File name of the primary document (may carry EDGAR's `xsl…/` rendering prefix). */
  primaryDocument: string | null;
  /** File name of the press release exhibit 99.1 where known (`EX-99.1`, `EX-99.01` or `EX-99`: filing/document-types.ts). */
  exhibit991: string | null;
  /** File names of the filing's documents that the source lists (the primary document without its `xsl…/` prefix). */
  documents: string[];
  /**
   * Where the record came from, for precedence: submissions JSON knows the most. `document`: made
   * from a Form 3/4/5 or 13F document of which no input gives EDGAR's record, dated by its
   * signature date (its `filedAt` is the signature date).
   */
  source: 'submissions' | 'sgml' | 'index' | 'header-json' | 'data-set' | 'document';
}

/** A reporting owner of a Form 3/4/5 and its relationship to the issuer. */
export interface ReportingOwner {
  cik: string;
  name: string;
  isDirector: boolean;
  isOfficer: boolean;
  isTenPercentOwner: boolean;
  isOther: boolean;
  officerTitle: string | null;
}

/**
 * One transaction line of a Form 4: of Table I (non-derivative securities acquired, disposed of or
 * beneficially owned) or of Table II (derivative securities: options, warrants, convertibles),
 * which share these columns (EDGAR Ownership XML Technical Specification, `nonDerivativeTransaction`
 * and `derivativeTransaction`).
 */
export interface OwnershipTransaction {
  /** Transaction code (SEC Form 4 General Instructions 8), e.g. `P`, `S`, `M`. */
  code: string;
  date: string;
  /** Shares or units of the line; null where it gives none (a Table II line may give only `transactionTotalValue`). */
  shares: number | null;
  /** Price per share in USD; null where the form gives none (footnote only). */
  price: number | null;
  /** `transactionShares` as filed (decimal text, commas dropped), for exact arithmetic; null where absent. */
  sharesText: string | null;
  /** `transactionPricePerShare` as filed (decimal text), for exact arithmetic; null where absent. */
  priceText: string | null;
  /**
   * Whether the price cell is empty and a footnote attached to the line (or its price cell)
   * states the price per share or unit of the transaction (ownership/footnote-price.ts; a conversion or
   * exercise price is not one). False where the price cell holds a price, and for lines read from
   * SEC's Insider Transactions Data Sets, whose footnotes the builder does not read.
   */
  priceInFootnote: boolean;
  /** `securityTitle` as filed (`Common Stock`, `Stock Option (right to buy)`); empty where absent. */
  securityTitle: string;
  /** `transactionAcquiredDisposedCode`: `A` acquired, `D` disposed of; null where absent or other. */
  acquiredDisposed: 'A' | 'D' | null;
  /** `sharesOwnedFollowingTransaction`; null where the line gives none (or only `valueOwnedFollowingTransaction`). */
  sharesOwnedAfter: number | null;
  /** `directOrIndirectOwnership`: `D` direct, `I` indirect; null where absent or other. */
  directIndirect: 'D' | 'I' | null;
}

/** A Form 3/4/5 ownershipDocument with the filing facts found around it. */
export interface OwnershipFiling {
  accessionNo: string;
  filedAt: string | null;
  /** `3`, `4`, `4/A`, `5`, … */
  documentType: string;
  periodOfReport: string;
  issuerCik: string;
  issuerName: string;
  issuerTradingSymbol: string | null;
  owners: ReportingOwner[];
  /** Rule 10b5-1(c) checkbox (`aff10b5One`), null where the form predates it. */
  plan10b51: boolean | null;
  /** Table I transaction lines (`nonDerivativeTable`), in the form's order. */
  transactions: OwnershipTransaction[];
  /**
   * Table II transaction lines (`derivativeTable`), in the form's order. The builder keeps them for
   * Forms 4 and 4/A only (file-extract.ts `slim`), the forms whose lines are rows.
   */
  derivativeTransactions: OwnershipTransaction[];
  /**
   * The latest `ownerSignature/signatureDate` of the form (a joint filing has one per reporting
   * owner), `YYYY-MM-DD`; absent where the form gives none (and on records from a data set).
   */
  signatureDate?: string;
  /** Where `filedAt` came from, once resolved; absent means `edgar`. */
  filedAtSource?: FiledAtSource;
  /**
   * Set where the record comes from an Insider Transactions Data Set, whose NONDERIV_TRANS table
   * stores shares and prices with 2 decimals (its readme: NUMBER(16,2)): values computed from it
   * may differ from the form's own by the rounding.
   */
  fromDataSet?: true;
  /**
   * How many Table I transactions the form reported, where `transactions` holds only some of
   * them (the builder keeps the codes rows count); absent when `transactions` is all of them.
   */
  transactionsFiled?: number;
}

/** One row of a 13F information table. */
export interface InfoTableEntry {
  issuer: string;
  titleOfClass: string;
  cusip: string;
  /** `value` exactly as filed (thousands of USD or USD, see the unit). */
  value: number;
  shares: number;
  /** `SH` or `PRN`. */
  sharesType: string;
  putCall: 'Put' | 'Call' | null;
}

/** A 13F-HR (or amendment) with its information table. */
export interface ThirteenFFiling {
  accessionNo: string;
  filerCik: string;
  filer: string;
  periodOfReport: string;
  filedAt: string;
  /** Where filedAt came from: one of EDGAR's records of the filing, or the cover page's signature date. */
  filedAtSource: FiledAtSource;
  form: string;
  /** `RESTATEMENT`, `NEW HOLDINGS` or null for an original report. */
  amendmentType: 'RESTATEMENT' | 'NEW HOLDINGS' | null;
  entries: InfoTableEntry[];
}
