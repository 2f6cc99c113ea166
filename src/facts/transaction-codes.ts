/**
 * Form 4 transaction codes in words, as SEC Form 4 General Instructions 8 ("Transaction Codes")
 * define them: the general codes (P, S, V), the Rule 16b-3 codes (A, D, F, I, M), the derivative
 * securities codes (C, E, H, O, X), the exempt and small-acquisition codes (G, L, W, Z) and the
 * other codes (J, K, U). The words shorten SEC's own; they name the transaction, never judge it.
 */
export const TRANSACTION_CODE_WORDS: Readonly<Record<string, string>> = Object.freeze({
  P: 'open market or private purchase',
  S: 'open market or private sale',
  V: 'transaction voluntarily reported earlier than required',
  A: 'grant, award or other acquisition under Rule 16b-3(d)',
  D: 'disposition to the issuer under Rule 16b-3(e)',
  F: 'payment of an exercise price or tax liability by delivering or withholding securities',
  I: 'discretionary transaction under Rule 16b-3(f)',
  M: 'exercise or conversion of a derivative security exempted under Rule 16b-3',
  C: 'conversion of a derivative security',
  E: 'expiration of a short derivative position',
  H: 'expiration or cancellation of a long derivative position with value received',
  O: 'exercise of an out-of-the-money derivative security',
  X: 'exercise of an in-the-money or at-the-money derivative security',
  G: 'bona fide gift',
  L: 'small acquisition under Rule 16a-6',
  W: 'acquisition or disposition by will or the laws of descent and distribution',
  Z: 'deposit into or withdrawal from a voting trust',
  J: 'acquisition or disposition of another kind (the form describes it)',
  K: 'transaction in an equity swap or an instrument like one',
  U: 'disposition by a tender of shares in a change of control',
});

/**
 * A transaction code in words with its article: `an open market or private sale`, `a bona fide
 * gift`; `a transaction` for a code that General Instructions 8 does not define.
 *
 * @param code - the code as the row holds it (one upper-case letter).
 */
export function transactionInWords(code: string): string {
  const words = TRANSACTION_CODE_WORDS[code] ?? 'transaction';
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}
