import { defaultPlan } from '../plan';
import { routeIssue } from '../search.service';
import { SEARCH_LIMITS } from '../search.types';

const trace = ['Cart.total fails', 'Traceback (most recent call last):', '  File "shop/cart.py", line 15, in total', '  File "shop/pricing.py", line 11, in lookup_rate', 'KeyError: \'unknown discount code\''].join('\n');

describe('which mode answers: hybrid hands issues to LOCALIZE', () => {
  it('hybrid + a traceback -> LOCALIZE, saying why; a query stays hybrid; autoLocalize false keeps hybrid', () => {
    const routed = routeIssue(defaultPlan('hybrid', trace));
    expect(routed.plan.mode).toBe('localize');
    expect(routed.chosenBy).toMatch(/^hybrid chose LOCALIZE: the text is clearly an issue \(a stack trace \(2 frames\)\)$/);
    expect(routeIssue(defaultPlan('hybrid', 'where is the discount looked up')).plan.mode).toBe('hybrid');
    expect(routeIssue({ ...defaultPlan('hybrid', trace), autoLocalize: false }).plan.mode).toBe('hybrid');
    expect(routeIssue(defaultPlan('bm25', trace)).plan.mode).toBe('bm25');
  });

  it('with a rerank, the reranker is asked which functions must change to fix the issue (within the question limit)', () => {
    const plan = { ...defaultPlan('localize', `${trace}\n${'more words '.repeat(500)}`) };
    plan.rerank = { question: plan.semantic!.text, options: {}, candidateCount: 20 };
    const { plan: routed } = routeIssue(plan);
    expect(routed.rerank!.question).toMatch(/^Which of these functions must change to fix this issue\? Cart\.total fails/);
    expect(routed.rerank!.question).toMatch(/unknown discount code/);
    expect(routed.rerank!.question.length).toBeLessThanOrEqual(SEARCH_LIMITS.maxTextLength);
    // A question the caller wrote is kept as written.
    const own = routeIssue({ ...plan, rerank: { question: 'which function mishandles codes?', options: {}, candidateCount: 20 } });
    expect(own.plan.rerank!.question).toBe('which function mishandles codes?');
  });
});
