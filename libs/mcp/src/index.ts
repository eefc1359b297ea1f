export * from './graphql-call';
export * from './tools';
