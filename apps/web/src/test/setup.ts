import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Screens render behind lazy chunks, queries and modals: give findBy* more room on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// React's duplicate-key warning means two components (say, two modals keyed 'new') share an identity:
// a test that triggers it fails instead of only printing it.
const keyWarnings: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (text.includes('Encountered two children with the same key')) keyWarnings.push(text);
  consoleError(...args);
};

beforeEach(() => {
  keyWarnings.length = 0;
});

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  if (keyWarnings.length > 0) {
    throw new Error(`React warned about children with the same key:\n${keyWarnings.join('\n')}`);
  }
});
