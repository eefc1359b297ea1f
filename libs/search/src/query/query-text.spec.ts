import { querySubTokens, queryWords, semanticQueryText, withoutPackagePath } from './query-text';

describe('query identifier splitting', () => {
  it('splits words on any whitespace and control characters', () => {
    expect(queryWords(' parse\tfile\nanalysis\u0000now ')).toEqual(['parse', 'file', 'analysis', 'now']);
  });

  it.each([
    ['parseFileAnalysis', ['parse', 'file', 'analysis']],
    ['parse_file_analysis', ['parse', 'file', 'analysis']],
    ['HTTPServer', ['http', 'server']],
    ['InvoiceService.create', ['invoice', 'service', 'create']],
    ['[dbo].[usp_CreateInvoice]', ['dbo', 'usp', 'create', 'invoice']],
    ['utf8Decode', ['utf8', 'decode']],
  ])('%s -> %j (like the index nameTokens)', (word, tokens) => {
    expect(querySubTokens(word)).toEqual(tokens);
  });

  it('leaves out a sub-token equal to its whole word, and repeats', () => {
    expect(querySubTokens('invoice create')).toEqual([]);
    expect(querySubTokens('invoice create invoiceCreate')).toEqual(['invoice', 'create']);
    expect(querySubTokens('createInvoice invoiceCreate')).toEqual(['create', 'invoice']);
  });

  it('adds split identifiers to the embedded text only when splitting changed something', () => {
    expect(semanticQueryText('create an invoice')).toBe('create an invoice');
    expect(semanticQueryText('  parseFileAnalysis ')).toBe('parseFileAnalysis (parse file analysis)');
    expect(semanticQueryText('where is usp_CreateInvoice called')).toBe('where is usp_CreateInvoice called (where is usp create invoice called)');
  });
});

describe('withoutPackagePath', () => {
  it('drops the package path of a pasted fully qualified name, in each language\'s spelling', () => {
    expect(withoutPackagePath('org.apache.commons.cli.UnrecognizedOptionException:')).toBe('UnrecognizedOptionException:');
    expect(withoutPackagePath('std::collections::HashMap')).toBe('HashMap');
    expect(withoutPackagePath('github.com/gorilla/mux.(*Router).ServeHTTP')).toBe('(*Router).ServeHTTP');
    expect(withoutPackagePath('Monolog\\Handler\\StreamHandler')).toBe('StreamHandler');
    expect(withoutPackagePath('lib/marisa/grimoire/io/writer.cc:135:')).toBe('writer');
    expect(withoutPackagePath('src/util.rs:35:13')).toBe('util');
  });

  it('keeps member access, a single qualifier and words that are not qualified names', () => {
    for (const word of ['Subscriber.next', 'System.InvalidOperationException', 'os.path.join', 'Thor::Shell::Basic', 'org.apache.commons.cli', 'parseFile(x)', 'e.g.']) {
      expect(withoutPackagePath(word)).toBe(word);
    }
  });
});
