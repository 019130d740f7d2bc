import { describe, expect, it } from 'vitest';
import { fillPlaceholders, parameterProblems, placeholdersOf } from './template-parameters';

describe('template placeholders', () => {
  it('finds each numbered placeholder once, in order', () => {
    expect(placeholdersOf('Hola {{2}}, {{1}} y {{ 2 }}')).toEqual([1, 2]);
    expect(placeholdersOf('Sin marcadores {nombre} {{}}')).toEqual([]);
    expect(placeholdersOf(null)).toEqual([]);
  });

  it('reports missing, blank, unsendable and extra values', () => {
    expect(parameterProblems([1, 2], { '1': 'Ana', '2': 'x' })).toEqual([]);
    expect(parameterProblems([1, 2, 3], { '2': ' ', '3': 'a\tb', '10': 'x', '4': 'y' })).toEqual([
      { n: '1', problem: 'missing' },
      { n: '2', problem: 'empty' },
      { n: '3', problem: 'format' },
      { n: '4', problem: 'extra' },
      { n: '10', problem: 'extra' },
    ]);
    expect(parameterProblems([1], { '1': 'a     b' })).toEqual([{ n: '1', problem: 'format' }]);
    expect(parameterProblems([1], { '1': 'a    b' })).toEqual([]);
  });

  it('fills the text the customer reads', () => {
    expect(fillPlaceholders('Hola {{1}}, pedido {{ 2 }} ({{1}})', { '1': 'Ana', '2': '7' })).toBe(
      'Hola Ana, pedido 7 (Ana)',
    );
  });
});
