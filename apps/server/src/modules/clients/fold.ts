/** Case-, accent- and spacing-insensitive key of a name; the contract's `foldText`, named for the server. */
export { foldText as fold } from '@hablabot/contract';
