/**
 * Forms 3/4/5 read straight from the raw files of the EDGAR test set, with regular expressions
 * of the tests' own (not the builder's parser), and exact money arithmetic in BigInt.
 */
import { rawFiles, rawText } from './real-build.js';

/** A Table I transaction read from raw ownershipDocument XML with the test's own regular expressions. */
export interface RawTrade {
  accession: string; documentType: string; issuerCik: string; owners: number; code: string; date: string; shares: string | null; price: string | null;
  /** The text of every footnote attached to the line (`<footnoteId id="F1"/>` anywhere in it), in order. */
  footnotes: string[];
}

const xmlValue = (block: string, tag: string): string | null => {
  const m = new RegExp(`<${tag}>\\s*(?:<value>\\s*([^<]*?)\\s*</value>)?`).exec(block);
  return m?.[1]?.trim() || null;
};

/** Every Table I transaction of every ownership document whose file or folder names its accession number. */
export function rawTrades(): RawTrade[] {
  const byAccession = new Map<string, RawTrade[]>();
  for (const path of rawFiles('ownership')) {
    const accession = /(\d{10}-\d{2}-\d{6})/.exec(path.split('/').pop()!)?.[1];
    if (!accession || !/\.(xml|txt|nc)$/.test(path) || byAccession.has(accession)) continue;
    const doc = /<ownershipDocument>[\s\S]*<\/ownershipDocument>/.exec(rawText(path))?.[0];
    if (!doc) continue;
    const documentType = /<documentType>\s*([^<]*?)\s*</.exec(doc)![1]!;
    const issuerCik = /<issuerCik>\s*(\d+)/.exec(doc)![1]!.padStart(10, '0');
    const notes = new Map([...doc.matchAll(/<footnote id="(F\d+)">([\s\S]*?)<\/footnote>/g)].map(([, id, text]) => [id!, text!]));
    const trades = [...doc.matchAll(/<nonDerivativeTransaction>([\s\S]*?)<\/nonDerivativeTransaction>/g)].map(([, block]) => ({
      accession, documentType, issuerCik, owners: (doc.match(/<reportingOwner>/g) ?? []).length,
      code: /<transactionCode>\s*([A-Z])/.exec(block!)![1]!,
      date: xmlValue(block!, 'transactionDate')!.slice(0, 10),
      shares: xmlValue(block!, 'transactionShares')?.replace(/,/g, '') ?? null,
      price: xmlValue(block!, 'transactionPricePerShare')?.replace(/,/g, '') ?? null,
      footnotes: [...block!.matchAll(/<footnoteId id="(F\d+)"/g)].map(([, id]) => notes.get(id!) ?? ''),
    }));
    byAccession.set(accession, trades);
  }
  return [...byAccession.values()].flat();
}

/** `a × b` of two decimal texts in units of 10^-scale. */
function product(a: string, b: string): { units: bigint; scale: number } {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  return { units: BigInt(ai + af) * BigInt(bi + bf), scale: af.length + bf.length };
}

/** Σ of exact products rounded once to cents (half up), as the number JSON carries. */
export function exactCents(pairs: [string, string][]): number {
  const scale = Math.max(0, ...pairs.map(([a, b]) => product(a, b).scale));
  const total = pairs.reduce((sum, [a, b]) => { const p = product(a, b); return sum + p.units * 10n ** BigInt(scale - p.scale); }, 0n);
  const step = 10n ** BigInt(Math.max(0, scale - 2));
  const cents = scale >= 2 ? (2n * total + step) / (2n * step) : total * 10n ** BigInt(2 - scale);
  return Number(cents) / 100;
}
