import type { ApolloServerPlugin } from '@apollo/server';
import { graphqlDuration } from '@scopegraph/observability';

/** Unnamed operations are labelled by their first field, so the label set stays small and useful. */
const ANONYMOUS = 'anonymous';

/** Times every GraphQL operation by name and type (subscriptions: until the subscribe call returns). */
export function graphqlMetricsPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      const end = graphqlDuration.startTimer();
      return {
        async willSendResponse({ operation, operationName, errors }) {
          const firstField = operation?.selectionSet.selections.find((s) => s.kind === 'Field');
          const name = operationName ?? (firstField && 'name' in firstField ? firstField.name.value : ANONYMOUS);
          end({ operation: name.slice(0, 100), type: operation?.operation ?? 'unknown', outcome: errors?.length ? 'error' : 'ok' });
        },
      };
    },
  };
}
