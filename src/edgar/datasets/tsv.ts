/**
 * SEC's data-set tables: tab-separated text, UTF-8, one header row (the CSVW `dialect` of each
 * data set's `*_metadata.json`: `{"header": true, "delimiter": "\t"}`), fields that hold a
 * double quote written quoted with the quote doubled (`"Common Shares (""Shares"")"`), as the
 * CSVW default dialect says. Read as a stream with csv-parse, so memory does not grow with the
 * table: a Form 13F information table has millions of rows.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/** A table's columns by name, read from its header row. */
export class TsvColumns {
  readonly names: readonly string[];
  readonly #index: Map<string, number>;

  constructor(header: readonly string[]) {
    this.names = header.map((name) => name.trim().toUpperCase());
    this.#index = new Map(this.names.map((name, i) => [name, i]));
  }

  /** Whether the table has every one of `names`. */
  has(...names: string[]): boolean {
    return names.every((name) => this.#index.has(name));
  }

  /**
   * The field `name` of a row, trimmed; '' where the table has no such column or the row is short.
   */
  get(row: readonly string[], name: string): string {
    const i = this.#index.get(name);
    return i === undefined ? '' : (row[i] ?? '').trim();
  }
}

/**
 * Reads a table's rows.
 *
 * @param input - the table's bytes.
 * @param onHeader - receives the header row; returns false to stop reading (a table not wanted).
 * @param onRow - receives each data row with its number (the header is row 1).
 * @returns the number of data rows read.
 * @throws Error when the text is not a well-formed table (an unclosed quote, say); the message
 *   names the line.
 */
export function readTsv(input: Readable, onHeader: (columns: TsvColumns) => boolean, onRow: (row: string[], line: number) => void): Promise<number> {
  // relax_quotes: a quote inside an unquoted field (`5" barrel`) is text, as SEC writes it;
  // relax_column_count: a short row is read with its missing fields empty, not refused.
  const parser = parse({ delimiter: '\t', quote: '"', relax_quotes: true, relax_column_count: true, bom: true, skip_empty_lines: true });
  return new Promise((resolve, reject) => {
    let columns: TsvColumns | null = null;
    let rows = 0;
    let done = false;
    const finish = (error?: unknown): void => {
      if (done) return;
      done = true;
      input.unpipe(parser);
      input.destroy();
      parser.destroy();
      if (error === undefined) resolve(rows);
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    // Events rather than an async iterator: a promise per row is much of the cost of a table of millions.
    parser.on('data', (row: string[]) => {
      if (done) return;
      try {
        if (columns === null) {
          columns = new TsvColumns(row);
          if (!onHeader(columns)) finish();
          return;
        }
        rows++;
        onRow(row, rows + 1);
      } catch (error) {
        finish(error);
      }
    });
    parser.on('end', () => finish());
    parser.on('error', finish);
    input.on('error', finish);
    input.pipe(parser);
  });
}

/**
 * Whether a file's first bytes look like a data-set table: a header row of tab-separated
 * upper-case column names, the first `ACCESSION_NUMBER`, as every table of SEC's Insider
 * Transactions and Form 13F Data Sets begins.
 */
export function looksLikeTsv(head: string): boolean {
  const names = head.replace(/^\uFEFF/, '').split('\n', 1)[0]!.replace(/\r$/, '').split('\t');
  return names.length >= 2 && names[0] === 'ACCESSION_NUMBER' && names.every((name) => /^[A-Z][A-Z0-9_]*$/.test(name));
}

/**
 * A date as the data sets write it, `DD-MON-YYYY` (`31-JUL-2024`), as `YYYY-MM-DD`; ISO dates
 * pass as they are.
 *
 * @returns the date, or undefined when it is neither.
 */
export function dataSetDate(value: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(value);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2]!.toUpperCase()) + 1;
  return month === 0 ? undefined : `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
