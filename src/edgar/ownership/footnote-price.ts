/**
 * Whether a Form 3/4/5 footnote states the price per share or unit of its transaction. Filers
 * leave the price column of Table I empty and give the price in a footnote where one figure does
 * not fit it (a unit of a share and a warrant bought in a private placement, "for a combined price
 * of $17.3509 per unit"); EDGAR Ownership XML attaches footnotes to a line or a cell with
 * `<footnoteId id="F1"/>`. A conversion price or an exercise price (of the warrant in that unit,
 * of an option, of a convertible note) is a term of a derivative security, not the price of the
 * transaction, so it is not one.
 */

/** A dollar amount: `$17.3509`, `$ 1,234.50`. */
const AMOUNT = /\$\s?\d[\d,]*(?:\.\d+)?/g;
/** Words just before an amount that make it a price (not a total: see {@link TOTAL_BEFORE}). */
const PRICE_BEFORE = /\b(?:price|prices|priced)\b[^$.;]{0,30}$/i;
/** An aggregate or total amount, which is no price per share or unit. */
const TOTAL_BEFORE = /\b(?:aggregate|total)\b[^$.;]{0,30}$/i;
/** Words just after an amount that make it a price per share or unit. */
const PER_AFTER = /^\s*(?:per|for each|a|an)\s+(?:share|unit|ads|american depositary share|ordinary share|common share)/i;
/** A conversion or exercise price, the amount that follows it, or a price a warrant or option is exercisable at. */
const NOT_TRANSACTION = /\b(?:conversion|exercise|strike)\s+price\b[^$.;]{0,30}$|\bexercisable\b[^$.;]{0,30}\bat\b[^$.;]{0,10}$/i;

/**
 * Whether `footnote` states the price per share or unit of the transaction it is attached to:
 * it holds a dollar amount followed by "per share", "per unit", "per ADS", …, or written as a
 * price ("a price of $10.00", "weighted average price of $10.00") and not as an aggregate or total,
 * that is not a conversion or exercise price.
 *
 * @param footnote - the footnote's text as filed.
 */
export function statesTransactionPrice(footnote: string): boolean {
  // Most footnotes of a line without a price name no dollar amount at all (share counts, dates, plans).
  if (!footnote.includes('$')) return false;
  const text = footnote.replace(/\s+/g, ' ');
  for (const match of text.matchAll(AMOUNT)) {
    const before = text.slice(Math.max(0, match.index - 60), match.index);
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 40);
    if (NOT_TRANSACTION.test(before)) continue;
    if (PER_AFTER.test(after) || (PRICE_BEFORE.test(before) && !TOTAL_BEFORE.test(before))) return true;
  }
  return false;
}
