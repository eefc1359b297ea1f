import { identifierSubTokens, nameTokens, subTokenList } from './tokens';

describe('identifierSubTokens', () => {
  it.each([
    ['parseFileAnalysis', 'parse file analysis'],
    ['parse_file_analysis', 'parse file analysis'],
    ['PARSE_FILE_ANALYSIS', 'parse file analysis'],
    ['HTTPServer', 'http server'],
    ['getHTTPResponseCode', 'get http response code'],
    ['XMLHttpRequest', 'xml http request'],
    ['IInvoiceRepository', 'i invoice repository'],
    ['InvoiceService.create', 'invoice service create'],
    ['utf8Decode', 'utf8 decode'],
    ['base64', 'base64'],
    ['HTTP2Server', 'http2 server'],
    ['[dbo].[usp_CreateInvoice]', 'dbo usp create invoice'],
    ['kebab-case-name', 'kebab case name'],
    ['$scope', 'scope'],
    ['__init__', 'init'],
    ['src/utils/parse-args.ts', 'src utils parse args ts'],
    ['', ''],
    ['42', '42'],
    ['ÉtatCivil', 'état civil'],
    ['where is parseFileAnalysis called?', 'where is parse file analysis called'],
  ])('%s -> %s', (input, expected) => {
    expect(identifierSubTokens(input)).toBe(expected);
  });

  it('subTokenList returns the tokens as an array', () => {
    expect(subTokenList('getHTTPResponse')).toEqual(['get', 'http', 'response']);
  });

  it('is usable repeatedly (no regex state leaks between calls)', () => {
    expect(identifierSubTokens('fooBar')).toBe('foo bar');
    expect(identifierSubTokens('fooBar')).toBe('foo bar');
  });
});

describe('nameTokens', () => {
  it('de-duplicates across the qualified name parts', () => {
    expect(nameTokens('MyApp.Services.InvoiceService.InvoiceService')).toBe('my app services invoice service');
    expect(nameTokens('dbo.Invoice', 'InvoiceId')).toBe('dbo invoice id');
  });
});
