import { FAKE_GEMINI_API_KEY, FakeGemini } from '../../../../test/fakes/fake-gemini';
import { GeminiChatClient } from './gemini-chat.client';
import { ModelCallError } from './model-call.error';

// The real LangChain client against the fake Gemini server: a stream whose body does not parse must
// fail the call, and only the call (an unhandled rejection would end the process that made it).
describe('GeminiChatClient with a garbled answer', () => {
  let fake: FakeGemini;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    fake = await FakeGemini.start({ apiKey: FAKE_GEMINI_API_KEY });
    process.on('unhandledRejection', record);
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    await fake.close();
  });

  it('streamText: the call rejects with a ModelCallError, nothing is left unhandled', async () => {
    fake.corruptNext(1, 'invalidJson', { action: 'streamGenerateContent' });
    const client = new GeminiChatClient({ apiKey: FAKE_GEMINI_API_KEY, baseUrl: fake.baseUrl, model: 'gemini-test' });
    await expect(client.streamText({ system: 's', user: 'u' })).rejects.toBeInstanceOf(ModelCallError);
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });

  it('completeText: one whole answer, and a body that is not JSON fails as HTTP 200', async () => {
    const client = new GeminiChatClient({ apiKey: FAKE_GEMINI_API_KEY, baseUrl: fake.baseUrl, model: 'gemini-test' });
    fake.generateNext(1, { text: 'a whole answer' });
    await expect(client.completeText({ system: 's', user: 'u' })).resolves.toMatchObject({ text: 'a whole answer' });
    fake.corruptNext(1, 'invalidJson', { action: 'generateContent' });
    await expect(client.completeText({ system: 's', user: 'u' })).rejects.toMatchObject({ failure: 'http', status: 200 });
    expect(unhandled).toEqual([]);
  });
});
