/**
 * Grouping by key without copying: `map.set(key, [...list, value])` copies the list on every
 * add, which is quadratic in the size of a group (a 250,000-filing build has groups of tens of
 * thousands: every Form 4's `doc4.xml`, every filing of one issuer).
 */

/** Appends `value` to the list under `key`, creating it. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
