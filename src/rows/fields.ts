/**
 * Field schemas shared by several row kinds (docs/api.md §6): ticker, tickers, USD amounts,
 * `filed_at_source` and the written `summary`.
 */
import { TICKER_PATTERN } from '../identifiers.js';
import { arr, num, oneOf, str, type TypedSchema } from './schema.js';

/** Ticker as EDGAR writes it (company_tickers.json): upper case, class suffix after `-`. */
export const ticker = (description = 'ticker symbol, upper case, class suffix after "-" as EDGAR writes it (BRK-B)'): TypedSchema<string> =>
  str(description, { pattern: TICKER_PATTERN });
/** An amount in U.S. dollars; `description` says of what, and the unit is appended. */
export const usd = (description: string): TypedSchema<number> => num(`${description}, in USD`);
/** docs/api.md §6 "Tickers". Optional in the schema so that snapshots built before it still load; every build writes it. */
export const tickers = arr(ticker(), 'every ticker the company trades under (company_tickers files and the submissions JSON), primary first; ' +
  '`ticker` is the first. `?ticker=` finds the row by any of them (GOOG and GOOGL both find Alphabet)');
/** Optional in the schemas so that snapshots built before it still load; every build writes it. */
export const filedAtSource = oneOf(['edgar', 'signature_date'], 'where filed_at came from: "edgar", one of EDGAR\'s own records of the filing ' +
  '(SGML header, -index page, .header.json, submissions JSON, a data set\'s SUBMISSION table); "signature_date", the signature date on ' +
  'the form itself (Form 3/4/5 or 13F cover page), where no input gives the filing date. Forms are mostly signed on the day they are filed, some days before');
/** A row's written summary: paid plans only (docs/api.md §6), made from the row's own figures. */
export const summary = str('factual sentences made from the row\'s own figures at build time; absent on the free plan and where none exists');

