import type { SecretState } from '@hablabot/contract';
import { type ReactNode, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button, FormField } from '../../components';
import { EyeIcon, EyeOffIcon } from '../../components/lib/icons';

export interface SecretFieldProps {
  id: string;
  label: string;
  /** What the server says is stored. */
  state: SecretState;
  registration: UseFormRegisterReturn;
  /** The admin asked to remove the stored value on the next save. */
  clearing: boolean;
  onToggleClear: () => void;
  /** Shows the typed value (a generated secret must be seen to be copied). */
  reveal?: boolean;
  onRevealChange?: (reveal: boolean) => void;
  error?: string;
  /** A note under the field that replaces the stored-state hint (after a generate, say). */
  note?: string;
  /** Buttons after the field (generate, copy). */
  actions?: ReactNode;
}

/**
 * A secret the server never sends back. Empty keeps the stored value; typing replaces it; 'Borrar' asks
 * to remove it on the next save ('Deshacer' takes that back). The hint says whether one is stored and
 * how it ends.
 */
export function SecretField({
  id,
  label,
  state,
  registration,
  clearing,
  onToggleClear,
  reveal: revealProp,
  onRevealChange,
  error,
  note,
  actions,
}: SecretFieldProps) {
  const { t } = useTranslation();
  const [revealOwn, setRevealOwn] = useState(false);
  const reveal = revealProp ?? revealOwn;
  const setReveal = onRevealChange ?? setRevealOwn;

  const hint = clearing
    ? t('settings.secret.willClear')
    : (note ??
      (state.stored
        ? state.last4
          ? t('settings.secret.stored', { last4: state.last4 })
          : t('settings.secret.storedNoEnding')
        : t('settings.secret.notStored')));

  return (
    <div className="settings-field">
      <FormField
        id={id}
        label={label}
        hint={hint}
        error={error}
        trailing={
          <button
            type="button"
            className="hb-icon-btn settings-reveal"
            onClick={() => setReveal(!reveal)}
            aria-label={reveal ? t('settings.secret.hide') : t('settings.secret.show')}
            aria-pressed={reveal}
            aria-controls={id}
            disabled={clearing}
          >
            {reveal ? <EyeOffIcon size={16} /> : <EyeIcon size={16} />}
          </button>
        }
      >
        {(control) => (
          <input
            {...control}
            className="hb-input settings-mono"
            type={reveal ? 'text' : 'password'}
            // A password manager must never fill an integration secret in.
            autoComplete="new-password"
            spellCheck={false}
            data-1p-ignore=""
            data-lpignore="true"
            disabled={clearing}
            placeholder={
              state.stored && !clearing
                ? state.last4
                  ? t('settings.secret.placeholderStored', { last4: state.last4 })
                  : t('settings.secret.placeholderStoredNoEnding')
                : t('settings.secret.placeholderNew')
            }
            {...registration}
          />
        )}
      </FormField>
      <div className="settings-field__actions">
        {actions}
        {state.stored && (
          <Button
            size="sm"
            variant={clearing ? 'secondary' : 'ghost'}
            onClick={onToggleClear}
            aria-pressed={clearing}
          >
            {clearing ? t('settings.secret.undo') : t('settings.secret.clear')}
          </Button>
        )}
      </div>
    </div>
  );
}
