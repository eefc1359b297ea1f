import type { GraphEdgeType } from '@scopegraph/code-model';

/**
 * The hand-written graph questions of the rxjs dev set: a question a developer would ask, the scope
 * it is about (the anchor, which search has to find) and the walk that answers it. The answers
 * (`relevant`) are derived from the indexed graph by derive-graph-questions.ts and were checked by
 * reading the rxjs sources (`grep -rn "extends Subject"`, `grep -rn "popScheduler("`, ...).
 */
export interface GraphQuestion {
  id: string;
  query: string;
  anchor: { path: string; name: string };
  edges: GraphEdgeType[];
  direction: 'in' | 'out';
  depth: 1 | 2;
}

const O = 'internal/operators/';

export const GRAPH_QUESTIONS: GraphQuestion[] = [
  // Subclasses and sub-interfaces (EXTENDS, walked backwards).
  { id: 'rxjs-graph-01', query: 'which classes extend Subject', anchor: { path: 'internal/Subject.ts', name: 'Subject' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-02', query: 'what extends Observable', anchor: { path: 'internal/Observable.ts', name: 'Observable' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-03', query: 'what extends Subscriber', anchor: { path: 'internal/Subscriber.ts', name: 'Subscriber' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-04', query: 'subclasses of Subscription', anchor: { path: 'internal/Subscription.ts', name: 'Subscription' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-05', query: 'which scheduler actions are subclasses of AsyncAction', anchor: { path: 'internal/scheduler/AsyncAction.ts', name: 'AsyncAction' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-06', query: 'schedulers that extend AsyncScheduler', anchor: { path: 'internal/scheduler/AsyncScheduler.ts', name: 'AsyncScheduler' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-07', query: 'what extends AnonymousSubject', anchor: { path: 'internal/Subject.ts', name: 'AnonymousSubject' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-08', query: 'which class extends VirtualTimeScheduler', anchor: { path: 'internal/scheduler/VirtualTimeScheduler.ts', name: 'VirtualTimeScheduler' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-09', query: 'interfaces extending TimestampProvider', anchor: { path: 'internal/types.ts', name: 'TimestampProvider' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-10', query: 'which interfaces extend the Observer interface', anchor: { path: 'internal/types.ts', name: 'Observer' }, edges: ['EXTENDS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-11', query: 'all schedulers derived from Scheduler, directly or indirectly', anchor: { path: 'internal/Scheduler.ts', name: 'Scheduler' }, edges: ['EXTENDS'], direction: 'in', depth: 2 },
  { id: 'rxjs-graph-12', query: 'every action class that derives from Action', anchor: { path: 'internal/scheduler/Action.ts', name: 'Action' }, edges: ['EXTENDS'], direction: 'in', depth: 2 },
  // Implementers (IMPLEMENTS, walked backwards).
  { id: 'rxjs-graph-13', query: 'which classes implement SubscriptionLike', anchor: { path: 'internal/types.ts', name: 'SubscriptionLike' }, edges: ['IMPLEMENTS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-14', query: 'classes that implement the Observer interface', anchor: { path: 'internal/types.ts', name: 'Observer' }, edges: ['IMPLEMENTS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-15', query: 'what implements SubscriptionLoggable', anchor: { path: 'internal/testing/SubscriptionLoggable.ts', name: 'SubscriptionLoggable' }, edges: ['IMPLEMENTS'], direction: 'in', depth: 1 },
  // Callers (CALLS, walked backwards).
  { id: 'rxjs-graph-16', query: 'who calls popScheduler', anchor: { path: 'internal/util/args.ts', name: 'popScheduler' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-17', query: 'which operators are built on mergeInternals', anchor: { path: `${O}mergeInternals.ts`, name: 'mergeInternals' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-18', query: 'operators implemented with reduce', anchor: { path: `${O}reduce.ts`, name: 'reduce' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-19', query: 'where is the filter operator used by other operators', anchor: { path: `${O}filter.ts`, name: 'filter' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-20', query: 'callers of throwIfEmpty', anchor: { path: `${O}throwIfEmpty.ts`, name: 'throwIfEmpty' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-21', query: 'which operators call switchMap', anchor: { path: `${O}switchMap.ts`, name: 'switchMap' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-22', query: 'who uses popResultSelector', anchor: { path: 'internal/util/args.ts', name: 'popResultSelector' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-23', query: 'which functions call errorContext', anchor: { path: 'internal/util/errorContext.ts', name: 'errorContext' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-24', query: 'callers of handleUnhandledError', anchor: { path: 'internal/Subscriber.ts', name: 'handleUnhandledError' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  { id: 'rxjs-graph-25', query: 'where is isValidDate called', anchor: { path: 'internal/util/isDate.ts', name: 'isValidDate' }, edges: ['CALLS'], direction: 'in', depth: 1 },
  // Callees (CALLS, walked forwards).
  { id: 'rxjs-graph-26', query: 'which operators does first use internally', anchor: { path: `${O}first.ts`, name: 'first' }, edges: ['CALLS'], direction: 'out', depth: 1 },
  { id: 'rxjs-graph-27', query: 'what does the last operator call', anchor: { path: `${O}last.ts`, name: 'last' }, edges: ['CALLS'], direction: 'out', depth: 1 },
  { id: 'rxjs-graph-28', query: 'what is shareReplay built from', anchor: { path: `${O}shareReplay.ts`, name: 'shareReplay' }, edges: ['CALLS'], direction: 'out', depth: 1 },
];
