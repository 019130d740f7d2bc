import type { Bot, BotState, Instruction } from '@hablabot/contract';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

const now = () => new Date().toISOString();

/** Ids per `in (…)` list: far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 1000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BotValues {
  bot_name: string;
  personality: string;
}

export interface InstructionValues {
  bot_id: number;
  ask: string;
  reply: string;
}

/** An instruction as the prompt builder reads it: segment ids as numbers. */
export interface InstructionForPrompt {
  id: number;
  ask: string;
  reply: string;
  segments: number[];
}

type BotRowWithCount = Omit<Bot, 'state' | 'instructions_count'> & {
  state: number;
  instructions_count: number | string | null;
};

function toBot(r: BotRowWithCount): Bot {
  return {
    id: r.id,
    bot_name: r.bot_name,
    personality: r.personality,
    state: r.state === 1 ? 1 : 0,
    instructions_count: Number(r.instructions_count ?? 0),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * A company's bots and their instructions: the only SQL of bots. Every function takes the company it is
 * scoped to; instructions belong to a company through their bot.
 */
export function createBotsRepository(db: Kysely<DB>) {
  function botsQuery(companyId: number) {
    return db
      .selectFrom('bots')
      .select([
        'bots.id',
        'bots.bot_name',
        'bots.personality',
        'bots.state',
        'bots.created_at',
        'bots.updated_at',
        (eb) =>
          eb
            .selectFrom('instructions')
            .select(sql<number>`cast(count(*) as integer)`.as('n'))
            .whereRef('instructions.bot_id', '=', 'bots.id')
            .as('instructions_count'),
      ])
      .where('bots.company_id', '=', companyId);
  }

  /** The company's bot ids, as a subquery that scopes instructions. */
  const companyBotIds = (companyId: number) =>
    db.selectFrom('bots').select('bots.id').where('bots.company_id', '=', companyId);

  /** Every listed instruction with its segment ids, in id order; two statements for any number of rows. */
  async function withSegments(
    rows: {
      id: number;
      bot_id: number;
      ask: string;
      reply: string;
      created_at: string;
      updated_at: string;
    }[],
  ): Promise<Instruction[]> {
    const byInstruction = new Map<number, number[]>();
    for (const part of chunks(rows.map((r) => r.id))) {
      const links = await db
        .selectFrom('instruction_segments')
        .select(['instruction_id', 'segment_id'])
        .where('instruction_id', 'in', part)
        .orderBy('segment_id')
        .execute();
      for (const link of links) {
        const list = byInstruction.get(link.instruction_id) ?? [];
        list.push(link.segment_id);
        byInstruction.set(link.instruction_id, list);
      }
    }
    return rows.map((r) => ({
      id: r.id,
      bot_id: r.bot_id,
      ask: r.ask,
      reply: r.reply,
      segments: (byInstruction.get(r.id) ?? []).map(String),
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  function instructionsQuery(companyId: number) {
    return db
      .selectFrom('instructions')
      .select([
        'instructions.id',
        'instructions.bot_id',
        'instructions.ask',
        'instructions.reply',
        'instructions.created_at',
        'instructions.updated_at',
      ])
      .where('instructions.bot_id', 'in', companyBotIds(companyId));
  }

  async function listInstructions(companyId: number, botId: number): Promise<Instruction[]> {
    const rows = await instructionsQuery(companyId)
      .where('instructions.bot_id', '=', botId)
      .orderBy('instructions.id')
      .execute();
    return withSegments(rows);
  }

  async function linkSegments(trx: Kysely<DB>, instructionId: number, segmentIds: number[]) {
    for (const part of chunks(segmentIds)) {
      await trx
        .insertInto('instruction_segments')
        .values(part.map((segment_id) => ({ instruction_id: instructionId, segment_id })))
        .onConflict((oc) => oc.columns(['instruction_id', 'segment_id']).doNothing())
        .execute();
    }
  }

  return {
    /** The cards' list, oldest first. */
    async listBots(companyId: number): Promise<Bot[]> {
      return (await botsQuery(companyId).orderBy('bots.id').execute()).map(toBot);
    },

    async findBot(companyId: number, id: number): Promise<Bot | undefined> {
      const row = await botsQuery(companyId).where('bots.id', '=', id).executeTakeFirst();
      return row ? toBot(row) : undefined;
    },

    /** The bot that answers the company's customers: the lowest id among those with state 1. */
    async findLiveBot(companyId: number): Promise<Bot | undefined> {
      const row = await botsQuery(companyId)
        .where('bots.state', '=', 1)
        .orderBy('bots.id')
        .limit(1)
        .executeTakeFirst();
      return row ? toBot(row) : undefined;
    },

    async createBot(companyId: number, values: BotValues): Promise<number> {
      const at = now();
      const row = await db
        .insertInto('bots')
        .values({ company_id: companyId, ...values, state: 1, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateBot(companyId: number, id: number, values: BotValues): Promise<boolean> {
      const result = await db
        .updateTable('bots')
        .set({ ...values, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async setBotState(companyId: number, id: number, state: BotState): Promise<boolean> {
      const result = await db
        .updateTable('bots')
        .set({ state, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes the bot and its instructions (ON DELETE CASCADE, and explicitly here); false if not the company's. */
    async deleteBot(companyId: number, id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('bots')
          .select('id')
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!owned) return false;
        const instructionIds = trx.selectFrom('instructions').select('id').where('bot_id', '=', id);
        await trx.deleteFrom('instruction_segments').where('instruction_id', 'in', instructionIds).execute();
        await trx.deleteFrom('instructions').where('bot_id', '=', id).execute();
        await trx.deleteFrom('bots').where('id', '=', id).execute();
        return true;
      });
    },

    /** The bot's instructions, oldest first, each with its segment ids. */
    listInstructions,

    async findInstruction(companyId: number, id: number): Promise<Instruction | undefined> {
      const row = await instructionsQuery(companyId).where('instructions.id', '=', id).executeTakeFirst();
      return row ? (await withSegments([row]))[0] : undefined;
    },

    /** The bot's instructions as the prompt builder reads them. */
    async instructionsForPrompt(companyId: number, botId: number): Promise<InstructionForPrompt[]> {
      const list = await listInstructions(companyId, botId);
      return list.map((i) => ({ id: i.id, ask: i.ask, reply: i.reply, segments: i.segments.map(Number) }));
    },

    /** Creates the instruction and its segment links in one transaction. The bot must be checked first. */
    async createInstruction(values: InstructionValues, segmentIds: number[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const at = now();
        const row = await trx
          .insertInto('instructions')
          .values({ ...values, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await linkSegments(trx, row.id, segmentIds);
        return row.id;
      });
    },

    /** Replaces the instruction's fields and segments; false when it is not the company's. */
    async updateInstruction(
      companyId: number,
      id: number,
      values: InstructionValues,
      segmentIds: number[],
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('instructions')
          .set({ ...values, updated_at: now() })
          .where('id', '=', id)
          .where('bot_id', 'in', trx.selectFrom('bots').select('id').where('company_id', '=', companyId))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx.deleteFrom('instruction_segments').where('instruction_id', '=', id).execute();
        await linkSegments(trx, id, segmentIds);
        return true;
      });
    },

    /** Deletes every one of the ids, or none when any is not the company's; true when deleted. */
    async deleteInstructions(companyId: number, ids: number[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const ownBots = trx.selectFrom('bots').select('id').where('company_id', '=', companyId);
        for (const part of chunks(ids)) {
          const owned = await trx
            .selectFrom('instructions')
            .select(sql<number>`cast(count(*) as integer)`.as('n'))
            .where('id', 'in', part)
            .where('bot_id', 'in', ownBots)
            .executeTakeFirstOrThrow();
          if (Number(owned.n) !== part.length) return false;
        }
        for (const part of chunks(ids)) {
          await trx.deleteFrom('instruction_segments').where('instruction_id', 'in', part).execute();
          await trx.deleteFrom('instructions').where('id', 'in', part).execute();
        }
        return true;
      });
    },
  };
}

export type BotsRepository = ReturnType<typeof createBotsRepository>;
