import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api-client';
import { getSession, subscribeSession } from '../lib/session';

/** A 4xx will answer the same way again; only network failures and 5xx are worth a retry. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

// Whatever ends a session (logout, a 401) also drops every cached answer of that user.
subscribeSession(() => {
  if (!getSession()) queryClient.clear();
});
