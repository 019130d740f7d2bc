import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query-client';

/**
 * TanStack Query for the signed-in areas. It wraps the area layouts rather than the app root so the
 * query library stays out of the public sign-in bundle (the /login budget is 150 KB gzip).
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
