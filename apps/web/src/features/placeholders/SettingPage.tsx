import { PlaceholderScreen } from './PlaceholderScreen';

/** Placeholder until the screen's own issue replaces this route's import. */
export default function SettingPage() {
  return <PlaceholderScreen titleKey="setting" />;
}
