// Warms the chunks of a role's landing while the sign-in message shows (SPEC.md's 1 s pause), so the
// area opens at once. The router's lazy routes import the same modules, which are then cached.
const LANDING_CHUNKS: Record<string, () => Promise<unknown>[]> = {
  super_admin: () => [
    import('../layouts/SuperAdminLayout'),
    import('../features/super-admin/SuperAdminDashboardPage'),
  ],
  admin: () => [import('../layouts/AdminLayout'), import('../features/home/AdminHomePage')],
  client: () => [import('../layouts/ClientLayout'), import('../features/client/ClientHomePage')],
};

export function prefetchLanding(rol: string | null | undefined): void {
  const load = rol && Object.hasOwn(LANDING_CHUNKS, rol) ? LANDING_CHUNKS[rol] : null;
  if (!load) return;
  for (const chunk of load()) chunk.catch(() => {});
}
