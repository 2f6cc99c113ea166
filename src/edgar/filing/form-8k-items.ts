/**
 * Form 8-K items (Form 8-K General Instructions B and the item list of the form). SGML headers
 * name items by title (`ITEM INFORMATION: Results of Operations and Financial Condition`);
 * rows carry the numbers. EDGAR's titles differ from the form's in punctuation (item 5.02 is
 * written "…Appointment of Certain Officers: Compensatory Arrangements…" with a colon), so
 * titles are compared after {@link normaliseItemTitle}; the titles that items had before the
 * 2006 executive-compensation amendments are listed too.
 */

/** Item number of each 8-K item title EDGAR uses, as the form words it. */
const TITLES: readonly (readonly [string, string])[] = [
  ['1.01', 'Entry into a Material Definitive Agreement'],
  ['1.02', 'Termination of a Material Definitive Agreement'],
  ['1.03', 'Bankruptcy or Receivership'],
  ['1.04', 'Mine Safety - Reporting of Shutdowns and Patterns of Violations'],
  ['1.05', 'Material Cybersecurity Incidents'],
  ['2.01', 'Completion of Acquisition or Disposition of Assets'],
  ['2.02', 'Results of Operations and Financial Condition'],
  ['2.03', 'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant'],
  ['2.04', 'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement'],
  ['2.05', 'Costs Associated with Exit or Disposal Activities'],
  ['2.06', 'Material Impairments'],
  ['3.01', 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing'],
  ['3.02', 'Unregistered Sales of Equity Securities'],
  ['3.03', 'Material Modification to Rights of Security Holders'],
  ['3.03', 'Material Modifications to Rights of Security Holders'],
  ['4.01', "Changes in Registrant's Certifying Accountant"],
  ['4.02', 'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review'],
  ['5.01', 'Changes in Control of Registrant'],
  ['5.02', 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers'],
  // Item 5.02's title from August 2004 until the 2006 executive-compensation amendments.
  ['5.02', 'Departure of Directors or Principal Officers; Election of Directors; Appointment of Principal Officers'],
  ['5.03', 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year'],
  ['5.04', "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ['5.05', "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ['5.05', "Amendment to Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ['5.06', 'Change in Shell Company Status'],
  ['5.07', 'Submission of Matters to a Vote of Security Holders'],
  ['5.08', 'Shareholder Director Nominations'],
  ['6.01', 'ABS Informational and Computational Material'],
  ['6.02', 'Change of Servicer or Trustee'],
  ['6.03', 'Change in Credit Enhancement or Other External Support'],
  ['6.04', 'Failure to Make a Required Distribution'],
  ['6.05', 'Securities Act Updating Disclosure'],
  ['6.06', 'Static Pool'],
  ['7.01', 'Regulation FD Disclosure'],
  ['8.01', 'Other Events'],
  ['9.01', 'Financial Statements and Exhibits'],
];

/**
 * A title reduced to its words: lower case, `&` as "and", apostrophes dropped, every other run
 * of punctuation and white space one space, and "the" left out.
 */
export function normaliseItemTitle(title: string): string {
  return title.toLowerCase().replace(/&/g, ' and ').replace(/['\u2019]/g, '').replace(/[^a-z0-9]+/g, ' ')
    .split(' ').filter((word) => word !== '' && word !== 'the').join(' ');
}

/** Item number by normalised title. */
export const ITEM_BY_TITLE: ReadonlyMap<string, string> = new Map(TITLES.map(([item, title]) => [normaliseItemTitle(title), item]));

/** Item 2.02, "Results of Operations and Financial Condition": the earnings release item. */
export const EARNINGS_ITEM = '2.02';

/** The item number of a header title, or undefined when it is not an item this table knows (such as the pre-2004 numbering). */
export const itemFromTitle = (title: string): string | undefined => ITEM_BY_TITLE.get(normaliseItemTitle(title));

/** Item numbers for header titles, in order and without repeats; unknown titles are left out. */
export function itemsFromTitles(titles: readonly string[]): string[] {
  const items: string[] = [];
  for (const title of titles) {
    const item = itemFromTitle(title);
    if (item && !items.includes(item)) items.push(item);
  }
  return items;
}
