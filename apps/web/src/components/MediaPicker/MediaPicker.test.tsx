import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaItem } from '@hablabot/contract';
import { expectNoSeriousA11yViolations, initTestI18n, makeMedia } from '../../test';
import { formatBytes, mediaSrc } from './media';
import { MediaPicker } from './MediaPicker';

beforeEach(() => {
  initTestI18n('es');
});

/** The picker with the selection kept the way a screen keeps it. */
function Harness({ onSelect }: { onSelect: (item: MediaItem) => void }) {
  const [selected, setSelected] = useState<number | null>(null);
  return (
    <MediaPicker
      items={items}
      selectedId={selected}
      onSelect={(item) => {
        onSelect(item);
        setSelected(item.id);
      }}
    />
  );
}

const items: MediaItem[] = [
  makeMedia({ id: 3, file_name: 'promo.png', kind: 'image', size: 1_500_000 }),
  makeMedia({ id: 2, file_name: 'catálogo.pdf', kind: 'document', mime_type: 'application/pdf', size: 900 }),
  makeMedia({
    id: 1,
    file_name: 'bienvenida.mp4',
    kind: 'video',
    mime_type: 'video/mp4',
    size: 10 * 1024 * 1024,
  }),
];

describe('MediaPicker', { timeout: 20_000 }, () => {
  it("says 'No hay archivos disponibles' when the library is empty", () => {
    render(<MediaPicker items={[]} onSelect={() => {}} />);
    expect(screen.getByText('No hay archivos disponibles')).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists images as thumbnails and other files as an icon with their name', () => {
    render(<MediaPicker items={items} onSelect={() => {}} />);
    const list = screen.getByRole('list', { name: 'Biblioteca de medios' });
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Elegir promo.png',
      'Elegir catálogo.pdf',
      'Elegir bienvenida.mp4',
    ]);
    const thumb = buttons[0].querySelector('img');
    expect(thumb).toHaveAttribute('src', `/storage/${items[0].file_path}`);
    expect(buttons[1].querySelector('img')).toBeNull();
    expect(buttons[1].querySelector('svg')).not.toBeNull();
    expect(buttons[1]).toHaveTextContent('catálogo.pdf');
    expect(buttons[1]).toHaveTextContent('Documento · 900 B');
    expect(buttons[0]).toHaveTextContent('Imagen · 1.4 MB');
  });

  it('hands back the chosen item, by click or keyboard, and marks the selection', async () => {
    const user = userEvent.setup();
    const chosen: MediaItem[] = [];
    render(<Harness onSelect={(item) => chosen.push(item)} />);
    await user.click(screen.getByRole('button', { name: 'Elegir catálogo.pdf' }));
    expect(chosen).toEqual([items[1]]);
    expect(screen.getByRole('button', { name: 'Elegir catálogo.pdf' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Elegir promo.png' })).toHaveAttribute('aria-pressed', 'false');
    screen.getByRole('button', { name: 'Elegir bienvenida.mp4' }).focus();
    await user.keyboard('{Enter}');
    expect(chosen.at(-1)).toEqual(items[2]);
  });

  it('offers only the kinds asked for; nothing of them is as empty as an empty library', () => {
    const { rerender } = render(<MediaPicker items={items} kinds={['image']} onSelect={() => {}} />);
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Elegir promo.png',
    ]);
    rerender(<MediaPicker items={items.slice(1)} kinds={['image']} onSelect={() => {}} />);
    expect(screen.getByText('No hay archivos disponibles')).toBeInTheDocument();
  });

  it('searches through the caller, loads more on demand, and shows loading and errors', async () => {
    const user = userEvent.setup();
    const onSearchChange = vi.fn();
    const onLoadMore = vi.fn();
    const { rerender } = render(
      <MediaPicker items={[]} loading onSelect={() => {}} search="" onSearchChange={onSearchChange} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    await user.type(screen.getByPlaceholderText('Buscar por nombre...'), 'p');
    expect(onSearchChange).toHaveBeenCalledWith('p');
    rerender(<MediaPicker items={items} onSelect={() => {}} hasMore onLoadMore={onLoadMore} />);
    await user.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(onLoadMore).toHaveBeenCalledOnce();
    rerender(
      <MediaPicker items={items} onSelect={() => {}} error="Error al cargar los archivos multimedia" />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Error al cargar los archivos multimedia');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('speaks English, and has no serious accessibility problems', async () => {
    initTestI18n('en');
    const { container, rerender } = render(
      <MediaPicker items={items} onSelect={() => {}} search="" onSearchChange={() => {}} />,
    );
    expect(screen.getByRole('list', { name: 'Media library' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose promo.png' })).toHaveTextContent('Image · 1.4 MB');
    await expectNoSeriousA11yViolations(container);
    rerender(<MediaPicker items={[]} onSelect={() => {}} />);
    expect(screen.getByText('No files available')).toBeInTheDocument();
  });

  it('formats sizes and paths', () => {
    expect(formatBytes(0, 'es')).toBe('0 B');
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1536, 'es')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024, 'es')).toBe('5 MB');
    expect(formatBytes(100 * 1024 * 1024, 'en')).toBe('100 MB');
    expect(mediaSrc({ file_path: 'media/ab/x.png' })).toBe('/storage/media/ab/x.png');
  });
});
