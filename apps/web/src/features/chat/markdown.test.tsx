import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownLite, sanitizeText } from './markdown';

function html(text: string) {
  const { container } = render(<MarkdownLite text={text} />);
  return container.innerHTML;
}

describe('MarkdownLite', () => {
  it('renders **bold** and __italic__, also nested', () => {
    const { container } = render(<MarkdownLite text={'Hola **Ana** y __bienvenida **de nuevo**__'} />);
    expect(container.querySelector('strong')?.textContent).toBe('Ana');
    expect(container.querySelector('em')?.textContent).toBe('bienvenida de nuevo');
    expect(container.querySelector('em strong')?.textContent).toBe('de nuevo');
  });

  it("turns '- ' lines into a list and keeps line breaks elsewhere", () => {
    const { container } = render(<MarkdownLite text={'Opciones:\n- uno\n- **dos**\nGracias\nAdiós'} />);
    const items = [...container.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['uno', 'dos']);
    expect(container.querySelector('li strong')?.textContent).toBe('dos');
    expect(container.querySelectorAll('br')).toHaveLength(1);
    expect(container.textContent).toContain('Opciones:');
  });

  it('leaves unmatched markers as they are', () => {
    const { container } = render(<MarkdownLite text="2 ** 3 y __a" />);
    expect(container.querySelector('strong, em')).toBeNull();
    expect(container.textContent).toBe('2 ** 3 y __a');
  });

  it('shows HTML in a message as text, never as elements', () => {
    const text = '<img src=x onerror="alert(1)"><script>alert(2)</script> **<b>hola</b>**';
    const { container } = render(<MarkdownLite text={text} />);
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.querySelector('strong')?.textContent).toBe('<b>hola</b>');
    expect(html(text)).not.toContain('<script');
  });

  it('drops control and direction-override characters and normalises line ends', () => {
    expect(sanitizeText('a\u202Eb\u0000c\r\nd\re\tf')).toBe('abc\nd\ne\tf');
  });
});
