// The live events' schema in a module of its own, so the bundler gives it (and the message, conversation
// and settings schemas it is made of) a chunk of its own: the event stream loads it when its first event
// arrives (lib/event-stream.ts), not with the first screen.
export { ZStreamEvent } from '@hablabot/contract';
