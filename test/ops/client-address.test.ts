/**
 * `--trust-proxy`: which addresses are trusted proxies (IPv4, IPv6 and IPv4-mapped IPv6 CIDRs),
 * which address of `X-Forwarded-For` is the client's, and a malformed CIDR refused at start-up
 * with the option's name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddress, MAX_PROXY_HOPS, parseTrustedProxies } from '../../src/ops/client-address.js';
import { ServeUsageError, readServeConfig } from '../../src/cli/serve-config.js';
import { resolveOptions } from '../../src/options.js';

test('IPv4, IPv6 and IPv4-mapped IPv6 CIDRs and single addresses; a mapped peer matches an IPv4 CIDR and the other way round', () => {
  const trusted = parseTrustedProxies('10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1,::ffff:172.16.0.0/112', '--trust-proxy');
  assert.deepEqual(trusted.cidrs, ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', '::ffff:172.16.0.0/112']);
  for (const address of ['10.1.2.3', '::ffff:10.1.2.3', '192.168.1.7', 'fd12:3456::1', '::1', '172.16.0.1', '::ffff:172.16.0.1']) assert.ok(trusted.has(address), address);
  for (const address of ['11.0.0.1', '192.168.1.8', 'fe80::1', '::2', '172.17.0.1', '::ffff:11.0.0.1', 'nonsense', '']) assert.ok(!trusted.has(address), address);
});

test('a malformed CIDR is refused with the name of the option it came from', () => {
  for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fd00::/129', '10.0.0.0/-1', '10.0.0.0/', '10.0.0.0/8/8', 'example.com', 'fe80::1%eth0/64', '10.0.0.0/8,', '', ' , ']) {
    assert.throws(() => parseTrustedProxies(bad, '--trust-proxy'), (error: Error) => error instanceof TypeError && error.message.startsWith('--trust-proxy'), bad);
  }
  assert.throws(() => readServeConfig(['--trust-proxy', '10.0.0.0/33'], {}), (error: Error) =>
    error instanceof ServeUsageError && /^--trust-proxy: "10\.0\.0\.0\/33" is not an IPv4 or IPv6 address or CIDR/.test(error.message));
  assert.throws(() => readServeConfig([], { EQF_TRUST_PROXY: '300.1.1.1' }), (error: Error) => error instanceof ServeUsageError && error.message.startsWith('EQF_TRUST_PROXY:'));
  assert.throws(() => resolveOptions({ trustProxy: ['10.0.0.0/8', 'x'] }), (error: Error) => error instanceof TypeError && error.message.startsWith('trustProxy:'));
  assert.throws(() => resolveOptions({ trustProxy: 7 as never }), /trustProxy must be a list of CIDRs/);
  const config = readServeConfig(['--trust-proxy', '10.0.0.0/8,::ffff:127.0.0.1'], {});
  assert.equal(config !== 'help' && config.trustProxy, '10.0.0.0/8,::ffff:127.0.0.1');
});

test('X-Forwarded-For is read from the right, only behind a trusted peer, and gives nothing but an address', () => {
  const trusted = parseTrustedProxies(['10.0.0.0/8', '::ffff:127.0.0.1'], 'trustProxy');
  assert.equal(clientAddress('203.0.113.5', '198.51.100.1', trusted), '203.0.113.5', 'an untrusted peer is the client, whatever it sends');
  assert.equal(clientAddress('10.0.0.2', '198.51.100.1', undefined), '10.0.0.2', 'no trusted proxies: always the peer');
  assert.equal(clientAddress('10.0.0.2', undefined, trusted), '10.0.0.2');
  assert.equal(clientAddress('::ffff:127.0.0.1', '198.51.100.1', trusted), '198.51.100.1', 'a mapped peer');
  assert.equal(clientAddress('127.0.0.1', '198.51.100.1', trusted), '198.51.100.1', 'an IPv4 peer against a mapped CIDR');
  assert.equal(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.1, 10.0.0.9', trusted), '198.51.100.1');
  assert.equal(clientAddress('10.0.0.2', '2001:db8::1,10.0.0.9', trusted), '2001:db8::1');
  assert.equal(clientAddress('10.0.0.2', '10.0.0.8,10.0.0.9', trusted), '10.0.0.8');
  assert.equal(clientAddress('10.0.0.2', '198.51.100.1,"><script>,10.0.0.9', trusted), '10.0.0.9', 'text is never the answer');
  assert.equal(clientAddress('10.0.0.2', '198.51.100.1,,10.0.0.9', trusted), '10.0.0.9');
  assert.equal(clientAddress('10.0.0.2', '[2001:db8::1]:443', trusted), '10.0.0.2');
  assert.equal(clientAddress('10.0.0.2', 'fe80::1%eth0', trusted), '10.0.0.2');
  const hops = Array.from({ length: MAX_PROXY_HOPS + 5 }, (_, i) => `10.0.1.${i}`);
  assert.equal(clientAddress('10.0.0.2', ['198.51.100.1', ...hops].join(','), trusted), hops.at(-MAX_PROXY_HOPS), `at most ${MAX_PROXY_HOPS} hops`);
});
