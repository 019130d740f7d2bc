// The outbound policy (address-policy.ts, callOutside): which addresses a tenant's URL may reach, checked
// on the address the socket connects to. Real HTTP to a fake server on 127.0.0.1; the name resolver is
// injected where a test needs a name to resolve to an address of its choosing.
import { startFakeServer } from '@hablabot/fakes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';
import { addressRefusal, parseAllowList, type Resolve } from './address-policy';
import { callOutside, configureOutbound, streamOutside } from './outbound';

let fake: Awaited<ReturnType<typeof startFakeServer>>;
let port: string;
let hits = 0;

beforeAll(async () => {
  fake = await startFakeServer(() => {
    hits++;
    return { status: 200, body: { ok: true } };
  });
  port = new URL(fake.url).port;
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  // Back to what test/outbound-setup.ts gives every test file.
  configureOutbound({ httpsOnly: false, allowPrivate: parseAllowList('127.0.0.1,::1') });
});

const production = (list = '', resolve?: Resolve) =>
  configureOutbound({ httpsOnly: true, allowPrivate: parseAllowList(list), resolve });

describe('addresses', () => {
  const none = { allowPrivate: [] };
  it.each([
    '127.0.0.1',
    '127.0.0.2',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0.0.0.0',
    '::',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '224.0.0.1',
    'ff02::1',
    '255.255.255.255',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    'not-an-address',
  ])('%s is refused without a list', (address) => {
    expect(addressRefusal(address, none)).toBe('private');
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])(
    '%s is public',
    (address) => {
      expect(addressRefusal(address, none)).toBeNull();
    },
  );

  it('the operator list allows exactly what it names', () => {
    const one = { allowPrivate: parseAllowList('127.0.0.1') };
    expect(addressRefusal('127.0.0.1', one)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', one)).toBeNull();
    expect(addressRefusal('127.0.0.2', one)).toBe('private');
    expect(addressRefusal('::1', one)).toBe('private');
    const net10 = { allowPrivate: parseAllowList('10.0.0.0/8, fd00::/8') };
    expect(addressRefusal('10.20.30.40', net10)).toBeNull();
    expect(addressRefusal('11.0.0.1', net10)).toBeNull();
    expect(addressRefusal('192.168.0.1', net10)).toBe('private');
    expect(addressRefusal('fd00::5', net10)).toBeNull();
    // Plain http in production: only the list counts, a public address too.
    expect(addressRefusal('10.1.1.1', net10, true)).toBeNull();
    expect(addressRefusal('93.184.216.34', net10, true)).toBe('not_listed');
  });

  it('OUTBOUND_ALLOW_PRIVATE in the configuration: unset is none, a bad entry stops the start', () => {
    expect(loadConfig({}).outbound).toEqual({ httpsOnly: false, allowPrivate: [] });
    expect(loadConfig({ NODE_ENV: 'production' }).outbound.httpsOnly).toBe(true);
    expect(
      loadConfig({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1, ::1,10.0.0.0/8' }).outbound.allowPrivate,
    ).toHaveLength(3);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,localhost' })).toThrow(
      /^Invalid environment variable OUTBOUND_ALLOW_PRIVATE: .*'localhost'/,
    );
  });

  it('OUTBOUND_ALLOW_PRIVATE accepts addresses and CIDRs only', () => {
    expect(parseAllowList(undefined)).toEqual([]);
    expect(parseAllowList(' ')).toEqual([]);
    expect(parseAllowList('127.0.0.1,::1,10.0.0.0/8')).toHaveLength(3);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '2130706433', '10.0.0.0/8/1', 'loopback'])
      expect(() => parseAllowList(bad), bad).toThrow(`'${bad}'`);
  });
});

describe('callOutside under the production policy', () => {
  it.each([
    'https://127.0.0.1:PORT/',
    'https://2130706433:PORT/',
    'https://0x7f000001:PORT/',
    'https://0177.0.0.1:PORT/',
    'https://127.1:PORT/',
    'https://[::1]:PORT/',
    'https://[::ffff:127.0.0.1]:PORT/',
    'https://[::ffff:7f00:1]:PORT/',
    'https://localhost:PORT/',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/',
    'https://[fc00::1]/',
    'https://[fe80::1]/',
    'https://224.0.0.1/',
    'https://10.0.0.1/',
  ])('%s is refused before connecting', async (url) => {
    production();
    hits = 0;
    const result = await callOutside(url.replace('PORT', port), { timeoutMs: 2000 });
    expect(result).toEqual({ kind: 'refused', reason: 'private' });
    expect(hits).toBe(0);
  });

  it('a listed address is reached, over http too; the next address is not', async () => {
    production('127.0.0.1');
    hits = 0;
    const listed = await callOutside(`http://127.0.0.1:${port}/`, { timeoutMs: 2000 });
    expect(listed).toMatchObject({ kind: 'answer', status: 200 });
    expect(await callOutside(`http://127.0.0.2:${port}/`, { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'not_listed',
    });
    expect(await callOutside(`https://127.0.0.2:${port}/`, { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'private',
    });
    expect(await callOutside(`http://[::1]:${port}/`, { timeoutMs: 2000 })).toMatchObject({
      kind: 'refused',
    });
    expect(hits).toBe(1);
  });

  it('plain http to a public address is refused in production', async () => {
    production('', async () => [{ address: '93.184.216.34', family: 4 }]);
    expect(await callOutside('http://api.example.com/', { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'not_listed',
    });
  });

  it('only http and https', async () => {
    production();
    expect(await callOutside('file:///etc/passwd', { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'scheme',
    });
    expect(await streamOutside('ftp://example.com/x', { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'scheme',
    });
  });

  it('a name is checked on the address it resolves to when connecting (DNS rebinding)', async () => {
    // The name resolves to a private address at connect time, whatever it said to anyone before.
    const asked: string[] = [];
    production('', async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    });
    hits = 0;
    expect(await callOutside(`https://rebind.example.com:${port}/`, { timeoutMs: 2000 })).toEqual({
      kind: 'refused',
      reason: 'private',
    });
    expect(asked).toEqual(['rebind.example.com']);
    expect(hits).toBe(0);

    // A name resolving to several addresses connects only to the allowed ones.
    configureOutbound({
      httpsOnly: false,
      allowPrivate: parseAllowList('127.0.0.1'),
      resolve: async () => [
        { address: '10.0.0.1', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const reached = await callOutside(`http://mixed.example.com:${port}/`, { timeoutMs: 2000 });
    expect(reached).toMatchObject({ kind: 'answer', status: 200 });
    expect(hits).toBe(1);
  });

  it('no redirect is followed and answers are capped', async () => {
    const redirecting = await startFakeServer(() => ({
      status: 302,
      headers: { location: `http://127.0.0.1:${port}/` },
    }));
    const big = await startFakeServer(() => ({ status: 200, body: 'x'.repeat(100_000) }));
    try {
      hits = 0;
      const moved = await callOutside(redirecting.url, { timeoutMs: 2000 });
      expect(moved).toMatchObject({ kind: 'answer', status: 302 });
      expect(hits).toBe(0);
      const capped = await callOutside(big.url, { timeoutMs: 2000, maxBytes: 1000 });
      expect(capped.kind === 'answer' && capped.text.length).toBe(1000);
    } finally {
      await Promise.all([redirecting.close(), big.close()]);
    }
  });
});
