import { cleanTarget, nameVariants, recogniseStructural } from './structural';

describe('recogniseStructural', () => {
  const cases: [string, string, string][] = [
    ['which classes extend Subject', 'subtypes', 'Subject'],
    ['what extends Observable', 'subtypes', 'Observable'],
    ['subclasses of Subscription', 'subtypes', 'Subscription'],
    ['which scheduler actions are subclasses of AsyncAction', 'subtypes', 'AsyncAction'],
    ['schedulers that extend AsyncScheduler', 'subtypes', 'AsyncScheduler'],
    ['interfaces extending TimestampProvider', 'subtypes', 'TimestampProvider'],
    ['which interfaces extend the Observer interface?', 'subtypes', 'Observer'],
    ['all schedulers derived from Scheduler, directly or indirectly', 'subtypes', 'Scheduler'],
    ['every action class that derives from Action', 'subtypes', 'Action'],
    ['which classes implement SubscriptionLike', 'implementers', 'SubscriptionLike'],
    ['what implements `SubscriptionLoggable`?', 'implementers', 'SubscriptionLoggable'],
    ['who calls popScheduler', 'callers', 'popScheduler'],
    ['which operators are built on mergeInternals', 'callers', 'mergeInternals'],
    ['operators implemented with reduce', 'callers', 'reduce'],
    ['where is the filter operator used by other operators', 'users', 'filter'],
    ['callers of throwIfEmpty', 'callers', 'throwIfEmpty'],
    ['which functions call errorContext()', 'callers', 'errorContext'],
    ['where is isValidDate called', 'callers', 'isValidDate'],
    ['which operators does first use internally', 'callees', 'first'],
    ['what does the last operator call', 'callees', 'last'],
    ['what is shareReplay built from', 'callees', 'shareReplay'],
    ['where is parse_config imported?', 'importers', 'parse_config'],
    ['what overrides Repository.save', 'overriders', 'Repository.save'],
    ['what does HttpClient extend', 'supertypes', 'HttpClient'],
    ['base class of ReplaySubject', 'supertypes', 'ReplaySubject'],
    ['which exceptions subclass UsageError', 'subtypes', 'UsageError'],
    ['what subclasses Group', 'subtypes', 'Group'],
    ['which classes extend ParamType directly', 'subtypes', 'ParamType'],
    ['where is isolateGlobalState called from', 'callers', 'isolateGlobalState'],
    ['what does Reaction.track call', 'callees', 'Reaction.track'],
    ['which python functions call set_runtime', 'callers', 'set_runtime'],
    ['which types implement IPyObjectDecoder', 'implementers', 'IPyObjectDecoder'],
    ['what satisfies the middleware interface', 'implementers', 'middleware'],
    ['which structs satisfy io.Writer', 'implementers', 'io.Writer'],
    ['which classes include the Thor::Base module', 'implementers', 'Thor::Base'],
    ['what mixes in Comparable', 'implementers', 'Comparable'],
  ];
  it.each(cases)('%s -> %s of %s', (text, relation, target) => {
    const q = recogniseStructural(text);
    expect(q).not.toBeNull();
    expect([q!.relation, q!.target]).toEqual([relation, target]);
  });

  it.each([
    'how does the scheduler call the action when the delay elapses',
    'which function uses a regular expression to parse dates from strings',
    'Cannot read properties of undefined',
    'emit the last value when the source completes',
    'retry the request with exponential backoff',
    'which tests include a retry loop',
  ])('leaves "%s" to the text lists', (text) => {
    expect(recogniseStructural(text)).toBeNull();
  });
});

describe('cleanTarget / nameVariants', () => {
  it('drops articles, kind words and punctuation', () => {
    expect(cleanTarget('the `Observer` interface')).toBe('Observer');
    expect(cleanTarget('a regular expression to parse dates')).toBeNull();
  });
  it('joins several words the ways code spells them', () => {
    expect(nameVariants('async action')).toEqual(expect.arrayContaining(['asyncAction', 'AsyncAction', 'async_action', 'ASYNC_ACTION']));
    expect(nameVariants('Repository.save')).toEqual(expect.arrayContaining(['Repository.save', 'save']));
  });
});
