import { isCodeLike, isPlainWordsQuestion } from './query-shape';

describe('query shape', () => {
  it('takes a sentence with no identifier and nothing quoted for a question in plain words', () => {
    expect(isPlainWordsQuestion('wait until a condition becomes true, run an effect once, and fail after a timeout')).toBe(true);
    expect(isPlainWordsQuestion('convert .NET enums to python integers and back')).toBe(true);
    expect(isPlainWordsQuestion("open the user's preferred text editor (if any) and return what they saved")).toBe(true);
  });

  it('does not for names, code, quoted or bracketed text, or a few keywords', () => {
    expect(isPlainWordsQuestion('how does makeObservable decorate the target')).toBe(false);
    expect(isPlainWordsQuestion('where is parse_args called from the cli')).toBe(false);
    expect(isPlainWordsQuestion('what does Subscription.add do with teardown')).toBe(false);
    expect(isPlainWordsQuestion('find the message "Third argument of reactions should be an object"')).toBe(false);
    expect(isPlainWordsQuestion('[MobX] Cannot make the object observable')).toBe(false);
    expect(isPlainWordsQuestion('observable map merge')).toBe(false);
  });

  it('reads code-like words the way code is written', () => {
    for (const w of ['makeObservable', 'parse_args', 'a.b', 'src/index.ts', 'Foo::bar', 'f(x)', '$scope', '[MobX]', 'x=1']) expect([w, isCodeLike(w)]).toEqual([w, true]);
    for (const w of ['Observable', 'NET', '.NET', 'values,', '(maybe)', "user's", 'end.']) expect([w, isCodeLike(w)]).toEqual([w, false]);
  });
});
