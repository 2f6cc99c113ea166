/**
 * How a reporting owner is related to the issuer, in words (docs/api.md §6, `role`).
 */
import type { ReportingOwner } from '../edgar/records.js';

/**
 * The role of a reporting owner (docs/api.md §6): the officer title if an officer, then
 * `Director`, then `10% Owner`; several joined with `, `; `Other` when none applies.
 */
export function ownerRole(owner: ReportingOwner): string {
  const parts: string[] = [];
  if (owner.isOfficer) parts.push(owner.officerTitle?.trim() || 'Officer');
  if (owner.isDirector) parts.push('Director');
  if (owner.isTenPercentOwner) parts.push('10% Owner');
  return parts.length > 0 ? parts.join(', ') : 'Other';
}
