import { Parser } from 'web-tree-sitter';
import type { Tree } from '../parse/extractor';

/**
 * Parses another text with the grammar of a tree already parsed (one parser per grammar, kept):
 * for extractors that parse a file again with parts blanked (C's preprocessor branches, Rust's
 * macro bodies). The caller deletes the trees it gets.
 */
export class Reparser {
  private readonly parsers = new WeakMap<Tree['language'], Parser>();

  parse(language: Tree['language'], text: string): Tree | null {
    let parser = this.parsers.get(language);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(language);
      this.parsers.set(language, parser);
    }
    return parser.parse(text);
  }
}
