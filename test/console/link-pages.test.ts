/** The pages a mail links to are real paths under /console, serving the console's page with its assets one level up. */
import { describe, expect, it, inject } from 'vitest';
import { LINK_PAGES, linkPageOf } from '../../console/app/link-pages.js';

describe('the link pages', () => {
  it('are told from their path, under a gateway stage too, and from nothing else', () => {
    expect(linkPageOf('/console/verify-email')).toBe('verify-email');
    expect(linkPageOf('/prod/console/reset-password')).toBe('reset-password');
    expect(linkPageOf('/console/mail')).toBe('mail');
    expect(linkPageOf('/console')).toBeUndefined();
    expect(linkPageOf('/console/assets/mail')).toBeUndefined();
    expect(linkPageOf('/console/other')).toBeUndefined();
  });

  it('serve the console page whose assets resolve from one level down', async () => {
    for (const page of LINK_PAGES) {
      const url = `${inject('baseUrl')}/console/${page}?token=anything`;
      const response = await fetch(url);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      const scripts = [...html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((m) => new URL(m[1]!, url).href);
      expect(scripts, page).toHaveLength(2);
      for (const asset of scripts) expect((await fetch(asset)).status, asset).toBe(200);
    }
  });

  it('is answered by the local mailbox at /local/mail, in the envelope', async () => {
    const response = await fetch(`${inject('baseUrl')}/local/mail?to=nobody-${Date.now()}@example.com`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, data: { items: [] }, agent: {} });
    expect((await fetch(`${inject('baseUrl')}/local/mail`, { method: 'POST' })).status).toBe(405);
  });
});
