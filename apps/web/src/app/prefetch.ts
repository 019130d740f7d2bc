import { type BuiltinRoleName, isBuiltinRoleName } from '@hablabot/contract';
import { loadFeatureTexts } from '../lib/i18n';

// Warms the chunks and texts of a role's landing while the sign-in message shows (the 1 s pause before
// leaving), so the area opens at once. The router's lazy routes import the same modules, then cached.
const LANDING_CHUNKS: Record<BuiltinRoleName, () => Promise<unknown>[]> = {
  super_admin: () => [
    import('../layouts/SuperAdminLayout'),
    import('../features/super-admin/SuperAdminDashboardPage'),
    loadFeatureTexts('super-admin'),
  ],
  admin: () => [
    import('../layouts/AdminLayout'),
    import('../features/home/AdminHomePage'),
    loadFeatureTexts('home'),
  ],
  agent: () => [
    import('../layouts/AdminLayout'),
    import('../features/chat/ChatPage'),
    loadFeatureTexts('chat'),
  ],
  client: () => [
    import('../layouts/ClientAreaLayout'),
    import('../features/client-area/ClientAreaHomePage'),
    loadFeatureTexts('client-area'),
  ],
};

export function prefetchLanding(rol: string | null | undefined): void {
  if (!isBuiltinRoleName(rol)) return;
  for (const chunk of LANDING_CHUNKS[rol]()) chunk.catch(() => {});
}
