import { PlaceholderScreen } from './PlaceholderScreen';

/** Placeholder until the real screen replaces this route's import. */
export default function AnalyticsPage() {
  return <PlaceholderScreen titleKey="analytics" />;
}
