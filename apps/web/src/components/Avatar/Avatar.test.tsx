import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n } from '../../test';
import { contrastRatio } from '../lib/color';
import { Avatar } from './Avatar';
import { AVATAR_COLORS, avatarColor, getInitials } from './avatar';

beforeEach(() => {
  initTestI18n('es');
});

describe('Avatar', { timeout: 20_000 }, () => {
  it('shows the initials of the first and last word, or "?" without a name', () => {
    expect(getInitials('José Pérez Gómez')).toBe('JG');
    expect(getInitials('  ángela ')).toBe('Á');
    expect(getInitials('')).toBe('?');
    expect(getInitials(null)).toBe('?');
    render(
      <>
        <Avatar name="María López" />
        <Avatar name="" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'María López' })).toHaveTextContent('ML');
    expect(screen.getByRole('img', { name: '?' })).toHaveTextContent('?');
  });

  it('derives the colour from the name: the same name always gives the same colour', () => {
    expect(avatarColor('José Pérez')).toBe(avatarColor('José Pérez'));
    expect(avatarColor('José Pérez')).toBe(avatarColor(' jose perez '));
    const names = ['Ana', 'Luis', 'Carmen', 'Raúl', 'Beatriz', 'Óscar', 'Nuria', 'Íñigo', 'Pablo', 'Sara'];
    const colours = new Set(names.map(avatarColor));
    expect(colours.size).toBeGreaterThan(4);
    for (const name of names) expect(AVATAR_COLORS).toContain(avatarColor(name));
  });

  it('keeps white initials readable on every palette colour (WCAG AA)', () => {
    for (const colour of AVATAR_COLORS) expect(contrastRatio(colour, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('shows a picture when given and falls back to initials if it fails', () => {
    const { container } = render(<Avatar name="Luis Ruiz" src="/storage/avatar.png" />);
    const img = container.querySelector('img') as HTMLImageElement;
    expect(img).toBeInTheDocument();
    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Luis Ruiz' })).toHaveTextContent('LR');
  });

  it('can be decorative when the name is printed next to it', () => {
    const { container } = render(<Avatar name="Luis" decorative />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.firstChild).toHaveAttribute('aria-hidden', 'true');
  });

  it('has no serious accessibility violations', async () => {
    const { container } = render(
      <div>
        <Avatar name="José Pérez" />
        <Avatar />
        <Avatar name="Luis" src="/x.png" />
      </div>,
    );
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});
