/**
 * Where JSON text first goes wrong, as a line and column a person can open in an editor.
 * `JSON.parse` says so only for some errors and only on some Node versions ("Unexpected token
 * '}', … is not valid JSON" has no position on Node 20 or 24), so this walks the text itself,
 * by RFC 8259's grammar, without recursion (deep nesting cannot overflow the stack).
 */

/** The first place where text stops being JSON. */
export interface JsonErrorPlace {
  /** Line, from 1. */
  line: number;
  /** Column in UTF-16 code units, from 1. */
  column: number;
  /** What is wrong there, e.g. `unexpected "}"` or `unexpected end of text`. */
  problem: string;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERALS = ['true', 'false', 'null'];

/**
 * Finds the first offset at which `text` is not JSON (RFC 8259).
 *
 * @returns the place, or `undefined` when the text is valid JSON.
 */
export function locateJsonError(text: string): JsonErrorPlace | undefined {
  const offset = firstErrorOffset(text);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const problem = offset >= text.length ? 'unexpected end of text' : `unexpected ${JSON.stringify(text[offset])}`;
  return { line, column, problem };
}

/** A scan step: where it stopped, and whether what it read was well formed. */
type Scan = { readonly ok: boolean; readonly at: number };

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  return i;
}

/** The offset of the first error, or `undefined` for valid JSON. */
function firstErrorOffset(text: string): number | undefined {
  // The containers open around the current position.
  const stack: ('object' | 'array')[] = [];
  let i = skipWhitespace(text, 0);
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      const c = text[i];
      if (c === '{' || c === '[') {
        const close = c === '{' ? '}' : ']';
        stack.push(c === '{' ? 'object' : 'array');
        i = skipWhitespace(text, i + 1);
        if (text[i] === close) {
          stack.pop();
          i++;
          expectValue = false;
        } else if (c === '{') {
          const member = scanKey(text, i);
          if (!member.ok) return member.at;
          i = member.at;
        }
        continue;
      }
      const value = scanScalar(text, i);
      if (!value.ok) return value.at;
      i = value.at;
      expectValue = false;
      continue;
    }
    i = skipWhitespace(text, i);
    const container = stack[stack.length - 1];
    if (container === undefined) return i < text.length ? i : undefined;
    if (text[i] === ',') {
      i = skipWhitespace(text, i + 1);
      if (container === 'object') {
        const member = scanKey(text, i);
        if (!member.ok) return member.at;
        i = member.at;
      }
      expectValue = true;
    } else if (text[i] === (container === 'object' ? '}' : ']')) {
      stack.pop();
      i++;
    } else {
      return i;
    }
  }
}

/** A member name and its colon; on success `at` is where the value starts. */
function scanKey(text: string, i: number): Scan {
  if (text[i] !== '"') return { ok: false, at: i };
  const name = scanString(text, i);
  if (!name.ok) return name;
  const colon = skipWhitespace(text, name.at);
  if (text[colon] !== ':') return { ok: false, at: colon };
  return { ok: true, at: skipWhitespace(text, colon + 1) };
}

/** A string, number or literal starting at `i`. */
function scanScalar(text: string, i: number): Scan {
  const c = text[i];
  if (c === '"') return scanString(text, i);
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
    NUMBER.lastIndex = i;
    return NUMBER.test(text) ? { ok: true, at: NUMBER.lastIndex } : { ok: false, at: i };
  }
  const literal = LITERALS.find((word) => text.startsWith(word, i));
  if (literal !== undefined) return { ok: true, at: i + literal.length };
  // The first character that no literal continues with (the space of `tru }`).
  let j = i;
  while (j < text.length && LITERALS.some((word) => word.startsWith(text.slice(i, j + 1)))) j++;
  return { ok: false, at: j };
}

/** A string starting with the `"` at `start`: a control character, a bad escape or the end of the text is an error. */
function scanString(text: string, start: number): Scan {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return { ok: true, at: i + 1 };
    if (c < 0x20) return { ok: false, at: i };
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const escape = text[i + 1];
    if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
    else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
    else return { ok: false, at: i };
  }
  return { ok: false, at: i };
}
