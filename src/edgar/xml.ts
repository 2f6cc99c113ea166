/**
 * XML reading for the builder: a thin layer over fast-xml-parser that drops namespace prefixes
 * (13F information tables come with a default namespace or an `ns1:`/`n1:` prefix; cover pages
 * mix a default namespace with `com:`) and keeps every value as text, so that CUSIPs such as
 * `037833100` and CIKs keep their leading zeros. Loaded only by `equity-facts build`.
 */
import { XMLParser } from 'fast-xml-parser';

/** A parsed XML element: child elements by local name, text under `#text`. */
export type XmlNode = { [name: string]: XmlValue };
/** What a child can be: text, an element, or several of either. */
export type XmlValue = string | XmlNode | XmlValue[];

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});

/**
 * Parses an XML document.
 *
 * @param text - the document's text.
 * @returns the root elements by local name.
 * @throws Error when the text is not well-formed XML.
 */
export function parseXml(text: string): XmlNode {
  const parsed: unknown = parser.parse(text, true);
  if (parsed === null || typeof parsed !== 'object') throw new Error('not an XML document');
  return parsed as XmlNode;
}

/** The first element called `name` under `node`, or undefined. */
export function child(node: XmlValue | undefined, name: string): XmlNode | undefined {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return undefined;
  const value = node[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  return typeof first === 'string' ? { '#text': first } : (first as XmlNode);
}

/** Every element called `name` under `node` (an empty list when there is none). */
export function children(node: XmlValue | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => (typeof item === 'string' ? { '#text': item } : (item as XmlNode)));
}

/**
 * The text of the element at `path` under `node`, trimmed; undefined when absent or empty.
 * Form 4 wraps most values in `<value>`: pass `'value'` as the last step to read them.
 */
export function text(node: XmlValue | undefined, ...path: string[]): string | undefined {
  let current: XmlValue | undefined = node;
  for (const step of path) {
    if (current === undefined) return undefined;
    current = child(current, step);
  }
  if (current === undefined) return undefined;
  if (typeof current === 'string') return current.trim() || undefined;
  if (Array.isArray(current)) return undefined;
  const own = current['#text'];
  return typeof own === 'string' && own.trim() !== '' ? own.trim() : undefined;
}

/** Reads an XML boolean written as `1`/`0` or `true`/`false`; undefined when absent or other. */
export function xmlBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return undefined;
}

/** Reads a decimal number, undefined when absent or not a finite number. */
export function xmlNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const cleaned = value.replace(/,/g, '').trim();
  if (cleaned === '') return undefined;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : undefined;
}
