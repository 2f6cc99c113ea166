/**
 * The build cache's encoding of extracts (cache-block.ts): plain data (objects, arrays,
 * strings, numbers, booleans, null, undefined) as a table of strings, a table of object shapes
 * (each a list of keys), a stream of 32-bit operations and a list of numbers that are not small
 * whole numbers. It exists because reading the cache back is most of a daily rebuild:
 * `v8.deserialize` builds each object key by key (about 2 µs an object for Form 4 extracts on
 * this project's machine), while an object literal per shape, made once, builds it in one step,
 * and each repeated string (an issuer, a date, a form) is one copy per table.
 *
 * An operation's low 3 bits say what it is and the other 29 carry its value (the constants
 * below). A string that begins a value's reference string (in the build cache, a file's path
 * in its own extract, or that path without its extension) is written as its length and read
 * back as a slice of the reference, which V8 keeps as a view of it: the cache then holds each
 * path once, not three times. Object keys come back in the order `Object.keys` gave them, which for plain data is
 * the order they were written in. Plain data means objects whose prototype is
 * `Object.prototype`: one without a prototype, a Map, a Date or a class instance is refused.
 */

// What the low 3 bits of an operation say.
/** null, undefined, false or true: the value is 0, 1, 2 or 3. */
const CONSTANT = 0;
/** A whole number from 0 to 2^29 - 1: the value is the number. */
const UINT = 1;
/** Any other number: the next of the numbers. */
const NUMBER = 2;
/** A string: the value is its index in the strings. */
const STRING = 3;
/** An array: the value is its length; its items follow. */
const ARRAY = 4;
/** An object: the value is its shape's index; its values follow in the shape's key order. */
const OBJECT = 5;
/** A string that begins the value's reference string (see {@link RecordEncoder.add}): the value is its length. */
const PREFIX = 6;

/**
 * Shortest string written as a {@link PREFIX}: a shorter one costs as little in the table, and
 * V8 copies a substring shorter than 13 characters anyway rather than pointing into its parent.
 */
const MIN_PREFIX = 16;

/** Largest value an operation carries (29 bits). */
const MAX_VALUE = 2 ** 29 - 1;
const CONSTANTS = [null, undefined, false, true] as const;

/** Encoded values, as {@link RecordEncoder.finish} gives them and {@link decodeRecords} takes them. */
export interface EncodedRecords {
  /** Each distinct string once. */
  strings: string[];
  /** Each distinct list of object keys once. */
  shapes: string[][];
  ops: Uint32Array;
  /** Numbers other than whole numbers from 0 to 2^29 - 1 (fractions, negatives, -0, NaN, large ones), in order. */
  numbers: Float64Array;
}

/** Thrown by {@link RecordEncoder.add} for a value that is not plain data (a Map, a Date, a class instance, a function). */
export class NotPlainDataError extends Error {}

/**
 * Encodes a list of values, one {@link add} at a time; strings and shapes are shared across
 * them all.
 */
export class RecordEncoder {
  readonly #strings = new Map<string, number>();
  readonly #shapes = new Map<string, number>();
  readonly #shapeKeys: string[][] = [];
  readonly #ops: number[] = [];
  readonly #numbers: number[] = [];
  /** Values added. */
  count = 0;
  /** The reference string of the value being added. */
  #reference: string | undefined;

  /** The index of a string in the table, added when new. */
  #string(value: string): number {
    let id = this.#strings.get(value);
    if (id === undefined) {
      id = this.#strings.size;
      if (id > MAX_VALUE) throw new NotPlainDataError('too many distinct strings');
      this.#strings.set(value, id);
    }
    return id;
  }

  /**
   * Adds a value.
   *
   * @param reference - a string that the value's strings often begin (such as the path of the
   *   file it was read from): those of {@link MIN_PREFIX} characters or more that do are written
   *   as their length, and the decoder must be given the same reference for this value.
   * @throws NotPlainDataError when the value holds anything but plain data; nothing of it is kept then.
   */
  add(value: unknown, reference?: string): void {
    const ops = this.#ops.length;
    const numbers = this.#numbers.length;
    this.#reference = reference;
    try {
      this.#write(value);
    } catch (error) {
      this.#ops.length = ops;
      this.#numbers.length = numbers;
      throw error;
    }
    this.count++;
  }

  #write(value: unknown): void {
    switch (typeof value) {
      case 'string':
        if (value.length >= MIN_PREFIX && this.#reference?.startsWith(value)) this.#ops.push(value.length * 8 + PREFIX);
        else this.#ops.push(this.#string(value) * 8 + STRING);
        return;
      case 'number':
        if (Number.isInteger(value) && value >= 0 && value <= MAX_VALUE && !Object.is(value, -0)) {
          this.#ops.push(value * 8 + UINT);
        } else {
          this.#ops.push(NUMBER);
          this.#numbers.push(value);
        }
        return;
      case 'boolean':
        this.#ops.push((value ? 3 : 2) * 8 + CONSTANT);
        return;
      case 'undefined':
        this.#ops.push(1 * 8 + CONSTANT);
        return;
      case 'object':
        if (value === null) {
          this.#ops.push(CONSTANT);
        } else if (Array.isArray(value)) {
          if (value.length > MAX_VALUE) throw new NotPlainDataError('array too long');
          this.#ops.push(value.length * 8 + ARRAY);
          // A hole reads as undefined, as it would in a spread copy.
          for (let i = 0; i < value.length; i++) this.#write(value[i]);
        } else if (Object.getPrototypeOf(value) === Object.prototype) {
          const keys = Object.keys(value);
          this.#ops.push(this.#shape(keys) * 8 + OBJECT);
          for (const key of keys) this.#write((value as Record<string, unknown>)[key]);
        } else {
          throw new NotPlainDataError(`not plain data: ${Object.prototype.toString.call(value)}`);
        }
        return;
      default:
        throw new NotPlainDataError(`not plain data: ${typeof value}`);
    }
  }

  #shape(keys: string[]): number {
    const name = shapeName(keys);
    let id = this.#shapes.get(name);
    if (id === undefined) {
      id = this.#shapeKeys.length;
      if (id > MAX_VALUE) throw new NotPlainDataError('too many object shapes');
      this.#shapes.set(name, id);
      this.#shapeKeys.push(keys);
    }
    return id;
  }

  /** The encoded values. */
  finish(): EncodedRecords {
    return { strings: [...this.#strings.keys()], shapes: this.#shapeKeys, ops: Uint32Array.from(this.#ops), numbers: Float64Array.from(this.#numbers) };
  }
}

/** Thrown by {@link decodeRecords} and {@link RecordReader} for operations that do not make up whole values. */
export class DamagedRecordsError extends Error {}

/** Reads encoded values one at a time, in the order they were added. */
export interface RecordReader {
  /**
   * The next value.
   *
   * @param reference - the reference string it was added with, if any.
   * @throws DamagedRecordsError when the operations end early or point past a table or past the reference.
   */
  read(reference?: string): unknown;
  /**
   * Checks that every operation and number was read.
   *
   * @throws DamagedRecordsError when some are left over.
   */
  end(): void;
}

/** A reader of encoded values (see {@link RecordReader}). */
export function recordReader(encoded: EncodedRecords): RecordReader {
  const { strings, ops, numbers } = encoded;
  let at = 0;
  let number = 0;
  let reference: string | undefined;
  const damaged = (): never => {
    throw new DamagedRecordsError(`damaged records at operation ${at}`);
  };
  const read = (): unknown => {
    if (at >= ops.length) damaged();
    const op = ops[at++]!;
    const value = op >>> 3;
    switch (op & 7) {
      case CONSTANT:
        return value < 4 ? CONSTANTS[value] : damaged();
      case UINT:
        return value;
      case NUMBER:
        return number < numbers.length ? numbers[number++] : damaged();
      case STRING:
        return value < strings.length ? strings[value] : damaged();
      case ARRAY: {
        if (value > ops.length - at) damaged();
        const list = new Array<unknown>(value);
        for (let i = 0; i < value; i++) list[i] = read();
        return list;
      }
      case OBJECT:
        return value < makers.length ? makers[value]!(read) : damaged();
      case PREFIX:
        if (reference === undefined || value < MIN_PREFIX || value > reference.length) return damaged();
        return value === reference.length ? reference : reference.slice(0, value);
      default:
        return damaged();
    }
  };
  const makers = encoded.shapes.map(objectMaker);
  return {
    read(ref) {
      reference = ref;
      return read();
    },
    end() {
      if (at !== ops.length || number !== numbers.length) damaged();
    },
  };
}

/**
 * Decodes `count` values added without a reference string.
 *
 * @throws DamagedRecordsError when the operations end early, are left over, or point past a table.
 */
export function decodeRecords(encoded: EncodedRecords, count: number): unknown[] {
  const reader = recordReader(encoded);
  const out = new Array<unknown>(count);
  for (let i = 0; i < count; i++) out[i] = reader.read();
  reader.end();
  return out;
}

/** Builds an object of one shape, its values read in key order. */
type ObjectMaker = (read: () => unknown) => unknown;

/**
 * The makers made so far, by shape (see {@link shapeName}): one function per shape for the whole
 * process, so that V8 optimises it and learns that its objects live long (it then allocates them
 * in the old generation, which the young generation's collections need not copy). Bounded:
 * emptied when it holds {@link MAX_MAKERS}.
 */
const makersByShape = new Map<string, ObjectMaker>();
const MAX_MAKERS = 10_000;

/** A shape's name: each key with its length, so that no two lists of keys share one ({} and { '': … }, ['a\0b'] and ['a', 'b']). */
function shapeName(keys: readonly string[]): string {
  let name = '';
  for (const key of keys) name += `${key.length}:${key}`;
  return name;
}

/**
 * The function that builds an object of the given keys with one object literal, its values read
 * in key order (an object literal's values are evaluated left to right, ECMA-262 §13.2.5.5).
 * `__proto__` is written as a computed key so that it stays an own property.
 *
 * @throws DamagedRecordsError when `keys` is not a list of strings.
 */
function objectMaker(keys: readonly string[]): ObjectMaker {
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new DamagedRecordsError('damaged shape table');
  const name = shapeName(keys);
  let maker = makersByShape.get(name);
  if (maker === undefined) {
    const fields = keys.map((key) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}: read()`);
    maker = new Function('read', `return { ${fields.join(', ')} };`) as ObjectMaker;
    if (makersByShape.size >= MAX_MAKERS) makersByShape.clear();
    makersByShape.set(name, maker);
  }
  return maker;
}
