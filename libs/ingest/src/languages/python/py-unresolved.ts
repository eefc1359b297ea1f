import type { ParsedScope } from '../../parse/types';
import type { ResolverContext } from '../../resolve/resolver-context';

/**
 * Prefix of the bindings that mark a name as a function's parameter (a local binding in the function)
 * or an attribute set from one (`self.on_error = on_error`: a member binding in the class). A name with
 * a space is no identifier, so the marks never meet a real binding.
 */
export const PY_PARAM = 'param ';
/** Prefix of the bindings that mark a name assigned a value in a function or module (`append = out.append`). */
export const PY_VALUE = 'value ';

/**
 * Is this call, which the name-based resolver could not pin, made through a value the caller passes
 * in: a parameter (`on_error()`, `opts.x()`), an attribute set from an untyped parameter
 * (`self.on_error()`, `self.opts.x()`), or a variable assigned a value (`append = out.append`)? Which code runs is decided at run time: `dynamic`, not a miss.
 * A declared type wins: a typed parameter or attribute whose type lacks the member stays a miss.
 */
export function callsThroughParameter(c: ResolverContext, parts: string[], from: ParsedScope): boolean {
  const head = parts[0];
  if (head !== 'self' && head !== 'cls') {
    if (c.localBinding(head, from)) return false;
    if (c.localBinding(`${PY_PARAM}${head}`, from)) return true;
    // a local or module variable called itself holds a function (`append = lines.append; append(x)`);
    // a method called on one (`x = make(); x.run()`) has a type a checker can know: not dynamic
    if (parts.length > 1) return false;
    const env = c.envs.get(from.path);
    return !!c.localBinding(`${PY_VALUE}${head}`, from) || (!!env && !!c.fileBinding(`${PY_VALUE}${head}`, env) && !c.fileBinding(head, env));
  }
  const cls = c.enclosingClass(from);
  if (!cls || parts.length < 2) return false;
  return !!c.memberBinding([cls], `${PY_PARAM}${parts[1]}`) && !c.memberBinding([cls], parts[1]);
}

/**
 * A call the name-based resolver could not pin whose last name no scope of the repository declares
 * and no import binds (`url.lower()`, `state.items()`, `self.dict_class()`): whatever it calls is
 * not an in-repo declaration, so it is no in-repo miss. `dynamic` when it goes through a value: the
 * name is assigned somewhere in the repository, or it is an attribute of `self`/`cls` whose class has
 * no base from outside the repository; otherwise `external` (a method of a standard-library or
 * dependency type, or a name from outside). Undefined when some in-repo scope has the name.
 */
export function callToNoInRepoName(c: ResolverContext, parts: string[], from: ParsedScope): 'dynamic' | 'external' | undefined {
  const last = parts[parts.length - 1];
  if (c.pyDeclares(last)) return undefined;
  if (c.pyAssigns(last)) return 'dynamic';
  if ((parts[0] === 'self' || parts[0] === 'cls') && parts.length === 2) {
    const cls = c.enclosingClass(from);
    return cls && !c.inheritsFromOutside(cls) ? 'dynamic' : 'external';
  }
  return 'external';
}
