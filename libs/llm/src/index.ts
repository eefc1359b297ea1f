export * from './embeddings';
export * from './llm.module';
export * from './chat';
