import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { DEFAULT_COLOR_PRESETS } from '../ColorPicker/ColorPicker';
import { contrastRatio, readableTextColor } from '../lib/color';
import { Chip, chipColor } from './Chip';

beforeEach(() => {
  initTestI18n('es');
});

describe('Chip', { timeout: 20_000 }, () => {
  it('falls back to #CCCCCC without a valid colour', () => {
    expect(chipColor(undefined)).toBe('#CCCCCC');
    expect(chipColor(null)).toBe('#CCCCCC');
    expect(chipColor('')).toBe('#CCCCCC');
    expect(chipColor('#12')).toBe('#CCCCCC');
    expect(chipColor('red')).toBe('#CCCCCC');
    expect(chipColor('#7300ff')).toBe('#7300ff');
    render(<Chip label="Sin color" />);
    expect(screen.getByText('Sin color').closest('.hb-chip')).toHaveAttribute('data-color', '#CCCCCC');
  });

  it('picks the text colour with the better contrast, always at least 4.5:1', () => {
    for (const background of [
      '#CCCCCC',
      '#7300ff',
      '#25d366',
      '#ffff00',
      '#000000',
      '#1a73e8',
      '#f59e0b',
      ...DEFAULT_COLOR_PRESETS,
    ]) {
      const text = readableTextColor(background);
      expect(contrastRatio(background, text)).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableTextColor('#7300ff')).toBe('#ffffff');
    expect(readableTextColor('#CCCCCC')).toBe('#1a1a1a');
  });

  it('can be clicked (edit) and removed (delete) with named buttons', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const onRemove = vi.fn();
    render(<Chip label="VIP" color="#7300ff" onClick={onClick} onRemove={onRemove} />);
    await user.click(screen.getByRole('button', { name: 'VIP' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Quitar VIP' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(
      <div>
        <Chip label="VIP" color="#7300ff" onClick={() => {}} onRemove={() => {}} />
        <Chip label="Ninguno" />
      </div>,
    );
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
