import { describe, expect, it } from 'vitest';
import { queryTerms } from '../lib/text';
import { buildSearchIndex, filterIndices, sortIndices, toSortKey } from './pipeline';

describe('table pipeline', () => {
  it('filters by every folded term', () => {
    const rows = ['José Pérez', 'Ángela Núñez', 'JOSE NUÑEZ'];
    const index = buildSearchIndex(rows, [(r) => r.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()]);
    expect(filterIndices(index, queryTerms('jose'))).toEqual([0, 2]);
    expect(filterIndices(index, queryTerms('NUÑEZ jose'))).toEqual([2]);
  });

  it('sorts text ignoring case and accents, numbers and numeric text numerically, empties last', () => {
    const values = ['Óscar', 'álvaro', null, 'Beatriz', '', 'Alberto'];
    const keys = values.map(toSortKey);
    const order = (desc: boolean) => sortIndices([0, 1, 2, 3, 4, 5], keys, desc).map((i) => values[i]);
    expect(order(false)).toEqual(['Alberto', 'álvaro', 'Beatriz', 'Óscar', null, '']);
    expect(order(true)).toEqual(['Óscar', 'Beatriz', 'álvaro', 'Alberto', null, '']);
    const phones = ['10', '9', '5215512345678', '100'].map(toSortKey);
    expect(sortIndices([0, 1, 2, 3], phones, false)).toEqual([1, 0, 3, 2]);
  });

  it('orders digit runs naturally inside text and dates by time', () => {
    const names = ['Cliente 10', 'Cliente 9', 'cliente 100'];
    expect(sortIndices([0, 1, 2], names.map(toSortKey), false).map((i) => names[i])).toEqual([
      'Cliente 9',
      'Cliente 10',
      'cliente 100',
    ]);
    const dates = [new Date('2025-03-01'), new Date('2024-12-31')].map(toSortKey);
    expect(sortIndices([0, 1], dates, false)).toEqual([1, 0]);
  });
});
