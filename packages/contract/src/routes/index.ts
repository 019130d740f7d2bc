// The route contract's types and error answers. The paths are '@hablabot/contract/api' (zod-free, what the
// web imports) and the declarations '@hablabot/contract/routes' (the server's).
export * from './route';
