import { useTranslation } from 'react-i18next';
import { AlertIcon, CloseIcon } from '../../components/lib/icons';

/**
 * A warning shown exactly as written (the message box would prefix 'Error: '): the product's fixed
 * texts such as 'Please select a Bot before creating an instruction.' appear to the letter.
 */
export function InlineAlert({ message, onDismiss }: { message: string; onDismiss?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="hb-message hb-message--error" role="alert">
      <AlertIcon size={18} className="hb-message__icon" />
      <div className="hb-message__text">{message}</div>
      {onDismiss && (
        <button
          type="button"
          className="hb-icon-btn hb-message__close"
          onClick={onDismiss}
          aria-label={t('widgets.messageBox.dismiss')}
        >
          <CloseIcon size={16} />
        </button>
      )}
    </div>
  );
}
