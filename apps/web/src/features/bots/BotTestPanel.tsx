import { BOT_TEST_MESSAGE_MAX, type BotTestResponse, type Segment } from '@hablabot/contract';
import { type FormEvent, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, foldText, MessageBox, Textarea, ValidationErrorList } from '../../components';
import { isApiError } from '../../lib/api-client';
import { CLIENT_SEARCH_LIMIT, useClientSearch, useTestBot } from './api';

type Target = 'segment' | 'client';

export interface BotTestPanelProps {
  /** The selected bot; null disables the panel. */
  bot: { id: number; bot_name: string } | null;
  segments: readonly Segment[];
}

/**
 * "Probar bot": the admin picks a segment (or a client) and types a customer message; the server builds
 * the prompt the messaging engine would build and, when OpenAI is set up, shows the model's reply.
 */
export function BotTestPanel({ bot, segments }: BotTestPanelProps) {
  const { t } = useTranslation();
  const id = useId();
  const test = useTestBot();
  const [target, setTarget] = useState<Target>('segment');
  const [segmentId, setSegmentId] = useState('');
  const [clientSearch, setClientSearch] = useState('');
  const [clientId, setClientId] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<BotTestResponse | null>(null);
  const search = useDeferredValue(clientSearch.trim());
  const clients = useClientSearch(search, target === 'client' && bot !== null);

  // A result belongs to the bot it was asked of.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another bot is selected
  useEffect(() => {
    setResult(null);
    setProblem(null);
  }, [bot?.id]);

  // The server may not filter (an older one answers every client): filter and cap here too.
  const matches = useMemo(() => {
    const all = clients.data?.clients ?? [];
    const words = foldText(search).split(' ').filter(Boolean);
    return all
      .filter((client) => {
        const text = foldText(`${client.name} ${client.last_names} ${client.whatsapp_cellphone}`);
        return words.every((word) => text.includes(word));
      })
      .slice(0, CLIENT_SEARCH_LIMIT);
  }, [clients.data, search]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!bot) return;
    const chosen = target === 'segment' ? segmentId : clientId;
    if (!chosen) {
      setProblem(t('bots.test.pickTarget'));
      return;
    }
    if (!message.trim()) {
      setProblem(t('bots.test.pickMessage'));
      return;
    }
    setProblem(null);
    try {
      const body =
        target === 'segment'
          ? { message, segment_id: Number(segmentId) }
          : { message, client_id: Number(clientId) };
      setResult(await test.mutateAsync({ botId: bot.id, body }));
    } catch (error) {
      setResult(null);
      if (isApiError(error) && error.status === 422) return;
      console.error('Testing the bot failed', error);
      setProblem(
        isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
          ? error.serverMessage
          : t('bots.feedback.internalError'),
      );
    }
  };

  const fieldErrors = isApiError(test.error) && test.error.status === 422 ? test.error.fieldErrors : null;

  return (
    <section className="bots-card bots-test" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="bots-section__heading">
        {t('bots.test.heading')}
      </h2>
      <p className="bots-muted">{bot ? t('bots.test.intro') : t('bots.test.noBot')}</p>
      <form className="hb-form bots-test__form" onSubmit={submit} noValidate>
        <fieldset className="bots-form__fieldset" disabled={!bot}>
          <div className="bots-test__targets" role="radiogroup" aria-label={t('bots.test.as')}>
            <span className="hb-field__label" aria-hidden="true">
              {t('bots.test.as')}
            </span>
            {(['segment', 'client'] as const).map((option) => (
              <label key={option} className="bots-test__target">
                <input
                  type="radio"
                  name={`${id}-target`}
                  value={option}
                  checked={target === option}
                  onChange={() => setTarget(option)}
                />
                {option === 'segment' ? t('bots.test.asSegment') : t('bots.test.asClient')}
              </label>
            ))}
          </div>
          {target === 'segment' ? (
            <div className="hb-field">
              <label className="hb-field__label" htmlFor={`${id}-segment`}>
                {t('bots.test.segment')}
              </label>
              <select
                id={`${id}-segment`}
                className="hb-input"
                value={segmentId}
                onChange={(event) => setSegmentId(event.target.value)}
              >
                <option value="">{t('bots.test.segmentNone')}</option>
                {segments.map((segment) => (
                  <option key={segment.id} value={segment.id}>
                    {segment.name}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <div className="bots-test__client">
              <div className="hb-field">
                <label className="hb-field__label" htmlFor={`${id}-client-search`}>
                  {t('bots.test.clientSearch')}
                </label>
                <input
                  id={`${id}-client-search`}
                  type="search"
                  className="hb-input"
                  value={clientSearch}
                  placeholder={t('bots.test.clientSearchPlaceholder')}
                  onChange={(event) => setClientSearch(event.target.value)}
                />
              </div>
              <div className="hb-field">
                <label className="hb-field__label" htmlFor={`${id}-client`}>
                  {t('bots.test.client')}
                </label>
                <select
                  id={`${id}-client`}
                  className="hb-input"
                  value={clientId}
                  onChange={(event) => setClientId(event.target.value)}
                >
                  <option value="">
                    {matches.length === 0 && clients.isSuccess
                      ? t('bots.test.clientNoMatches')
                      : t('bots.test.clientNone')}
                  </option>
                  {matches.map((client) => (
                    <option key={client.id} value={client.id}>
                      {`${client.name} ${client.last_names} (+${client.whatsapp_cellphone})`}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          )}
          <div className="hb-field">
            <label className="hb-field__label" htmlFor={`${id}-message`}>
              {t('bots.test.message')}
            </label>
            <Textarea
              id={`${id}-message`}
              rows={3}
              maxLength={BOT_TEST_MESSAGE_MAX}
              showCounter={false}
              value={message}
              placeholder={t('bots.test.messagePlaceholder')}
              onChange={(event) => setMessage(event.target.value)}
            />
          </div>
          <div>
            <Button type="submit" variant="primary" busy={test.isPending}>
              {t('bots.test.submit')}
            </Button>
          </div>
        </fieldset>
      </form>
      {problem && <MessageBox type="error" message={problem} onDismiss={() => setProblem(null)} />}
      <ValidationErrorList errors={fieldErrors} />
      {result && <BotTestResult result={result} />}
    </section>
  );
}

function BotTestResult({ result }: { result: BotTestResponse }) {
  const { t } = useTranslation();
  const asked = result.model !== null;
  return (
    <div className="bots-test__result" aria-live="polite">
      <MessageBox
        type={result.model_error ? 'error' : 'info'}
        message={result.model_error ?? result.message}
        dismissible={false}
      />
      {result.reply !== null && (
        <div className="bots-test__reply">
          <h3 className="bots-test__subheading">{t('bots.test.reply', { model: result.model })}</h3>
          <p className="bots-test__reply-text">{result.reply}</p>
        </div>
      )}
      <details className="bots-test__prompt" open={result.reply === null}>
        <summary>{asked ? t('bots.test.promptSent') : t('bots.test.prompt')}</summary>
        <p className="bots-muted">{t('bots.test.applied', { count: result.instruction_ids.length })}</p>
        <ol className="bots-test__messages">
          {result.prompt.map((entry, index) => (
            // The prompt is a fixed list for this answer; its order is its identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className={`bots-test__message bots-test__message--${entry.role}`}>
              <span className="bots-test__role">{t(`bots.test.roles.${entry.role}`)}</span>
              <pre className="bots-test__content">{entry.content}</pre>
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
