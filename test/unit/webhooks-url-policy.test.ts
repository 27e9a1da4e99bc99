import { describe, expect, it } from 'vitest';
import { addressAllowed, checkUrlSyntax, normalizeUrl, resolveTarget } from '../../shared/ports/outbound/url-policy.js';

const refused = [
  '127.0.0.1',
  '127.1.2.3',
  '::1',
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  'fd00::1',
  'fc00::1',
  '169.254.169.254',
  '169.254.0.1',
  'fe80::1',
  '100.64.0.1',
  '224.0.0.1',
  'ff02::1',
  '0.0.0.0',
  '::',
  '255.255.255.255',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
];

describe('outbound URL policy (public-https)', () => {
  it('refuses loopback, private, ULA, link-local, metadata, CGNAT, multicast and unspecified addresses', () => {
    for (const address of refused) expect(addressAllowed(address, 'public-https'), address).toBe(false);
    expect(addressAllowed('93.184.216.34', 'public-https')).toBe(true);
    expect(addressAllowed('2606:2800:220:1:248:1893:25c8:1946', 'public-https')).toBe(true);
  });

  it('accepts only https URLs without userinfo naming a public host', () => {
    expect(checkUrlSyntax('https://hooks.example.com/x', 'public-https').ok).toBe(true);
    for (const url of [
      'http://hooks.example.com',
      'ftp://example.com',
      'https://user:pw@example.com',
      'https://127.0.0.1/x',
      'https://[::1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3',
      'https://localhost/x',
      'https://a.localhost',
      'not a url',
      'https://[fd00::1]:8443',
      'https://0x7f000001/',
      'https://2130706433/',
    ]) {
      expect(checkUrlSyntax(url, 'public-https').ok, url).toBe(false);
    }
  });

  it('refuses at send time a host name that resolves to a private address, and connects to the checked one', async () => {
    const rebinding = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await resolveTarget('https://hooks.example.com', 'public-https', rebinding)).toEqual({
      reason: expect.stringContaining('not public'),
    });
    const metadata = async () => [{ address: '169.254.169.254', family: 4 }];
    expect(await resolveTarget('https://hooks.example.com', 'public-https', metadata)).toHaveProperty('reason');
    const ok = await resolveTarget('https://hooks.example.com/a', 'public-https', async () => [
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(ok).toMatchObject({ address: '93.184.216.34', family: 4 });
  });
});

describe('outbound URL policy (allow-local)', () => {
  it('additionally lets loopback receivers through, over http too, and nothing else private', () => {
    expect(checkUrlSyntax('http://127.0.0.1:4000/hooks', 'allow-local').ok).toBe(true);
    expect(checkUrlSyntax('http://localhost:4000/hooks', 'allow-local').ok).toBe(true);
    expect(checkUrlSyntax('http://[::1]:4000/', 'allow-local').ok).toBe(true);
    expect(checkUrlSyntax('http://example.com/', 'allow-local').ok).toBe(false);
    expect(checkUrlSyntax('http://10.0.0.1/', 'allow-local').ok).toBe(false);
    expect(checkUrlSyntax('https://169.254.169.254/', 'allow-local').ok).toBe(false);
    expect(addressAllowed('192.168.0.1', 'allow-local')).toBe(false);
  });
});

describe('URL normalisation', () => {
  const href = (raw: string) => {
    const check = normalizeUrl(raw, 'public-https');
    return check.ok ? check.url.href : check.reason;
  };

  it('lower-cases the scheme and host and removes the trailing dot, before the policy judges the host', () => {
    expect(href('HTTPS://Hooks.Example.COM./Path?Q=1')).toBe('https://hooks.example.com/Path?Q=1');
    expect(href('https://localhost.:4000/x')).toMatch(/localhost/);
    expect(href('https://a.localhost./x')).toMatch(/localhost/);
    expect(checkUrlSyntax('https://localhost.:4000/x', 'public-https').ok).toBe(false);
  });

  it('refuses fragments, control characters and whitespace', () => {
    for (const raw of [
      'https://h.example.com/#',
      'https://h.example.com/a#b',
      'https://h.example.com/\r\n',
      'https://h.example.com/\u007f',
      'https://h.example.com/\u009b',
      ' https://h.example.com/',
    ]) {
      expect(normalizeUrl(raw, 'public-https').ok, JSON.stringify(raw)).toBe(false);
    }
  });
});
