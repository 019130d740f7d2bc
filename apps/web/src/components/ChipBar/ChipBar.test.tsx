import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations } from '../../test';
import { Chip } from '../Chip/Chip';
import { ChipBar } from './ChipBar';

describe('ChipBar', () => {
  it('is a section named by its heading, with a list item per chip and the add button last', async () => {
    const onAdd = vi.fn();
    const { container } = render(
      <ChipBar headingId="bar-heading" heading="Segmentos" addLabel="Agregar segmento" onAdd={onAdd}>
        <Chip label="Nuevos" color="#1565c0" />
        <Chip label="Mayoristas" color="#ef6c00" />
      </ChipBar>,
    );
    const section = screen.getByRole('region', { name: 'Segmentos' });
    const items = section.querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual(['Nuevos', 'Mayoristas', 'Agregar segmento']);
    await userEvent.click(screen.getByRole('button', { name: 'Agregar segmento' }));
    expect(onAdd).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Aún no hay segmentos')).not.toBeInTheDocument();
    await expectNoSeriousA11yViolations(container);
  });

  it('shows the empty text when given', () => {
    render(
      <ChipBar
        headingId="bar-heading"
        heading="Listas"
        addLabel="Crear lista"
        onAdd={() => {}}
        emptyText="Aún no hay listas"
      />,
    );
    expect(screen.getByText('Aún no hay listas')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Listas' }).querySelectorAll('li')).toHaveLength(1);
  });
});
