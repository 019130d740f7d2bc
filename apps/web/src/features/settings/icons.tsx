import { Copy, Key, Plug } from 'lucide-react';
import { icon } from '../../components/lib/icons';

export const CopyIcon = icon(Copy);
export const KeyIcon = icon(Key);
export const PlugIcon = icon(Plug);
export { CheckIcon } from '../../components/lib/icons';
