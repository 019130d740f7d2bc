import type { Bot } from '@hablabot/contract';
import { useTranslation } from 'react-i18next';
import { PauseIcon, PencilIcon, PlayIcon, TrashIcon } from '../../components/lib/icons';
import { cx } from '../../components/lib/text';

export interface BotCardProps {
  bot: Bot;
  selected: boolean;
  /** This bot answers the company's customers (the lowest-id active bot). */
  live: boolean;
  disabled?: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
  onToggle: () => void;
}

/** One bot: select checkbox, name, edit, red round delete, pause/resume and its active/inactive label. */
export function BotCard({
  bot,
  selected,
  live,
  disabled,
  onSelect,
  onEdit,
  onDelete,
  onToggle,
}: BotCardProps) {
  const { t } = useTranslation();
  const active = bot.state === 1;
  const checkboxId = `bot-card-${bot.id}`;
  return (
    <li
      className={cx(
        'bots-card',
        'bot-card',
        selected && 'bot-card--selected',
        !active && 'bot-card--inactive',
      )}
      data-testid={`bot-card-${bot.id}`}
    >
      <div className="bot-card__main">
        <input
          id={checkboxId}
          type="checkbox"
          className="bot-card__check"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={t('bots.list.select', { name: bot.bot_name })}
        />
        <label htmlFor={checkboxId} className="bot-card__name">
          {bot.bot_name}
        </label>
        {live && (
          <span className="bot-card__live" title={t('bots.list.liveTitle')}>
            <span className="bot-card__live-dot" aria-hidden="true" />
            {t('bots.list.live')}
          </span>
        )}
      </div>
      <div className="bot-card__meta">
        <span
          className={cx('bot-card__state', active ? 'bot-card__state--active' : 'bot-card__state--inactive')}
        >
          {active ? t('bots.list.active') : t('bots.list.inactive')}
        </span>
        <span className="bots-muted">{t('bots.list.instructions', { count: bot.instructions_count })}</span>
      </div>
      <div className="bot-card__actions">
        <button
          type="button"
          className="hb-icon-btn"
          onClick={onToggle}
          disabled={disabled}
          aria-label={
            active
              ? t('bots.list.pause', { name: bot.bot_name })
              : t('bots.list.resume', { name: bot.bot_name })
          }
          title={
            active
              ? t('bots.list.pause', { name: bot.bot_name })
              : t('bots.list.resume', { name: bot.bot_name })
          }
        >
          {active ? <PauseIcon size={16} /> : <PlayIcon size={16} />}
        </button>
        <button
          type="button"
          className="hb-icon-btn"
          onClick={onEdit}
          aria-label={t('bots.list.edit', { name: bot.bot_name })}
          title={t('bots.list.edit', { name: bot.bot_name })}
        >
          <PencilIcon size={16} />
        </button>
        <button
          type="button"
          className="bot-card__delete"
          onClick={onDelete}
          disabled={disabled}
          aria-label={t('bots.list.delete', { name: bot.bot_name })}
          title={t('bots.list.delete', { name: bot.bot_name })}
        >
          <TrashIcon size={15} />
        </button>
      </div>
    </li>
  );
}
