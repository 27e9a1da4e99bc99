import { describe, expect, it } from 'vitest';
import { BODY_PREVIEW_LENGTH, bodyPreview } from '../../shared/domain/posts.js';

describe('bodyPreview', () => {
  it('keeps a body of up to 280 code points whole', () => {
    expect(bodyPreview('short')).toEqual({ body_preview: 'short', body_truncated: false });
    const exact = 'a'.repeat(BODY_PREVIEW_LENGTH - 1) + '😀';
    expect(bodyPreview(exact)).toEqual({ body_preview: exact, body_truncated: false });
  });

  it('cuts after 280 code points, never inside a surrogate pair', () => {
    const body = '😀'.repeat(300);
    const { body_preview, body_truncated } = bodyPreview(body);
    expect(body_truncated).toBe(true);
    expect(Array.from(body_preview)).toHaveLength(BODY_PREVIEW_LENGTH);
    expect(body_preview).toBe('😀'.repeat(BODY_PREVIEW_LENGTH));
    expect(bodyPreview('b'.repeat(281))).toEqual({ body_preview: 'b'.repeat(280), body_truncated: true });
  });

  it('counts a lone surrogate as one character, as iterating the string does', () => {
    const body = '\ud800' + 'x'.repeat(BODY_PREVIEW_LENGTH);
    expect(bodyPreview(body)).toEqual({
      body_preview: Array.from(body).slice(0, BODY_PREVIEW_LENGTH).join(''),
      body_truncated: true,
    });
  });
});
