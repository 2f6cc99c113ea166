/**
 * The client's address for the access log's `remote` (`--trust-proxy`). Behind a load balancer
 * the connection's peer is the balancer; the client's address is in `X-Forwarded-For`, which
 * each proxy extends by appending the address it received the request from. Anyone can send
 * that header, so it is read only when the peer is a trusted proxy, and then from the right:
 * the right-most address that is not itself a trusted proxy is the client (what the first
 * trusted proxy saw); everything left of it was written by the client and proves nothing.
 */
import { BlockList, isIP } from 'node:net';

/** Addresses whose `X-Forwarded-For` is believed. */
export interface TrustedProxies {
  /** The CIDRs as given, for the start-up line. */
  readonly cidrs: readonly string[];
  /**
   * Whether an address is one of them. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a
   * dual-stack listener sees an IPv4 peer) matches the IPv4 CIDRs, and an IPv4 address the
   * `::ffff:0:0/96` ones.
   */
  has(address: string): boolean;
}

/** Most trusted hops walked through in one `X-Forwarded-For`: a header of thousands cannot cost more. */
export const MAX_PROXY_HOPS = 32;

/**
 * Reads a list of trusted proxies: IPv4 or IPv6 CIDRs (`10.0.0.0/8`, `fd00::/8`,
 * `::ffff:10.0.0.0/104`), or single addresses (a /32 or /128), separated by commas.
 *
 * @param list - the CIDRs, as one comma-separated text or a list.
 * @param name - the option's name for the message (`--trust-proxy`, `EQF_TRUST_PROXY`, `trustProxy`).
 * @throws TypeError naming the option and the entry, e.g.
 *   `--trust-proxy: "10.0.0.0/33" is not an IPv4 or IPv6 address or CIDR (a /0 to /32 or /128 prefix)`.
 */
export function parseTrustedProxies(list: string | readonly string[], name: string): TrustedProxies {
  const entries = (typeof list === 'string' ? list.split(',') : list).map((entry) => (typeof entry === 'string' ? entry.trim() : entry));
  if (entries.length === 0 || entries.every((entry) => entry === '')) throw new TypeError(`${name} must name at least one address or CIDR`);
  const blocks = new BlockList();
  const cidrs: string[] = [];
  for (const entry of entries) {
    const bad = (): TypeError => new TypeError(`${name}: ${JSON.stringify(String(entry)).slice(0, 60)} is not an IPv4 or IPv6 address or CIDR (a /0 to /32 or /128 prefix)`);
    if (typeof entry !== 'string' || entry === '' || entry.includes('%')) throw bad();
    const slash = entry.indexOf('/');
    const address = slash === -1 ? entry : entry.slice(0, slash);
    const family = isIP(address);
    if (family === 0) throw bad();
    const most = family === 4 ? 32 : 128;
    const prefixText = slash === -1 ? String(most) : entry.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(prefixText) || Number(prefixText) > most) throw bad();
    blocks.addSubnet(address, Number(prefixText), family === 4 ? 'ipv4' : 'ipv6');
    cidrs.push(entry);
  }
  return {
    cidrs,
    has(address) {
      const family = isIP(address);
      return family !== 0 && blocks.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy and `X-Forwarded-For`
 * names addresses; then the right-most of those that is not a trusted proxy (or the left-most,
 * when every one is). An entry that is not a bare IPv4 or IPv6 address (a port, brackets, a
 * zone, text) ends the walk: the last address vouched for is the answer, so nothing but an
 * address ever reaches the log. After {@link MAX_PROXY_HOPS} trusted hops the walk stops too.
 *
 * @param peer - the connection's remote address (`socket.remoteAddress`).
 * @param forwardedFor - the `X-Forwarded-For` header (Node joins repeated ones with commas).
 * @param trusted - the trusted proxies, or undefined when none are (then the peer, always).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies | undefined): string | undefined {
  if (trusted === undefined || peer === undefined || forwardedFor === undefined || !trusted.has(peer)) return peer;
  let hop = peer;
  let end = forwardedFor.length;
  for (let hops = 0; end > 0 && hops < MAX_PROXY_HOPS; hops++) {
    const comma = forwardedFor.lastIndexOf(',', end - 1);
    const entry = forwardedFor.slice(comma + 1, end).trim();
    end = comma === -1 ? 0 : comma;
    if (isIP(entry) === 0 || entry.includes('%')) return hop;
    if (!trusted.has(entry)) return entry;
    hop = entry;
  }
  return hop;
}
