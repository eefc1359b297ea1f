import type { ParsedScope } from '../../parse/types';
import type { ResolverContext } from '../../resolve/resolver-context';

/**
 * Prefix of the bindings that mark a name as a function's parameter (a local binding in the function)
 * or an attribute set from one (`self.on_error = on_error`: a member binding in the class). A name with
 * a space is no identifier, so the marks never meet a real binding.
 */
export const PY_PARAM = 'param ';

/**
 * Is this call, which the name-based resolver could not pin, made through a value the caller passes
 * in: a parameter (`on_error()`, `opts.x()`), or an attribute set from an untyped parameter
 * (`self.on_error()`, `self.opts.x()`)? Which code runs is decided at run time: `dynamic`, not a miss.
 * A declared type wins: a typed parameter or attribute whose type lacks the member stays a miss.
 */
export function callsThroughParameter(c: ResolverContext, parts: string[], from: ParsedScope): boolean {
  const head = parts[0];
  if (head !== 'self' && head !== 'cls') return !!c.localBinding(`${PY_PARAM}${head}`, from) && !c.localBinding(head, from);
  const cls = c.enclosingClass(from);
  if (!cls || parts.length < 2) return false;
  return !!c.memberBinding([cls], `${PY_PARAM}${parts[1]}`) && !c.memberBinding([cls], parts[1]);
}
