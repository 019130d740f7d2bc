import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { ColorPicker, DEFAULT_SEGMENT_COLOR, sanitizeHexInput } from './ColorPicker';

function Controlled({ initial = DEFAULT_SEGMENT_COLOR, onChange = vi.fn() }) {
  const [color, setColor] = useState(initial);
  return (
    <>
      <label htmlFor="color">Color</label>
      <ColorPicker
        id="color"
        value={color}
        onChange={(next) => {
          setColor(next);
          onChange(next);
        }}
      />
      <output data-testid="value">{color}</output>
    </>
  );
}

const swatch = () => screen.getByLabelText('Elegir color') as HTMLInputElement;
const text = () => screen.getByRole('textbox', { name: 'Color' }) as HTMLInputElement;

beforeEach(() => {
  initTestI18n('es');
});

describe('ColorPicker', { timeout: 20_000 }, () => {
  it('starts from the caller default (#7300ff for segments)', () => {
    render(<Controlled />);
    expect(text().value).toBe('#7300ff');
    expect(swatch().value).toBe('#7300ff');
  });

  it('accepts only #RRGGBB; incomplete text is reported as empty and the swatch falls back to #000000', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    await user.clear(text());
    expect(onChange).toHaveBeenLastCalledWith('');
    await user.type(text(), '#12ab');
    expect(text().value).toBe('#12ab');
    expect(screen.getByTestId('value')).toHaveTextContent('');
    expect(swatch().value).toBe('#000000');
    await user.type(text(), 'EF');
    expect(onChange).toHaveBeenLastCalledWith('#12abEF');
    expect(swatch().value).toBe('#12abef');
    // Never more than 6 hex digits.
    await user.type(text(), '9');
    expect(text().value).toBe('#12abEF');
  });

  it('drops characters that are not hex digits and adds the missing #', async () => {
    const user = userEvent.setup();
    render(<Controlled initial="" />);
    await user.type(text(), 'zz7g3x00ff');
    expect(text().value).toBe('#7300ff');
    expect(screen.getByTestId('value')).toHaveTextContent('#7300ff');
    expect(sanitizeHexInput('  #ab cd ')).toBe('#abcd');
    // Pasted text with extra characters still yields the colour (no maxLength cutting it first).
    await user.clear(text());
    await user.click(text());
    await user.paste(' #25D366 ');
    expect(text().value).toBe('#25D366');
    expect(sanitizeHexInput('')).toBe('');
  });

  it('explains the format after leaving an incomplete value', async () => {
    const user = userEvent.setup();
    render(<Controlled />);
    await user.clear(text());
    await user.type(text(), '#abc');
    await user.tab();
    expect(text()).toHaveAttribute('aria-invalid', 'true');
    expect(text()).toHaveAccessibleDescription('Usa el formato #RRGGBB, por ejemplo #7300ff.');
  });

  it('takes colours from the native swatch and from the presets', async () => {
    const user = userEvent.setup();
    render(<Controlled />);
    fireEvent.input(swatch(), { target: { value: '#00ff00' } });
    expect(text().value).toBe('#00ff00');
    expect(screen.getByTestId('value')).toHaveTextContent('#00ff00');
    const preset = screen.getByRole('button', { name: 'Usar el color #1a73e8' });
    await user.click(preset);
    expect(screen.getByTestId('value')).toHaveTextContent('#1a73e8');
    expect(preset).toHaveAttribute('aria-pressed', 'true');
  });

  it('follows a new value from the caller (form reset)', () => {
    const { rerender } = render(<ColorPicker aria-describedby="x" value="#111111" onChange={() => {}} />);
    rerender(<ColorPicker value="#222222" onChange={() => {}} />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('#222222');
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(<Controlled />);
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
