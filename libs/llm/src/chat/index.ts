export * from './chat-json';
export * from './model-call.error';
export * from './gemini-chat.client';
export * from './openai-chat.client';
export * from './cross-encoder.clients';
export * from './chat-stream';
export * from './chat-client.factory';
