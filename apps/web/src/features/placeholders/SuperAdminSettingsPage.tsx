import { PlaceholderScreen } from './PlaceholderScreen';

/** Placeholder until the real screen replaces this route's import. */
export default function SuperAdminSettingsPage() {
  return <PlaceholderScreen titleKey="settings" />;
}
