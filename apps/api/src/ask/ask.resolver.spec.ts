import { storedSessionId } from './ask.resolver';

describe('storedSessionId', () => {
  it('keeps a stored key’s sessions under its key id, so two keys never share one', () => {
    const mine = storedSessionId({ role: 'read', keyId: 'aaaaaaaaaaaa', repositories: ['a'] }, 'chat-1');
    const theirs = storedSessionId({ role: 'read', keyId: 'bbbbbbbbbbbb', repositories: ['a'] }, 'chat-1');
    expect(mine).not.toBe(theirs);
    expect(mine).toBe(storedSessionId({ role: 'write', keyId: 'aaaaaaaaaaaa' }, 'chat-1'));
    // Fits the session id limit whatever the caller's id, and keeps to its alphabet.
    expect(storedSessionId({ role: 'read', keyId: 'aaaaaaaaaaaa' }, 'x'.repeat(200))).toMatch(/^[A-Za-z0-9_.:-]{1,200}$/);
  });

  it('leaves the ids of environment keys, the local user and malformed ids as given', () => {
    expect(storedSessionId({ role: 'admin', keyId: 'env:admin' }, 'chat-1')).toBe('chat-1');
    expect(storedSessionId({ role: 'admin', keyId: 'local' }, 'chat-1')).toBe('chat-1');
    expect(storedSessionId(undefined, 'chat-1')).toBe('chat-1');
    expect(storedSessionId({ role: 'read', keyId: 'aaaaaaaaaaaa' }, 'bad id!')).toBe('bad id!');
  });
});
