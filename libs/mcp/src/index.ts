export * from './graphql-call';
export * from './tools';
export * from './impact-tools';
