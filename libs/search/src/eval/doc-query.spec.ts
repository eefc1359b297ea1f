import { docCommentToQuery } from './doc-query';

describe('doc comment -> query', () => {
  it('keeps the first sentence, with links and inline code read as words', () => {
    const doc = [
      'Represents a push-based event or value that an {@link Observable} can emit.',
      'This class is particularly useful for operators that manage notifications.',
      '',
      '## Example',
      '```ts',
      'of(1).subscribe();',
      '```',
      '@param x The value.',
    ].join('\n');
    expect(docCommentToQuery(doc)).toBe('Represents a push-based event or value that an Observable can emit.');
  });

  it('appends the second sentence when the first is short, and drops code that is not a name', () => {
    const doc = 'Disposes the resources. Cancels `this.work()` and any `(x) => y` callbacks, then calls `unsubscribe()`.';
    expect(docCommentToQuery(doc)).toBe('Disposes the resources. Cancels this.work and any callbacks, then calls unsubscribe.');
  });

  it('reads link labels, member links, markdown links and strips HTML and emphasis', () => {
    const doc = 'Uses the {@link Subscription#add add method} of the [Fetch API](https://x.y/z) and {@link #closed} for **every** <span class="informal">inner</span> value.';
    expect(docCommentToQuery(doc)).toBe('Uses the add method of the Fetch API and closed for every inner value.');
  });

  it('does not split on e.g. / i.e.', () => {
    expect(docCommentToQuery('Emits a value, e.g. a number, when the timer fires. Then completes.')).toBe('Emits a value, e.g. a number, when the timer fires.');
  });

  it('caps long sentences at 40 words', () => {
    const doc = `${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}.`;
    expect(docCommentToQuery(doc)!.split(' ')).toHaveLength(40);
  });

  it('gives null for tag-only, deprecated-only and too-short docs', () => {
    expect(docCommentToQuery('@internal')).toBeNull();
    expect(docCommentToQuery('@deprecated Replaced with {@link combineLatestWith}. Will be removed in v8.')).toBeNull();
    expect(docCommentToQuery('Returns it.')).toBeNull();
    expect(docCommentToQuery('```ts\nfoo();\n```')).toBeNull();
  });
});
