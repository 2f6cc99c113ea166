/**
 * The kinds of setting value and their one check each. A kind has two faces: `check` takes a
 * value given in code (`createHandler`, `listen`, `new Breaker`) and `read` takes the text of a
 * flag or an `EQF_` variable. Both throw a TypeError naming the option, flag or variable; a
 * value's message shows the value (`got 0`), a text's message the text as typed (`got "0"`).
 */
import { parseTrustedProxies, type TrustedProxies } from '../ops/client-address.js';

/** How a setting's value is checked and read. `In` is what the caller gives, `Out` what the server keeps. */
export interface Kind<In, Out = In> {
  /**
   * Checks a value given in code.
   *
   * @param value - as given; never `undefined` unless the setting is required.
   * @param name - the option's name, for the message.
   * @returns the value as the server keeps it.
   * @throws TypeError naming the option.
   */
  readonly check: (value: unknown, name: string) => Out;
  /**
   * Reads a flag's or an `EQF_` variable's text; absent for kinds that text cannot give (a function).
   *
   * @param text - as typed, never empty (an empty variable is unset).
   * @param name - `--flag` or `EQF_VARIABLE`, for the message.
   * @throws TypeError naming the flag or variable.
   */
  readonly read?: (text: string, name: string) => In;
}

/** The loopback interface: where the server and its metrics listen unless told otherwise. */
export const LOOPBACK = '127.0.0.1';

/** Largest value of a whole-number setting read from text: the longest Node timer, ms (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A non-empty text: a path, an address, a licence. */
export const text: Kind<string> = {
  check(value, name) {
    if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
    return value;
  },
  read: (raw) => raw,
};

/** An absolute `http` or `https` URL, kept without its trailing slashes. */
export const httpUrl: Kind<string> = {
  check(value, name) {
    text.check(value, name);
    if (!/^https?:\/\/[^/]/.test(value as string) || !URL.canParse(value as string)) {
      throw new TypeError(`${name} must be an absolute http or https URL, got ${shown(value)}`);
    }
    return (value as string).replace(/\/+$/, '');
  },
  read: (raw, name) => httpUrl.check(raw, name),
};

/** The URL of a Redis server: `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
export const redisUrl: Kind<string> = {
  check(value, name) {
    if (typeof value !== 'string' || !/^rediss?:\/\//.test(value) || !URL.canParse(value)) {
      throw new TypeError(`${name} must be a redis:// or rediss:// URL`);
    }
    return value;
  },
  read: (raw, name) => redisUrl.check(raw, name),
};

/**
 * A whole number from `min`, up to `max` when given. Its text is decimal digits, up to `max`
 * or else {@link MAX_TIMER_MS}.
 */
export function whole(min: number, max?: number): Kind<number> {
  const most = max ?? MAX_TIMER_MS;
  return {
    check(value, name) {
      if (typeof value === 'number' && Number.isInteger(value) && value >= min && (max === undefined || value <= max)) return value;
      throw new TypeError(max === undefined ? `${name} must be a whole number, ${min} or more` : `${name} must be a whole number from ${min} to ${max}, got ${shown(value)}`);
    },
    read(raw, name) {
      if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > most) {
        throw new TypeError(`${name} must be a whole number from ${min} to ${most}, got "${raw}"`);
      }
      return Number(raw);
    },
  };
}

/** A TCP port, 0 to 65535; 0 picks a free one. */
export const port: Kind<number> = {
  check: whole(0, 65535).check,
  read(raw, name) {
    if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw new TypeError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
    return Number(raw);
  },
};

/** A finite number above 0, fractions allowed (a threshold in ms or bytes). */
export const positiveNumber: Kind<number> = {
  check(value, name) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number`);
    return value;
  },
};

/** A finite number, 0 or more, fractions allowed. */
export const nonNegativeNumber: Kind<number> = {
  check(value, name) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a non-negative number`);
    return value;
  },
};

/** A safe integer above 0. */
export const positiveInteger: Kind<number> = {
  check(value, name) {
    if (!Number.isSafeInteger(value) || (value as number) <= 0) throw new TypeError(`${name} must be a positive integer`);
    return value as number;
  },
};

/** One of a few words. */
export function oneOf<T extends string>(values: readonly T[]): Kind<T> {
  return {
    check(value, name) {
      if (!(values as readonly unknown[]).includes(value)) throw new TypeError(`${name} must be ${values.map(shown).join(' or ')}, got ${shown(value)}`);
      return value as T;
    },
    read(raw, name) {
      if (!(values as readonly string[]).includes(raw)) throw new TypeError(`${name} must be ${values.join(' or ')}, got "${raw}"`);
      return raw as T;
    },
  };
}

/** `true` or `false`. */
export const boolean: Kind<boolean> = {
  check(value, name) {
    if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false`);
    return value;
  },
};

/**
 * IPv4 or IPv6 CIDRs or addresses, as a list or one comma-separated text; kept as the
 * {@link TrustedProxies} they describe (text read stays text, for `listen`).
 */
export const cidrList: Kind<string | readonly string[], TrustedProxies> = {
  check(value, name) {
    if (typeof value !== 'string' && !Array.isArray(value)) throw new TypeError(`${name} must be a list of CIDRs, or one text of them separated by commas`);
    return parseTrustedProxies(value as string | readonly string[], name);
  },
  read(raw, name) {
    parseTrustedProxies(raw, name);
    return raw;
  },
};

/** A function of type `F`; `what` ends the message (` returning ms`). */
export function func<F extends (...args: never[]) => unknown>(what = ''): Kind<F> {
  return {
    check(value, name) {
      if (typeof value !== 'function') throw new TypeError(`${name} must be a function${what}`);
      return value as F;
    },
  };
}

/** An object with the methods named, e.g. a limiter store's `take` and `peek`. */
export function withMethods<T extends object>(methods: readonly (keyof T & string)[]): Kind<T> {
  return {
    check(value, name) {
      if (value === null || typeof value !== 'object' || methods.some((m) => typeof (value as Record<string, unknown>)[m] !== 'function')) {
        throw new TypeError(`${name} must have ${methods.join(' and ')} methods`);
      }
      return value as T;
    },
  };
}

/** A function of type `F`, or an object with the methods named (a sink that also counts). */
export function funcOrMethods<F extends (...args: never[]) => unknown, T extends object>(methods: readonly (keyof T & string)[]): Kind<F | T> {
  return {
    check(value, name) {
      if (typeof value === 'function') return value as F;
      if (value === null || typeof value !== 'object' || methods.some((m) => typeof (value as Record<string, unknown>)[m] !== 'function')) {
        throw new TypeError(`${name} must be a function, or an object with ${methods.join(' and ')} methods`);
      }
      return value as T;
    },
  };
}
