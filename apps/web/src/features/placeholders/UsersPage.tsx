import { PlaceholderScreen } from './PlaceholderScreen';

/** Placeholder until the screen's own issue replaces this route's import. */
export default function UsersPage() {
  return <PlaceholderScreen titleKey="users" />;
}
