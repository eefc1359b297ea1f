export * from './embeddings';
export * from './llm.module';
