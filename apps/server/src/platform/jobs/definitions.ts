import type { z } from 'zod';
import type { EnqueueOptions, HandlerOptions, JobHandler, JobPayloads, JobQueue } from './jobs';

export type JobName = keyof JobPayloads & string;

/**
 * A background job as its module declares it, beside the service that owns it: its name, the zod schema
 * of its payload, what it does and how it runs. Every definition is collected in src/jobs.ts and given to
 * the queue there, the one way jobs are registered (database queue or BullMQ alike).
 */
export interface JobDefinition<K extends JobName = JobName> {
  name: K;
  schema: z.ZodType<JobPayloads[K]>;
  handler: JobHandler<JobPayloads[K]>;
  options?: HandlerOptions;
}

export function defineJob<K extends JobName>(definition: JobDefinition<K>): JobDefinition<K> {
  return definition;
}

/** Any one job's definition (what the registry collects). */
export type AnyJobDefinition = { [K in JobName]: JobDefinition<K> }[JobName];

/** A queue that knows the definitions: payloads are checked on enqueue and again when a job runs. */
export interface DefinedJobQueue extends JobQueue {
  define(definitions: AnyJobDefinition[]): void;
}

/**
 * Wraps a queue so that only defined jobs are queued and run: `enqueue` refuses a name without a
 * definition or a payload its schema refuses (before anything is stored); each run parses the stored
 * payload with the same schema, so a job queued by an older version with another shape fails visibly.
 */
export function withDefinitions(queue: JobQueue): DefinedJobQueue {
  const schemas = new Map<string, z.ZodType>();
  return {
    get kind() {
      return queue.kind;
    },
    define(definitions) {
      for (const d of definitions) {
        if (schemas.has(d.name)) throw new Error(`job ${d.name} defined twice`);
        schemas.set(d.name, d.schema as z.ZodType);
        const handler = d.handler as JobHandler<unknown>;
        const schema = d.schema as z.ZodType;
        queue.register(d.name, (payload, context) => handler(schema.parse(payload), context), d.options);
      }
    },
    register() {
      throw new Error('jobs are declared as definitions (defineJob) and registered in src/jobs.ts');
    },
    async enqueue(name, payload, options?: EnqueueOptions) {
      const schema = schemas.get(name);
      if (!schema) throw new Error(`job ${name} has no definition`);
      return queue.enqueue(name, schema.parse(payload) as never, options);
    },
    inspect: (name, id) => queue.inspect(name, id),
    counts: () => queue.counts(),
    start: (options) => queue.start(options),
    stop: () => queue.stop(),
  };
}
