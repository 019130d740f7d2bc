import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { expectNoSeriousA11yViolations, initTestI18n, useTestLayout } from '../../test';
import { Chip } from '../Chip/Chip';
import { foldText } from '../lib/text';
import {
  DataTable,
  type DataTableColumn,
  PAGE_SIZES,
  type PaginationState,
  type SortingState,
} from './DataTable';

interface Client {
  id: number;
  name: string;
  lastNames: string;
  phone: string;
  segment: string | null;
  secret: string;
}

const NAMES = ['José', 'María', 'Ángela', 'Luis', 'Beatriz', 'Óscar', 'Nuria', 'Íñigo', 'Carmen', 'Raúl'];

function makeClients(count: number): Client[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: NAMES[i % NAMES.length],
    lastNames: i % 3 === 0 ? 'Pérez Gómez' : 'Ruiz',
    phone: `52155${String(10000000 + i)}`,
    segment: i % 4 === 0 ? 'VIP' : null,
    secret: `hidden-${i + 1}`,
  }));
}

const columns: DataTableColumn<Client>[] = [
  { id: 'id', header: 'id', accessor: 'id', width: 70 },
  { id: 'name', header: 'Nombre', accessor: (c) => `${c.name} ${c.lastNames}` },
  {
    id: 'segment',
    header: 'Segmento',
    searchValue: (c) => c.segment,
    sortable: false,
    cell: (c) => (c.segment ? <Chip label={c.segment} color="#7300ff" /> : null),
  },
  { id: 'phone', header: 'WhatsApp', accessor: 'phone' },
  { id: 'secret', header: 'Secret', accessor: 'secret', hidden: true },
];

function bodyRows() {
  const table = screen.getByRole('table', { name: 'Clientes' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => row.querySelector('td') && !row.classList.contains('hb-table__spacer'));
}

function firstCellIds() {
  return bodyRows().map((row) => {
    const cells = row.querySelectorAll('td');
    return cells[cells[0].querySelector('input') ? 1 : 0]?.textContent;
  });
}

function Harness() {
  const [filter, setFilter] = useState('');
  const [ids, setIds] = useState<string[]>(['3']);
  const [pagination, setPagination] = useState({ pageIndex: 1, pageSize: 5 });
  return (
    <>
      <output data-testid="state">{JSON.stringify({ filter, ids, pagination })}</output>
      <DataTable
        label="Clientes"
        data={makeClients(20)}
        columns={columns}
        getRowId={(c) => c.id}
        filter={filter}
        onFilterChange={setFilter}
        selectedIds={ids}
        onSelectedIdsChange={setIds}
        pagination={pagination}
        onPaginationChange={setPagination}
      />
    </>
  );
}

beforeEach(() => {
  initTestI18n('es');
});

describe('DataTable', { timeout: 20_000 }, () => {
  it('shows the first 10 rows and "Pag 1 | 3" for 25 rows', () => {
    render(<DataTable label="Clientes" data={makeClients(25)} columns={columns} getRowId={(c) => c.id} />);
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('Pag 1 | 3')).toBeInTheDocument();
    expect(screen.getByText('1–10 de 25 registros')).toBeInTheDocument();
  });

  it('offers page sizes 5, 10, 20, 50, 100 and 500 with 10 selected', async () => {
    const user = userEvent.setup();
    render(<DataTable label="Clientes" data={makeClients(45)} columns={columns} getRowId={(c) => c.id} />);
    const select = screen.getByLabelText('Filas por página') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => Number(o.value))).toEqual([...PAGE_SIZES]);
    expect([...PAGE_SIZES]).toEqual([5, 10, 20, 50, 100, 500]);
    expect(select.value).toBe('10');
    await user.selectOptions(select, '20');
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByText('Pag 1 | 3')).toBeInTheDocument();
    await user.selectOptions(select, '5');
    expect(screen.getByText('Pag 1 | 9')).toBeInTheDocument();
  });

  it('moves with first, previous, next and last, disabling what cannot be used', async () => {
    const user = userEvent.setup();
    render(<DataTable label="Clientes" data={makeClients(25)} columns={columns} getRowId={(c) => c.id} />);
    const first = screen.getByRole('button', { name: 'Primera página' });
    const previous = screen.getByRole('button', { name: 'Página anterior' });
    const next = screen.getByRole('button', { name: 'Página siguiente' });
    const last = screen.getByRole('button', { name: 'Última página' });
    expect(first).toBeDisabled();
    expect(previous).toBeDisabled();
    await user.click(next);
    expect(screen.getByText('Pag 2 | 3')).toBeInTheDocument();
    expect(firstCellIds()[0]).toBe('11');
    await user.click(last);
    expect(screen.getByText('Pag 3 | 3')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(5);
    expect(next).toBeDisabled();
    expect(last).toBeDisabled();
    await user.click(previous);
    expect(screen.getByText('Pag 2 | 3')).toBeInTheDocument();
    await user.click(first);
    expect(screen.getByText('Pag 1 | 3')).toBeInTheDocument();
  });

  it('filters accent- and case-insensitively: "jose" finds "José", "PEREZ" finds "Pérez"', async () => {
    const user = userEvent.setup();
    const data = [
      ...makeClients(3),
      { id: 99, name: 'JOSÉ', lastNames: 'Núñez', phone: '1', segment: null, secret: 's' },
    ];
    render(<DataTable label="Clientes" data={data} columns={columns} getRowId={(c) => c.id} />);
    const box = screen.getByRole('searchbox', { name: 'Filtrar' });
    await user.type(box, 'jose');
    expect(firstCellIds()).toEqual(['1', '99']);
    expect(screen.getByText('1–2 de 2 resultados')).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'PEREZ');
    expect(firstCellIds()).toEqual(['1']);
    await user.clear(box);
    await user.type(box, 'nunez');
    expect(firstCellIds()).toEqual(['99']);
  });

  it('matches every word across the visible columns, including custom cells, but not hidden ones', async () => {
    const user = userEvent.setup();
    render(<DataTable label="Clientes" data={makeClients(30)} columns={columns} getRowId={(c) => c.id} />);
    const box = screen.getByRole('searchbox', { name: 'Filtrar' });
    await user.type(box, 'jose vip');
    // José is every 10th from id 1; VIP every 4th from id 1: ids 1 and 21.
    expect(firstCellIds()).toEqual(['1', '21']);
    await user.clear(box);
    await user.type(box, 'hidden-3');
    expect(screen.getByText('Ningún registro coincide con «hidden-3».')).toBeInTheDocument();
    expect(screen.getByText('Pag 1 | 1')).toBeInTheDocument();
  });

  it('goes back to the first page when the filter changes', async () => {
    const user = userEvent.setup();
    render(<DataTable label="Clientes" data={makeClients(40)} columns={columns} getRowId={(c) => c.id} />);
    await user.click(screen.getByRole('button', { name: 'Última página' }));
    expect(screen.getByText('Pag 4 | 4')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Filtrar' }), 'luis');
    expect(screen.getByText('Pag 1 | 1')).toBeInTheDocument();
    expect(firstCellIds()).toEqual(['4', '14', '24', '34']);
  });

  it('enables delete with one or more selected rows and edit only with exactly one', async () => {
    const user = userEvent.setup();
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    render(
      <DataTable
        label="Clientes"
        data={makeClients(12)}
        columns={columns}
        getRowId={(c) => c.id}
        onEdit={onEdit}
        onDelete={onDelete}
      />,
    );
    const edit = screen.getByRole('button', { name: 'Editar' });
    const remove = screen.getByRole('button', { name: 'Eliminar' });
    expect(edit).toBeDisabled();
    expect(remove).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' }));
    expect(edit).toBeEnabled();
    expect(remove).toBeEnabled();
    await user.click(edit);
    expect(onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }), expect.any(Object));

    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 5' }));
    expect(edit).toBeDisabled();
    expect(remove).toBeEnabled();
    expect(screen.getByText('2 seleccionados')).toBeInTheDocument();
    await user.click(remove);
    expect(onDelete.mock.calls[0][0].map((c: Client) => c.id)).toEqual([2, 5]);

    await user.click(screen.getByRole('button', { name: 'Quitar selección' }));
    expect(edit).toBeDisabled();
    expect(remove).toBeDisabled();
  });

  it('select-all selects every row of the current page only, and reports the rows', async () => {
    const user = userEvent.setup();
    const onSelectionChange = vi.fn();
    render(
      <DataTable
        label="Clientes"
        data={makeClients(25)}
        columns={columns}
        getRowId={(c) => c.id}
        onSelectionChange={onSelectionChange}
      />,
    );
    const all = screen.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' });
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 3' }));
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    expect(onSelectionChange).toHaveBeenLastCalledWith([expect.objectContaining({ id: 3 })]);
    await user.click(all);
    expect(all).toBeChecked();
    const selected = onSelectionChange.mock.lastCall?.[0] as Client[];
    expect(selected.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    expect(
      screen.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' }),
    ).not.toBeChecked();
    await user.click(all);
    expect(onSelectionChange.mock.lastCall?.[0]).toHaveLength(20);
  });

  it('selects a run of rows with shift+click', async () => {
    const user = userEvent.setup();
    const onSelectionChange = vi.fn();
    render(
      <DataTable
        label="Clientes"
        data={makeClients(12)}
        columns={columns}
        getRowId={(c) => c.id}
        onSelectionChange={onSelectionChange}
      />,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 6' }));
    await user.keyboard('{/Shift}');
    expect(onSelectionChange.mock.lastCall?.[0].map((c: Client) => c.id)).toEqual([2, 3, 4, 5, 6]);
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 4' }));
    await user.keyboard('{/Shift}');
    expect(onSelectionChange.mock.lastCall?.[0].map((c: Client) => c.id)).toEqual([2, 3]);
  });

  it('Escape in the search box clears it; the empty state hides while loading', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <DataTable label="Clientes" data={makeClients(12)} columns={columns} getRowId={(c) => c.id} />,
    );
    const box = screen.getByRole('searchbox', { name: 'Filtrar' });
    await user.type(box, 'zzz');
    expect(screen.getByText('Ningún registro coincide con «zzz».')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(screen.getByText('Pag 1 | 2')).toBeInTheDocument();
    rerender(<DataTable label="Clientes" data={[]} columns={columns} getRowId={(c) => c.id} loading />);
    expect(screen.queryByText('No hay registros para mostrar.')).toBeNull();
  });

  it('sorts by a column, toggling ascending and descending with an indicator', async () => {
    const user = userEvent.setup();
    const data = [
      { id: 1, name: 'Óscar', lastNames: '', phone: '3', segment: null, secret: '' },
      { id: 2, name: 'álvaro', lastNames: '', phone: '10', segment: null, secret: '' },
      { id: 3, name: 'Beatriz', lastNames: '', phone: '2', segment: null, secret: '' },
      { id: 4, name: 'Alberto', lastNames: '', phone: '1', segment: null, secret: '' },
    ];
    render(<DataTable label="Clientes" data={data} columns={columns} getRowId={(c) => c.id} />);
    const header = screen.getByRole('columnheader', { name: /Nombre/ });
    expect(header).not.toHaveAttribute('aria-sort');
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(firstCellIds()).toEqual(['4', '2', '3', '1']);
    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(firstCellIds()).toEqual(['1', '3', '2', '4']);

    // Numbers kept as text still sort numerically.
    const phone = screen.getByRole('columnheader', { name: /WhatsApp/ });
    await user.click(within(phone).getByRole('button'));
    expect(firstCellIds()).toEqual(['4', '3', '1', '2']);
    expect(header).not.toHaveAttribute('aria-sort');
    // Columns marked not sortable have no button.
    expect(within(screen.getByRole('columnheader', { name: 'Segmento' })).queryByRole('button')).toBeNull();
  });

  it('shows the empty state, renders custom cells and applies the minimum width', () => {
    const { rerender } = render(
      <DataTable label="Clientes" data={[]} columns={columns} getRowId={(c) => c.id} minWidth={1200} />,
    );
    expect(screen.getByText('No hay registros para mostrar.')).toBeInTheDocument();
    expect(screen.getByText('Pag 1 | 1')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Clientes' })).toHaveStyle({ minWidth: '1200px' });
    rerender(
      <DataTable
        label="Clientes"
        data={makeClients(1)}
        columns={columns}
        getRowId={(c) => c.id}
        rowActions={(c) => <button type="button">Ir al Chat {c.id}</button>}
      />,
    );
    expect(screen.getByText('VIP')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ir al Chat 1' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Acciones' })).toBeInTheDocument();
  });

  it('drops deleted rows from the selection when the data changes', async () => {
    const user = userEvent.setup();
    const onSelectionChange = vi.fn();
    const data = makeClients(5);
    const { rerender } = render(
      <DataTable
        label="Clientes"
        data={data}
        columns={columns}
        getRowId={(c) => c.id}
        onDelete={() => {}}
        onSelectionChange={onSelectionChange}
      />,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' }));
    rerender(
      <DataTable
        label="Clientes"
        data={data.slice(1)}
        columns={columns}
        getRowId={(c) => c.id}
        onDelete={() => {}}
        onSelectionChange={onSelectionChange}
      />,
    );
    expect(onSelectionChange.mock.lastCall?.[0].map((c: Client) => c.id)).toEqual([2]);
    expect(screen.getByText('1 seleccionado')).toBeInTheDocument();
  });

  it('works fully controlled (filter, selection, pagination)', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByText('Pag 2 | 4')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 6' }));
    await user.type(screen.getByRole('searchbox'), 'maria');
    const state = JSON.parse(screen.getByTestId('state').textContent ?? '{}');
    expect(state).toEqual({ filter: 'maria', ids: ['3', '6'], pagination: { pageIndex: 0, pageSize: 5 } });
  });

  it('speaks English with the en catalogue', () => {
    initTestI18n('en');
    render(<DataTable label="Clients" data={makeClients(25)} columns={columns} getRowId={(c) => c.id} />);
    expect(screen.getByText('Page 1 | 3')).toBeInTheDocument();
    expect(screen.getByLabelText('Rows per page')).toBeInTheDocument();
  });

  it('shows the loading overlay', () => {
    render(<DataTable label="Clientes" data={[]} columns={columns} getRowId={(c) => c.id} loading />);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Cargando...');
  });

  it('has no serious accessibility violations', async () => {
    const user = userEvent.setup();
    const { container } = render(
      <DataTable
        label="Clientes"
        data={makeClients(12)}
        columns={columns}
        getRowId={(c) => c.id}
        onEdit={() => {}}
        onDelete={() => {}}
        rowActions={() => <button type="button">Ir al Chat</button>}
      />,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 1' }));
    await act(async () => {
      await expectNoSeriousA11yViolations(container);
    });
  });
});

/** A stand-in for the server: filters (case and accents ignored), sorts and pages 10,000 rows. */
const ALL = makeClients(10_000);
function serverPage(filter: string, sorting: SortingState, pagination: PaginationState) {
  const term = foldText(filter.trim());
  let rows = term ? ALL.filter((c) => foldText(`${c.name} ${c.lastNames}`).includes(term)) : ALL;
  const sort = sorting[0];
  if (sort) {
    const key = (c: Client) => (sort.id === 'name' ? foldText(c.name) : c.id);
    rows = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
      return sort.desc ? -order : order;
    });
  }
  const start = pagination.pageIndex * pagination.pageSize;
  return { rows: rows.slice(start, start + pagination.pageSize), total: rows.length };
}

interface ServerCalls {
  filters: string[];
  sortings: SortingState[];
  paginations: PaginationState[];
  deleted: number[][];
}

function ServerHarness({ calls, debounceMs = 200 }: { calls: ServerCalls; debounceMs?: number }) {
  const [filter, setFilter] = useState('');
  const [sorting, setSorting] = useState<SortingState>([]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const page = serverPage(filter, sorting, pagination);
  return (
    <DataTable
      mode="server"
      label="Clientes"
      data={page.rows}
      rowCount={page.total}
      columns={columns}
      getRowId={(c) => c.id}
      filterDebounceMs={debounceMs}
      filter={filter}
      onFilterChange={(value) => {
        calls.filters.push(value);
        setFilter(value);
      }}
      sorting={sorting}
      onSortingChange={(value) => {
        calls.sortings.push(value);
        setSorting(value);
      }}
      pagination={pagination}
      onPaginationChange={(value) => {
        calls.paginations.push(value);
        setPagination(value);
      }}
      onEdit={() => {}}
      onDelete={(rows) => calls.deleted.push(rows.map((c) => c.id))}
      rowActions={(c) => <button type="button">Ir al Chat {c.id}</button>}
      rowActionsWidth={120}
    />
  );
}

function newCalls(): ServerCalls {
  return { filters: [], sortings: [], paginations: [], deleted: [] };
}

describe('DataTable in server mode', { timeout: 20_000 }, () => {
  it("shows the page it is given with the server's row count and reports paging", async () => {
    const user = userEvent.setup();
    const calls = newCalls();
    render(<ServerHarness calls={calls} />);
    expect(screen.getByText('Pag 1 | 1000')).toBeInTheDocument();
    expect(screen.getByText('1–10 de 10,000 registros')).toBeInTheDocument();
    expect(firstCellIds()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    expect(calls.paginations.at(-1)).toEqual({ pageIndex: 1, pageSize: 10 });
    expect(screen.getByText('Pag 2 | 1000')).toBeInTheDocument();
    expect(firstCellIds()[0]).toBe('11');
    await user.click(screen.getByRole('button', { name: 'Última página' }));
    expect(calls.paginations.at(-1)).toEqual({ pageIndex: 999, pageSize: 10 });
    expect(firstCellIds()).toEqual([
      '9991',
      '9992',
      '9993',
      '9994',
      '9995',
      '9996',
      '9997',
      '9998',
      '9999',
      '10000',
    ]);
    await user.selectOptions(screen.getByLabelText('Filas por página'), '50');
    expect(calls.paginations.at(-1)).toEqual({ pageIndex: 0, pageSize: 50 });
    expect(screen.getByText('Pag 1 | 200')).toBeInTheDocument();
  });

  it('reports the filter once typing pauses, and goes back to the first page', async () => {
    const user = userEvent.setup();
    const calls = newCalls();
    render(<ServerHarness calls={calls} debounceMs={1000} />);
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    const box = screen.getByRole('searchbox', { name: 'Filtrar' });
    await user.type(box, 'jose');
    // Typed faster than the debounce: nothing reported yet, the box already shows the text.
    expect(calls.filters).toEqual([]);
    expect(box).toHaveValue('jose');
    await waitFor(() => expect(calls.filters).toEqual(['jose']), { timeout: 4000 });
    expect(calls.paginations.at(-1)).toEqual({ pageIndex: 0, pageSize: 10 });
    expect(screen.getByText('1–10 de 1,000 resultados')).toBeInTheDocument();
    expect(firstCellIds()).toEqual(['1', '11', '21', '31', '41', '51', '61', '71', '81', '91']);
    // Escape clears at once, without waiting.
    await user.keyboard('{Escape}');
    expect(calls.filters).toEqual(['jose', '']);
    expect(screen.getByText('Pag 1 | 1000')).toBeInTheDocument();
  });

  it('reports sorting without sorting the page itself; sort buttons are named', async () => {
    const user = userEvent.setup();
    const calls = newCalls();
    render(<ServerHarness calls={calls} />);
    const sortByName = screen.getByRole('button', { name: 'Ordenar por Nombre' });
    await user.click(sortByName);
    expect(calls.sortings).toEqual([[{ id: 'name', desc: false }]]);
    expect(screen.getByRole('columnheader', { name: /Nombre/ })).toHaveAttribute('aria-sort', 'ascending');
    // The server's order: Ángela (ids 3, 13, ...) first, ties by id.
    expect(firstCellIds().slice(0, 3)).toEqual(['3', '13', '23']);
    await user.click(sortByName);
    expect(calls.sortings.at(-1)).toEqual([{ id: 'name', desc: true }]);
    expect(firstCellIds()[0]).toBe('10000');
    expect(screen.getByRole('button', { name: 'Ordenar por id' })).toBeInTheDocument();
    expect(within(screen.getByRole('columnheader', { name: 'Segmento' })).queryByRole('button')).toBeNull();
  });

  it('keeps the selection by id across pages and hands every selected row to delete', async () => {
    const user = userEvent.setup();
    const calls = newCalls();
    render(<ServerHarness calls={calls} />);
    const edit = screen.getByRole('button', { name: 'Editar' });
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' }));
    expect(edit).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    expect(screen.getByText('1 seleccionado')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 15' }));
    expect(screen.getByText('2 seleccionados')).toBeInTheDocument();
    expect(edit).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Página anterior' }));
    expect(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(calls.deleted).toEqual([[2, 15]]);
  });

  it('pins the actions column to the right edge', () => {
    render(<ServerHarness calls={newCalls()} />);
    const actions = screen.getByRole('columnheader', { name: 'Acciones' });
    expect(actions).toHaveClass('hb-table__sticky', 'hb-table__sticky--edge');
    expect(actions).toHaveStyle({ right: '0px' });
    const cell = screen.getByRole('button', { name: 'Ir al Chat 1' }).closest('td');
    expect(cell).toHaveClass('hb-table__sticky');
    expect(screen.getByRole('columnheader', { name: /Nombre/ })).not.toHaveClass('hb-table__sticky');
  });

  it('pins sticky columns just before the actions, each offset by the widths to its right', () => {
    render(
      <DataTable
        label="Clientes"
        data={makeClients(3)}
        columns={[...columns.slice(0, 3), { ...columns[3], sticky: true, width: 150 }]}
        getRowId={(c) => c.id}
        rowActions={(c) => <button type="button">Editar {c.id}</button>}
        rowActionsWidth={104}
      />,
    );
    const phone = screen.getByRole('columnheader', { name: /WhatsApp/ });
    const actions = screen.getByRole('columnheader', { name: 'Acciones' });
    expect(actions).toHaveClass('hb-table__sticky');
    expect(actions).not.toHaveClass('hb-table__sticky--edge');
    expect(phone).toHaveClass('hb-table__sticky', 'hb-table__sticky--edge');
    expect(phone.style.right).toBe('var(--hb-col-actions-width, 104px)');
    expect(screen.getByRole('columnheader', { name: 'Segmento' })).not.toHaveClass('hb-table__sticky');
  });
});

describe('DataTable with a virtualised body', { timeout: 20_000 }, () => {
  // A viewport the virtualiser can measure (480px, 48px rows): jsdom alone measures 0 and would
  // render no row at all, so "fewer than 100 rows" would hold for a broken table too.
  useTestLayout({ rowHeight: 48 });

  it('renders the rows in view of a 500-row page, later ones on scroll, and keeps the row count', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        label="Clientes"
        data={makeClients(10_000)}
        columns={columns}
        getRowId={(c) => c.id}
        onDelete={() => {}}
        virtualHeight={480}
      />,
    );
    await user.selectOptions(screen.getByLabelText('Filas por página'), '500');
    expect(screen.getByText('Pag 1 | 20')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Clientes' });
    expect(table).toHaveAttribute('aria-rowcount', '501');
    // The first rows are there: not none, and far from all 500.
    expect(firstCellIds().slice(0, 3)).toEqual(['1', '2', '3']);
    expect(bodyRows().length).toBeGreaterThan(5);
    expect(bodyRows().length).toBeLessThan(100);

    const scroller = screen.getByTestId('table-scroll');
    act(() => {
      scroller.scrollTop = 300 * 48;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(firstCellIds()).toContain('301'));
    expect(firstCellIds()).not.toContain('1');
    expect(bodyRows().length).toBeLessThan(100);
    // Rows above and below the window are stood in for by spacers of the right height.
    const spacers = table.querySelectorAll<HTMLElement>('tr.hb-table__spacer td');
    expect(Number.parseInt(spacers[0].style.height, 10)).toBeGreaterThan(200 * 48);

    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' }));
    expect(screen.getByText('500 seleccionados')).toBeInTheDocument();
  });
});

describe('DataTable on a phone (rows as cards)', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 640px)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    return () => vi.unstubAllGlobals();
  });

  const phoneColumns: DataTableColumn<Client>[] = [
    columns[0],
    columns[1],
    columns[2],
    { ...columns[3], primary: true },
    columns[4],
  ];

  function renderPhone(extra: { cards?: boolean } = {}) {
    return render(
      <DataTable
        label="Clientes"
        data={makeClients(3)}
        columns={phoneColumns}
        getRowId={(c) => c.id}
        onDelete={() => {}}
        minWidth={1200}
        rowActions={(c) => <button type="button">Chat {c.id}</button>}
        {...extra}
      />,
    );
  }

  it('labels every cell with its header, puts the primary columns first and pins nothing', async () => {
    const { container } = renderPhone();
    expect(container.querySelector('.hb-table')).toHaveClass('hb-table--cards');
    const table = screen.getByRole('table', { name: 'Clientes' });
    // No minimum width: a card is as wide as the screen.
    expect(table.style.minWidth).toBe('');
    const [first] = bodyRows();
    const cells = within(first).getAllByRole('cell');
    const labels = cells.map((cell) => cell.querySelector('.hb-table__cell-label')?.textContent ?? null);
    // The select box, then WhatsApp (primary) ahead of the others, then the actions.
    expect(labels).toEqual([null, 'WhatsApp', 'id', 'Nombre', 'Segmento', null]);
    expect(cells[1]).toHaveTextContent('5215510000000');
    expect(cells.at(-1)).toHaveAttribute('data-column', 'actions');
    expect(table.querySelectorAll('.hb-table__sticky')).toHaveLength(0);
    // The header row keeps its sort buttons, and the cells their headers for assistive technology.
    expect(screen.getByRole('button', { name: /Nombre/ })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader')).toHaveLength(6);
    await expectNoSeriousA11yViolations(container);
  });

  it('stays a table where the screen turns cards off', () => {
    const { container } = renderPhone({ cards: false });
    expect(container.querySelector('.hb-table')).not.toHaveClass('hb-table--cards');
    expect(screen.getByRole('table', { name: 'Clientes' }).style.minWidth).toBe('1200px');
    expect(container.querySelector('.hb-table__cell-label')).toBeNull();
  });

  it('gives a plain-text cell its full text as a tooltip', () => {
    renderPhone();
    const name = screen.getAllByText('José Pérez Gómez')[0];
    expect(name).toHaveAttribute('title', 'José Pérez Gómez');
  });
});
