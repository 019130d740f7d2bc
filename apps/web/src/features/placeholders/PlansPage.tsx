import { PlaceholderScreen } from './PlaceholderScreen';

/** Placeholder until the real screen replaces this route's import. */
export default function PlansPage() {
  return <PlaceholderScreen titleKey="plans" />;
}
