import type { LanguagePlugin } from '../plugin';
import { isCBuiltin } from './builtins';
import { CFamilyExtractor } from './extractor';
import { HEADER_EXTENSIONS } from './paths';
import { CFamilyResolver } from './resolver';

/**
 * C and C++, one family (C files include headers C++ files include too). `.c` files are C, parsed by
 * tree-sitter-c; C++ sources and every header (`.h` included) are parsed by tree-sitter-cpp, which
 * accepts the C that headers are written in (they are meant to be includable from C++) and the
 * classes, namespaces and templates of C++ headers. The file extension alone decides, so a C
 * library's headers are labelled `cpp`; resolution does not depend on the label.
 */
export const cFamilyPlugin: LanguagePlugin = {
  languages: [
    { id: 'c', extensions: ['c'], grammar: { module: 'tree-sitter-c/tree-sitter-c.wasm' } },
    { id: 'cpp', extensions: ['cpp', 'cc', 'cxx', 'c++', ...HEADER_EXTENSIONS], grammar: { vscode: 'tree-sitter-cpp.wasm' } },
  ],
  family: 'c',
  extractor: () => new CFamilyExtractor(),
  resolver: (ctx) => new CFamilyResolver(ctx),
  manifests: ['Makefile', 'CMakeLists.txt'],
  isBuiltin: isCBuiltin,
};
