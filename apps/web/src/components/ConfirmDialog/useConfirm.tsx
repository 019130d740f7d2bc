import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { ConfirmDialog, type ConfirmOptions } from './ConfirmDialog';

export type ConfirmFn = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<ConfirmFn | null>(null);

interface Pending {
  options: ConfirmOptions;
  resolve: (confirmed: boolean) => void;
}

/**
 * Hosts the one confirmation dialog of the app; mount it once near the root (inside the i18n provider).
 * Where no provider is mounted, `useConfirmDialog` gives the same promise API with a local dialog.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [confirm, dialog] = useConfirmState();
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {dialog}
    </ConfirmContext.Provider>
  );
}

function useConfirmState(): [ConfirmFn, ReactNode] {
  const queue = useRef<Pending[]>([]);
  const [current, setCurrent] = useState<Pending | null>(null);

  const confirm = useCallback<ConfirmFn>(
    (options) =>
      new Promise<boolean>((resolve) => {
        const pending = { options, resolve };
        setCurrent((active) => {
          if (active) {
            queue.current.push(pending);
            return active;
          }
          return pending;
        });
      }),
    [],
  );

  const settle = (confirmed: boolean) => {
    current?.resolve(confirmed);
    setCurrent(queue.current.shift() ?? null);
  };

  const dialog = current ? (
    <ConfirmDialog open {...current.options} onConfirm={() => settle(true)} onCancel={() => settle(false)} />
  ) : null;
  return [confirm, dialog];
}

/**
 * `const confirm = useConfirm(); if (await confirm({ message })) { ...delete... }`
 * Resolves true on confirm, false on cancel/Escape.
 */
export function useConfirm(): ConfirmFn {
  const fromProvider = useContext(ConfirmContext);
  if (!fromProvider) {
    throw new Error('useConfirm needs <ConfirmProvider> above it (apps/web/src/app/providers.tsx).');
  }
  return fromProvider;
}

/**
 * For screens outside the provider (tests, isolated pages): returns the confirm function plus the
 * element to render. `const [confirm, confirmDialog] = useConfirmDialog(); … return <>{…}{confirmDialog}</>`.
 */
export function useConfirmDialog(): [ConfirmFn, ReactNode] {
  const [confirm, dialog] = useConfirmState();
  return useMemo(() => [confirm, dialog], [confirm, dialog]);
}
