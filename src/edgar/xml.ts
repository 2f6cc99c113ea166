/**
 * XML reading for the builder, on saxes (a strict, streaming, well-formedness-checking XML
 * parser): one pass builds a small tree with namespace prefixes dropped (13F information tables
 * come with a default namespace or an `ns1:`/`n1:` prefix; cover pages mix a default namespace
 * with `com:`) and every value kept as text, so that CUSIPs such as `037833100` and CIKs keep
 * their leading zeros. Comments, processing instructions and attributes are passed over, except an
 * `id` attribute, kept under `@id` (Ownership XML's footnotes `<footnote id="F1">` and the marks that
 * attach them, `<footnoteId id="F1"/>`): an element with one is always a node.
 * Loaded only by `equity-facts build`.
 */
import { SaxesParser } from 'saxes';

/** A parsed XML element: child elements by local name, text under `#text`. */
export type XmlNode = { [name: string]: XmlValue };
/** What a child can be: text (an element without child elements), an element, or several of either. */
export type XmlValue = string | XmlNode | XmlValue[];

interface Frame {
  name: string;
  node: XmlNode;
  text: string;
  hasChildren: boolean;
  /** The element's `id` attribute, undefined where it has none (always set: one object shape for every frame). */
  id: string | undefined;
}

/**
 * saxes reports an entity XML does not define (`&nbsp;` typed into a remark) and goes on with
 * the text as written; that is no reason to refuse a filing. Every other error is.
 */
const TOLERATED = 'undefined entity.';

/**
 * Parses an XML document in one pass.
 *
 * @param text - the document's text.
 * @returns the root element under its local name (`{ ownershipDocument: {…} }`).
 * @throws Error naming the line and column when the text is not well-formed XML.
 */
export function parseXml(text: string): XmlNode {
  const parser = new SaxesParser({ position: true });
  const root: Frame = { name: '', node: {}, text: '', hasChildren: false, id: undefined };
  const stack: Frame[] = [root];
  parser.on('error', (error) => {
    if (!error.message.endsWith(TOLERATED)) throw new Error(`not well-formed XML: ${error.message}`);
  });
  parser.on('opentag', (tag) => {
    stack[stack.length - 1]!.hasChildren = true;
    const colon = tag.name.indexOf(':');
    const id = (tag.attributes as Record<string, string | { value: string }>).id;
    stack.push({
      name: colon === -1 ? tag.name : tag.name.slice(colon + 1), node: {}, text: '', hasChildren: false,
      id: id === undefined || typeof id === 'string' ? id : id.value,
    });
  });
  parser.on('text', (chunk) => {
    const frame = stack[stack.length - 1]!;
    // Indentation between elements is most of a document's text, and leading space is trimmed anyway.
    if (frame.text !== '' || /\S/.test(chunk)) frame.text += chunk;
  });
  parser.on('cdata', (chunk) => {
    stack[stack.length - 1]!.text += chunk;
  });
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    const text = frame.text.trim();
    let value: XmlValue;
    if (frame.id !== undefined) frame.node['@id'] = frame.id;
    if (frame.hasChildren || frame.id !== undefined) {
      value = frame.node;
      if (text !== '') frame.node['#text'] = text;
    } else {
      value = text;
    }
    const parent = stack[stack.length - 1]!.node;
    const known = parent[frame.name];
    if (known === undefined) parent[frame.name] = value;
    else if (Array.isArray(known)) known.push(value);
    else parent[frame.name] = [known, value];
  });
  parser.write(text).close();
  if (!root.hasChildren) throw new Error('not an XML document');
  return root.node;
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
