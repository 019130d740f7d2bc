import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18next } from '../lib/i18n';

/** App-wide context: translations. (TanStack Query is provided by the signed-in layouts; see query-provider.) */
export function Providers({ children }: { children: ReactNode }) {
  return <I18nextProvider i18n={i18next}>{children}</I18nextProvider>;
}
