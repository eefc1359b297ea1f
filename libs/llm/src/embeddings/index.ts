export * from './embedding-provider';
export * from './embedding-provider.factory';
export * from './local-models';
export * from './local-embedding.provider';
export * from './gemini-embedding.provider';
export * from './hash-embedding.provider';
export * from './openai-embedding.provider';
export { BertWordPieceTokenizer } from './bert-wordpiece-tokenizer';
export { cosineSimilarity, l2Normalize, l2Norm } from './vector-math';
