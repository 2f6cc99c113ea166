/**
 * Issuer names as 13F information tables and EDGAR's ticker files write them, reduced to a form
 * in which the two can be compared. 13F names follow the SEC's Official List of Section 13(f)
 * Securities: upper case, abbreviated (`APPLIED MATLS INC`, `CAPITAL ONE FINL CORP`) and cut at
 * 28 characters (`TAIWAN SEMICONDUCTOR MANUFAC`); filers that type their own names write them in
 * any case and sometimes with the class in the name (`Nike Inc cl B`). EDGAR's conformed names
 * carry a state suffix (`DANAHER CORP /DE/`, `US BANCORP \DE\`).
 */

/** Words written out and abbreviated alike, mapped to one spelling. */
const SPELLINGS: Readonly<Record<string, string>> = Object.freeze({
  CORPORATION: 'CORP', INCORPORATED: 'INC', COMPANY: 'CO', COMPANIES: 'COS', LIMITED: 'LTD',
  HOLDINGS: 'HLDGS', HOLDING: 'HLDGS', HLDG: 'HLDGS', HLDNGS: 'HLDGS', INTERNATIONAL: 'INTL', FINANCIAL: 'FINL',
  MATERIALS: 'MATLS', TECHNOLOGY: 'TECH', TECHNOLOGIES: 'TECH', SYSTEMS: 'SYS', MACHINES: 'MACHS', GRP: 'GROUP',
  RESOURCES: 'RES', SERVICES: 'SVCS', INDUSTRIES: 'INDS', PRODUCTS: 'PRODS', MANUFACTURING: 'MFG', COMMUNICATIONS: 'COMMUNICATIONS',
  LABORATORIES: 'LABS', TRUST: 'TR', REALTY: 'RLTY', RESEARCH: 'RESH', MANAGEMENT: 'MGMT', PROPERTIES: 'PPTYS',
  ENTERTAINMENT: 'ENTMT', INVESTMENT: 'INVT', INSURANCE: 'INS', MEDICAL: 'MED', PETROLEUM: 'PETE', ELECTRIC: 'ELEC', PHARMACEUTICALS: 'PHARMACEUTICALS', BANCORPORATION: 'BANCORP', AMERICA: 'AMER', AMERICAN: 'AMERN',
});

/** Legal-form and listing words that do not tell companies apart when they end a name. */
const TRAILING_FORMS = new Set(['INC', 'CORP', 'CO', 'LTD', 'PLC', 'NV', 'SA', 'AG', 'LLC', 'LP', 'NEW', 'DEL', 'SE', 'AB', 'ASA', 'THE', 'ADR', 'ADS']);

/** A class named in a name or title: `CL A`, `Class B`, `CAP STK CL C`, `Common stock C`. */
const CLASS_IN_TEXT = /\b(?:CL|CLASS)\s*([A-Z])\b|\bCOMMON\s+STOCK\s+([A-Z])$/i;

/**
 * The class letter a 13F name or title of class names, or null.
 *
 * @param text - `nameOfIssuer` or `titleOfClass`.
 */
export function shareClassOf(text: string): string | null {
  const m = CLASS_IN_TEXT.exec(text.trim());
  return m ? (m[1] ?? m[2])!.toUpperCase() : null;
}

/**
 * A name reduced for comparison: upper case, EDGAR's state suffix and any class words dropped,
 * punctuation as spaces (`&` kept as a word), runs of single letters joined (`N.V.` → `NV`,
 * `U.S.` → `US`), and words in one spelling (`HOLDINGS` → `HLDGS`).
 *
 * @param spell - whether to bring words to one spelling; a name cut mid-word (`MANUFAC`) is
 *   compared with names as written instead.
 * @returns the words of the name.
 */
export function nameWords(name: string, spell = true): string[] {
  let text = name.toUpperCase();
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/\s*[/\\][A-Z]{2,3}[/\\]?\s*$/, '');
  }
  text = text.replace(CLASS_IN_TEXT, ' ').replace(/&/g, ' & ').replace(/[^A-Z0-9&]+/g, ' ');
  const words: string[] = [];
  let letters = '';
  for (const word of text.split(' ').filter(Boolean)) {
    if (word.length === 1 && word !== '&') {
      letters += word;
      continue;
    }
    if (letters) words.push(letters);
    letters = '';
    words.push(spell ? SPELLINGS[word] ?? word : word);
  }
  if (letters) words.push(letters);
  return words;
}

/** The name without its trailing legal-form words (`DANAHER CORP` → `DANAHER`): what tells the company apart. */
export function coreName(name: string): string {
  const words = nameWords(name);
  while (words.length > 1 && TRAILING_FORMS.has(words[words.length - 1]!)) words.pop();
  if (words[0] === 'THE' && words.length > 1) words.shift();
  return words.join(' ');
}

/** The full reduced name, for prefix matches of names cut short; `spell` as in {@link nameWords}. */
export const fullName = (name: string, spell = true): string => nameWords(name, spell).join(' ');
