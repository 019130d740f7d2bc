import { describe, expect, it } from 'vitest';
import { appendMediaUrl } from './media';

const URL = 'https://hablabot.example/storage/media/3f9a/sofa.jpg';

describe('appendMediaUrl', () => {
  it('puts the address on a line of its own after the text', () => {
    expect(appendMediaUrl('Envía esta foto:', URL)).toEqual({ ok: true, reply: `Envía esta foto:\n${URL}` });
  });

  it('an empty description becomes the address; a trailing line break is reused', () => {
    expect(appendMediaUrl('', URL)).toEqual({ ok: true, reply: URL });
    expect(appendMediaUrl('Foto:\n', URL)).toEqual({ ok: true, reply: `Foto:\n${URL}` });
  });

  it('accepts a result of exactly 1000 characters and refuses one of 1001, leaving the text as it was', () => {
    const exact = 'x'.repeat(1000 - URL.length - 1);
    expect(appendMediaUrl(exact, URL)).toEqual({ ok: true, reply: `${exact}\n${URL}` });
    expect(appendMediaUrl(exact, URL).reply).toHaveLength(1000);
    const over = `${exact}y`;
    expect(appendMediaUrl(over, URL)).toEqual({ ok: false, reply: over });
  });

  it('refuses when the text is already full, and honours another limit', () => {
    expect(appendMediaUrl('x'.repeat(1000), URL).ok).toBe(false);
    expect(appendMediaUrl('abc', 'https://a.test/b.png', 24)).toEqual({
      ok: true,
      reply: 'abc\nhttps://a.test/b.png',
    });
    expect(appendMediaUrl('abcd', 'https://a.test/b.png', 24).ok).toBe(false);
  });

  it('ignores a blank address', () => {
    expect(appendMediaUrl('Hola', '  ')).toEqual({ ok: true, reply: 'Hola' });
  });
});
