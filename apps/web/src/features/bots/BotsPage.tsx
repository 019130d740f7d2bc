import type { Bot, Instruction, Segment } from '@hablabot/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  type DataTableColumn,
  MessageBox,
  type SelectionHelpers,
  useConfirmDialog,
  useMessageBox,
} from '../../components';
import { PencilIcon, PlusIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSegments } from '../clients/api';
import { useBots, useDeleteBot, useDeleteInstructions, useInstructions, useToggleBotState } from './api';
import { BotCard } from './BotCard';
import { BotForm } from './BotForm';
import { BotTestPanel } from './BotTestPanel';
import { InlineAlert } from './InlineAlert';
import { InstructionForm } from './InstructionForm';
import { LibraryPicker } from './LibraryPicker';
import './bots.css';

/** The green banner after a delete stays 4 s. */
export const DELETE_MESSAGE_MS = 4000;

const EMPTY_BOTS: Bot[] = [];
const EMPTY_INSTRUCTIONS: Instruction[] = [];
const EMPTY_SEGMENTS: Segment[] = [];

/** Bots and instructions (/admin/bots): bot cards on the left, the selected bot's instructions on the right. */
export default function BotsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('bots.title'));
  const botsQuery = useBots();
  const segmentsQuery = useSegments();
  const deleteBot = useDeleteBot();
  const toggleBot = useToggleBotState();
  const deleteInstructions = useDeleteInstructions();
  const banner = useMessageBox();
  const instructionsBanner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();
  /** undefined until the first list arrives; then a bot id, or null when none is selected. */
  const [selectedId, setSelectedId] = useState<number | null | undefined>(undefined);
  const [botModal, setBotModal] = useState<{ bot: Bot | null } | null>(null);
  const [instructionModal, setInstructionModal] = useState<{ instruction: Instruction | null } | null>(null);
  const [selectBotAlert, setSelectBotAlert] = useState(false);

  const bots = botsQuery.data?.bots ?? EMPTY_BOTS;
  const liveBotId = botsQuery.data?.live_bot_id ?? null;
  const segments = segmentsQuery.data?.segments ?? EMPTY_SEGMENTS;

  // On load, the first bot whose state is 1 is selected.
  useEffect(() => {
    if (selectedId !== undefined || !botsQuery.data) return;
    setSelectedId(botsQuery.data.bots.find((bot) => bot.state === 1)?.id ?? null);
  }, [botsQuery.data, selectedId]);

  // A selected bot that disappears (deleted here or elsewhere) leaves nothing selected.
  useEffect(() => {
    if (typeof selectedId === 'number' && botsQuery.isSuccess && !bots.some((bot) => bot.id === selectedId))
      setSelectedId(null);
  }, [bots, botsQuery.isSuccess, selectedId]);

  const selected = bots.find((bot) => bot.id === selectedId) ?? null;
  // The 'select a bot' alert has done its job once a bot is selected.
  useEffect(() => {
    if (selected) setSelectBotAlert(false);
  }, [selected]);
  const instructionsQuery = useInstructions(selected?.id ?? null);
  const instructions = selected ? (instructionsQuery.data?.data ?? EMPTY_INSTRUCTIONS) : EMPTY_INSTRUCTIONS;

  // List-loading failures are only logged.
  useEffect(() => {
    if (botsQuery.error) console.error('Loading the bots failed', botsQuery.error);
  }, [botsQuery.error]);
  useEffect(() => {
    if (instructionsQuery.error) console.error('Loading the instructions failed', instructionsQuery.error);
  }, [instructionsQuery.error]);

  const failureText = (error: unknown) =>
    isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
      ? error.serverMessage
      : t('bots.feedback.internalError');

  const toggle = async (bot: Bot) => {
    const pausing = bot.state === 1;
    const confirmed = await confirm({
      title: t(pausing ? 'bots.confirm.pauseTitle' : 'bots.confirm.resumeTitle', { name: bot.bot_name }),
      message: t('bots.confirm.toggle', {
        action: t(pausing ? 'bots.confirm.actionPause' : 'bots.confirm.actionResume'),
      }),
      confirmLabel: t(pausing ? 'bots.confirm.pauseButton' : 'bots.confirm.resumeButton'),
      tone: pausing ? 'danger' : 'primary',
    });
    if (!confirmed) return;
    try {
      const result = await toggleBot.mutateAsync({ id: bot.id, state: pausing ? 0 : 1 });
      if (result.status === 200)
        banner.success(result.data?.message || t('bots.feedback.stateChanged'), DELETE_MESSAGE_MS);
    } catch (error) {
      console.error('Changing the bot state failed', error);
      banner.error(failureText(error));
    }
  };

  const removeBot = async (bot: Bot) => {
    const confirmed = await confirm({
      title: t('bots.confirm.deleteBotTitle', { name: bot.bot_name }),
      message: (
        <>
          {t('bots.confirm.deleteBot')}
          {bot.instructions_count > 0 && (
            <> {t('bots.confirm.deleteBotInstructions', { count: bot.instructions_count })}</>
          )}
        </>
      ),
    });
    if (!confirmed) return;
    try {
      const response = await deleteBot.mutateAsync(bot.id);
      if (selectedId === bot.id) setSelectedId(null);
      banner.success(response.message || t('bots.feedback.botDeleted'), DELETE_MESSAGE_MS);
    } catch (error) {
      console.error('Deleting the bot failed', error);
      banner.error(failureText(error));
    }
  };

  const removeInstructions = async (rows: Instruction[], helpers?: SelectionHelpers) => {
    if (rows.length === 0) return;
    const confirmed = await confirm({
      title: t('bots.confirm.deleteInstructionsTitle', { count: rows.length }),
      message: t('bots.confirm.deleteInstructions', { count: rows.length }),
    });
    if (!confirmed) return;
    try {
      const response = await deleteInstructions.mutateAsync(rows.map((row) => row.id));
      helpers?.clearSelection();
      instructionsBanner.success(
        response.message || t('bots.feedback.instructionsDeleted'),
        DELETE_MESSAGE_MS,
      );
    } catch (error) {
      console.error('Deleting instructions failed', error);
      instructionsBanner.error(failureText(error));
    }
  };

  const createInstruction = () => {
    if (!selected) {
      setSelectBotAlert(true);
      return;
    }
    setInstructionModal({ instruction: null });
  };

  const columns = useMemo<DataTableColumn<Instruction>[]>(
    () => [
      { id: 'id', header: t('bots.instructions.id'), accessor: 'id', width: 80 },
      { id: 'ask', header: t('bots.instructions.ask'), accessor: 'ask', primary: true },
    ],
    [t],
  );

  const busy = deleteBot.isPending || toggleBot.isPending;

  return (
    <div className="page bots-page">
      <header className="page-header">
        <h1 className="page-header__title">{t('bots.title')}</h1>
        <p className="page-header__subtitle">{t('bots.subtitle')}</p>
      </header>

      <div className="bots-banner">
        <MessageBox {...banner.props} />
      </div>

      <div className="bots-layout">
        <section className="bots-column" aria-labelledby="bots-heading">
          <div className="bots-section__header">
            <h2 id="bots-heading" className="bots-section__heading">
              {t('bots.list.heading')}
            </h2>
            <Button variant="primary" size="sm" onClick={() => setBotModal({ bot: null })}>
              <PlusIcon size={15} />
              {t('bots.list.create')}
            </Button>
          </div>
          {botsQuery.isSuccess && bots.length > 0 && (
            <p className="bots-muted bots-live-rule">
              {liveBotId === null ? t('bots.list.noLive') : t('bots.list.liveRule')}
            </p>
          )}
          {botsQuery.isSuccess && bots.length === 0 && <p className="bots-empty">{t('bots.list.empty')}</p>}
          <ul className="bots-list">
            {bots.map((bot) => (
              <BotCard
                key={bot.id}
                bot={bot}
                selected={bot.id === selectedId}
                live={bot.id === liveBotId}
                disabled={busy}
                onSelect={(checked) => setSelectedId(checked ? bot.id : null)}
                onEdit={() => setBotModal({ bot })}
                onDelete={() => removeBot(bot)}
                onToggle={() => toggle(bot)}
              />
            ))}
          </ul>
        </section>

        <div className="bots-column bots-column--wide">
          <section className="bots-card bots-instructions" aria-labelledby="instructions-heading">
            <h2 id="instructions-heading" className="bots-section__heading">
              {selected
                ? t('bots.instructions.headingOf', { name: selected.bot_name })
                : t('bots.instructions.heading')}
            </h2>
            {selectBotAlert && (
              <InlineAlert
                message={t('bots.instructions.selectBot')}
                onDismiss={() => setSelectBotAlert(false)}
              />
            )}
            <MessageBox {...instructionsBanner.props} />
            <DataTable<Instruction>
              className="bots-instructions__table"
              label={t('bots.instructions.label')}
              data={instructions}
              columns={columns}
              getRowId={(instruction) => instruction.id}
              filterPlaceholder={t('bots.instructions.filter')}
              emptyMessage={selected ? t('bots.instructions.empty') : t('bots.instructions.noBot')}
              loading={(Boolean(selected) && instructionsQuery.isPending) || deleteInstructions.isPending}
              toolbar={
                <Button variant="primary" size="sm" onClick={createInstruction}>
                  <PlusIcon size={15} />
                  {t('bots.instructions.create')}
                </Button>
              }
              onEdit={(instruction) => setInstructionModal({ instruction })}
              onDelete={(rows, helpers) => removeInstructions(rows, helpers)}
              rowActions={(instruction) => (
                <>
                  <button
                    type="button"
                    className="hb-icon-btn"
                    onClick={() => setInstructionModal({ instruction })}
                    aria-label={t('bots.instructions.edit', { name: instruction.ask })}
                    title={t('bots.instructions.edit', { name: instruction.ask })}
                  >
                    <PencilIcon size={16} />
                  </button>
                  <button
                    type="button"
                    className="hb-icon-btn bots-danger-icon"
                    onClick={() => removeInstructions([instruction])}
                    disabled={deleteInstructions.isPending}
                    aria-label={t('bots.instructions.delete', { name: instruction.ask })}
                    title={t('bots.instructions.delete', { name: instruction.ask })}
                  >
                    <TrashIcon size={16} />
                  </button>
                </>
              )}
            />
          </section>

          <BotTestPanel bot={selected} segments={segments} />
        </div>
      </div>

      {botModal && (
        <BotForm
          key={`bot-${botModal.bot?.id ?? 'new'}`}
          bot={botModal.bot}
          onClose={() => setBotModal(null)}
          onSaved={(bot) => {
            // A first bot is selected as soon as it exists.
            if (selectedId === null && bot.state === 1) setSelectedId(bot.id);
          }}
        />
      )}
      {instructionModal && selected && (
        <InstructionForm
          key={`instruction-${instructionModal.instruction?.id ?? 'new'}`}
          botId={selected.id}
          instruction={instructionModal.instruction}
          segments={segments}
          onClose={() => setInstructionModal(null)}
          MediaPicker={LibraryPicker}
        />
      )}
      {confirmDialog}
    </div>
  );
}
