/**
 * Form 8-K items (Form 8-K General Instructions B and the item list of the form). SGML headers
 * name items by title (`ITEM INFORMATION: Results of Operations and Financial Condition`);
 * rows carry the numbers.
 */

/** Item number of each current 8-K item title, lower case. */
export const ITEM_BY_TITLE: Readonly<Record<string, string>> = Object.freeze({
  'entry into a material definitive agreement': '1.01',
  'termination of a material definitive agreement': '1.02',
  'bankruptcy or receivership': '1.03',
  'mine safety - reporting of shutdowns and patterns of violations': '1.04',
  'material cybersecurity incidents': '1.05',
  'completion of acquisition or disposition of assets': '2.01',
  'results of operations and financial condition': '2.02',
  'creation of a direct financial obligation or an obligation under an off-balance sheet arrangement of a registrant': '2.03',
  'triggering events that accelerate or increase a direct financial obligation or an obligation under an off-balance sheet arrangement': '2.04',
  'costs associated with exit or disposal activities': '2.05',
  'material impairments': '2.06',
  'notice of delisting or failure to satisfy a continued listing rule or standard; transfer of listing': '3.01',
  'unregistered sales of equity securities': '3.02',
  'material modifications to rights of security holders': '3.03',
  "changes in registrant's certifying accountant": '4.01',
  'non-reliance on previously issued financial statements or a related audit report or completed interim review': '4.02',
  'changes in control of registrant': '5.01',
  'departure of directors or certain officers; election of directors; appointment of certain officers; compensatory arrangements of certain officers': '5.02',
  'amendments to articles of incorporation or bylaws; change in fiscal year': '5.03',
  "temporary suspension of trading under registrant's employee benefit plans": '5.04',
  "amendments to the registrant's code of ethics, or waiver of a provision of the code of ethics": '5.05',
  'change in shell company status': '5.06',
  'submission of matters to a vote of security holders': '5.07',
  'shareholder director nominations': '5.08',
  'regulation fd disclosure': '7.01',
  'other events': '8.01',
  'financial statements and exhibits': '9.01',
});

/** Item 2.02, "Results of Operations and Financial Condition": the earnings release item. */
export const EARNINGS_ITEM = '2.02';

/**
 * Item numbers for header titles; titles that are not current items (such as the pre-2004
 * numbering) are left out.
 */
export function itemsFromTitles(titles: readonly string[]): string[] {
  const items: string[] = [];
  for (const title of titles) {
    const item = ITEM_BY_TITLE[title.trim().toLowerCase()];
    if (item && !items.includes(item)) items.push(item);
  }
  return items;
}
